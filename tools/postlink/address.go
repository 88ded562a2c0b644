package main

// Go's backend computes an address as a 64-bit value and narrows it for
// the load or store: i64.extend_i32_u, i64.const C, i64.add, i32.wrap_i64
// (about 250,000 times in the page's wasm). Modulo 2^32, which is all the
// wrap keeps, that is i32.const C, i32.add: two bytes fewer and two
// instructions fewer each time.

// narrowAddresses returns the function body with each such sequence
// narrowed, and how many it narrowed.
func narrowAddresses(b []byte) ([]byte, int, error) {
	p, err := skipLocals(b)
	if err != nil {
		return nil, 0, err
	}
	out := append(make([]byte, 0, len(b)), b[:p]...)
	n := 0
	for p < len(b) {
		next, err := instrEnd(b, p)
		if err != nil {
			return nil, 0, err
		}
		if b[p] == 0xad && next < len(b) && b[next] == 0x42 { // i64.extend_i32_u; i64.const
			if c, q, err := sleb(b, next+1); err == nil && q+1 < len(b) && b[q] == 0x7c && b[q+1] == 0xa7 { // i64.add; i32.wrap_i64
				out = append(out, 0x41) // i32.const
				out = appendSleb(out, int64(int32(c)))
				out = append(out, 0x6a) // i32.add
				n++
				p = q + 2
				continue
			}
		}
		out = append(out, b[p:next]...)
		p = next
	}
	return out, n, nil
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
