package protobuf

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Wire types of the protobuf encoding.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

const maxFieldNumber = 1<<29 - 1

var (
	errTruncated = errors.New("protobuf: unexpected end of data")
	errOverflow  = errors.New("protobuf: varint overflows 64 bits")
)

// item is one occurrence of a field on the wire.
type item struct {
	wire int
	n    uint64 // varint and fixed values
	data []byte // length-delimited payloads; aliases the input
}

// uvarint reads a base-128 varint, returning the value and the rest.
func uvarint(buf []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(buf)
	switch {
	case n == 0:
		return 0, nil, errTruncated
	case n < 0:
		return 0, nil, errOverflow
	}
	return v, buf[n:], nil
}

// next reads one field: its number and value, and the rest of buf.
// Groups (obsolete, and unused by Kubernetes) are skipped whole and come
// back as an item with wire type wireStartGroup.
func next(buf []byte) (num int32, it item, rest []byte, err error) {
	key, buf, err := uvarint(buf)
	if err != nil {
		return 0, item{}, nil, err
	}
	n, wire := key>>3, int(key&7)
	if n == 0 || n > maxFieldNumber {
		return 0, item{}, nil, fmt.Errorf("protobuf: illegal field number %d", n)
	}
	it.wire = wire
	switch wire {
	case wireVarint:
		it.n, buf, err = uvarint(buf)
	case wireFixed64:
		if len(buf) < 8 {
			return 0, item{}, nil, errTruncated
		}
		it.n, buf = binary.LittleEndian.Uint64(buf), buf[8:]
	case wireFixed32:
		if len(buf) < 4 {
			return 0, item{}, nil, errTruncated
		}
		it.n, buf = uint64(binary.LittleEndian.Uint32(buf)), buf[4:]
	case wireBytes:
		var l uint64
		if l, buf, err = uvarint(buf); err == nil {
			if l > uint64(len(buf)) {
				return 0, item{}, nil, errTruncated
			}
			it.data, buf = buf[:l], buf[l:]
		}
	case wireStartGroup:
		buf, err = skipGroup(buf, n)
	default:
		return 0, item{}, nil, fmt.Errorf("protobuf: unexpected wire type %d for field %d", wire, n)
	}
	if err != nil {
		return 0, item{}, nil, err
	}
	return int32(n), it, buf, nil
}

// skipGroup skips past the end-group tag that closes group num. It loops
// rather than recursing so that hostile nesting cannot exhaust the stack.
func skipGroup(buf []byte, num uint64) ([]byte, error) {
	open := []uint64{num}
	for len(open) > 0 {
		key, rest, err := uvarint(buf)
		if err != nil {
			return nil, err
		}
		n, wire := key>>3, int(key&7)
		switch wire {
		case wireStartGroup:
			open = append(open, n)
			buf = rest
		case wireEndGroup:
			if n != open[len(open)-1] {
				return nil, fmt.Errorf("protobuf: mismatched end of group %d", n)
			}
			open = open[:len(open)-1]
			buf = rest
		default:
			if _, _, buf, err = next(buf); err != nil {
				return nil, err
			}
		}
	}
	return buf, nil
}

// scan reads a message's fields into one slot per schema field. Fields the
// schema does not know are skipped, as protobuf decoders do; a known field
// on the wrong wire type is an error, as it is for the generated decoders.
func scan(buf []byte, m *message) ([][]item, error) {
	slots := make([][]item, len(m.fields))
	for len(buf) > 0 {
		num, it, rest, err := next(buf)
		if err != nil {
			return nil, err
		}
		buf = rest
		i, f := m.lookup(num)
		if f == nil {
			continue
		}
		if !wireFits(f, it.wire) {
			return nil, fmt.Errorf("protobuf: wrong wire type %d for field %s (%d) of %s", it.wire, f.name, num, m.name)
		}
		slots[i] = append(slots[i], it)
	}
	return slots, nil
}

// wireFits says whether a field of f's kind may arrive on wire type w.
// Repeated numbers may come packed (length-delimited) or one by one.
func wireFits(f *field, w int) bool {
	if f.card == mapping {
		return w == wireBytes
	}
	switch f.kind {
	case kBool, kInt32, kInt64:
		return w == wireVarint || (f.card == list && w == wireBytes)
	default:
		return w == wireBytes
	}
}

// last returns the value of a singular scalar field: the last occurrence wins.
func last(its []item) (item, bool) {
	if len(its) == 0 {
		return item{}, false
	}
	return its[len(its)-1], true
}

// joined returns the payload of a singular message field. Protobuf merges
// repeated occurrences, and decoding their concatenation is that merge.
func joined(its []item) []byte {
	switch len(its) {
	case 0:
		return nil
	case 1:
		return its[0].data
	}
	var b []byte
	for _, it := range its {
		b = append(b, it.data...)
	}
	return b
}

// numbers expands a repeated numeric field, unpacking packed occurrences.
func numbers(its []item) ([]uint64, error) {
	var out []uint64
	for _, it := range its {
		if it.wire == wireVarint {
			out = append(out, it.n)
			continue
		}
		for buf := it.data; len(buf) > 0; {
			v, rest, err := uvarint(buf)
			if err != nil {
				return nil, err
			}
			out, buf = append(out, v), rest
		}
	}
	return out, nil
}
