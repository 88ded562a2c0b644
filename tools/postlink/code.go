package main

import (
	"errors"
	"fmt"
)

// rewriteCode returns the module with each function body of its code
// section replaced by what rewrite makes of it.
func rewriteCode(m []byte, rewrite func(body []byte) ([]byte, error)) ([]byte, error) {
	header, start, end, err := section(m, 10, "code")
	if err != nil {
		return nil, err
	}
	code, err := rewriteCodeSection(m[start:end], rewrite)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), m[:header]...)
	out = append(out, 10)
	out = appendUleb(out, uint64(len(code)))
	out = append(out, code...)
	return append(out, m[end:]...), nil
}

func rewriteCodeSection(sec []byte, rewrite func([]byte) ([]byte, error)) ([]byte, error) {
	count, p, err := uleb(sec, 0)
	if err != nil {
		return nil, err
	}
	out := appendUleb(make([]byte, 0, len(sec)), count)
	for i := uint64(0); i < count; i++ {
		var size uint64
		if size, p, err = uleb(sec, p); err != nil {
			return nil, err
		}
		if size > uint64(len(sec)-p) {
			return nil, fmt.Errorf("function %d runs past the end of the code", i)
		}
		body, err := rewrite(sec[p : p+int(size)])
		if err != nil {
			return nil, fmt.Errorf("function %d: %v", i, err)
		}
		out = appendUleb(out, uint64(len(body)))
		out = append(out, body...)
		p += int(size)
	}
	if p != len(sec) {
		return nil, errors.New("bytes after the last function")
	}
	return out, nil
}

func skipLocals(b []byte) (int, error) {
	n, p, err := uleb(b, 0)
	if err != nil || n > uint64(len(b)) {
		return 0, errors.New("malformed locals")
	}
	for i := uint64(0); i < n; i++ {
		if _, p, err = uleb(b, p); err != nil || p >= len(b) {
			return 0, errors.New("malformed locals")
		}
		p++
	}
	return p, nil
}

// instrEnd returns where the instruction at p ends, for the instructions
// Go's backend writes; any other is an error.
func instrEnd(b []byte, p int) (int, error) {
	op := b[p]
	p++
	var err error
	skip := func(n int) {
		for range n {
			if err == nil {
				_, p, err = uleb(b, p)
			}
		}
	}
	switch {
	case op == 0x02 || op == 0x03 || op == 0x04: // block type
		if p < len(b) && (b[p] == 0x40 || b[p] >= 0x7b && b[p] <= 0x7f) {
			p++
		} else {
			_, p, err = sleb(b, p)
		}
	case op == 0x0c || op == 0x0d || op == 0x10 || op >= 0x20 && op <= 0x24:
		skip(1)
	case op == 0x0e:
		var n uint64
		if n, p, err = uleb(b, p); err == nil && n < uint64(len(b)) {
			skip(int(n) + 1)
		}
	case op == 0x11 || op >= 0x28 && op <= 0x3e: // call_indirect; memory access
		skip(2)
	case op == 0x3f || op == 0x40:
		skip(1)
	case op == 0x41 || op == 0x42:
		_, p, err = sleb(b, p)
	case op == 0x43:
		p += 4
	case op == 0x44:
		p += 8
	case op <= 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b || op >= 0x45 && op <= 0xc4:
	case op == 0xfc:
		var sub uint64
		if sub, p, err = uleb(b, p); err == nil {
			switch {
			case sub <= 7:
			case sub == 9 || sub == 11:
				skip(1)
			case sub == 8 || sub == 10:
				skip(2)
			default:
				return 0, fmt.Errorf("unknown instruction 0xfc %d", sub)
			}
		}
	default:
		return 0, fmt.Errorf("unknown instruction 0x%02x", op)
	}
	if err != nil || p > len(b) {
		return 0, errors.New("instruction runs past the end of the function")
	}
	return p, nil
}

func appendUleb(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
