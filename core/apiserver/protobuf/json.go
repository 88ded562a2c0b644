package protobuf

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"
)

// maxDepth bounds nesting. The schema is not recursive, but RawExtensions
// may carry whole envelopes, and hostile input must not exhaust the stack.
const maxDepth = 64

var (
	errTooDeep  = errors.New("protobuf: nesting too deep")
	errTooLarge = errors.New("protobuf: JSON form too large")
)

// writer accumulates the JSON of one conversion.
type writer struct {
	buf []byte
	// limit caps len(buf): fields absent from the wire may still be written
	// (as Go would), so a hostile body of empty list entries could
	// otherwise make output far larger than itself.
	limit int
}

// object writes data, a message of type typ, as a JSON value.
func (w *writer) object(typ string, data []byte, depth int) error {
	if depth > maxDepth {
		return errTooDeep
	}
	m := schema.messages[typ]
	if m == nil {
		return fmt.Errorf("protobuf: no schema for message %s", typ)
	}
	if m.special != specNone {
		return w.wellKnown(m, data, depth)
	}
	w.buf = append(w.buf, '{')
	first := true
	if err := w.members(m, data, &first, depth); err != nil {
		return err
	}
	w.buf = append(w.buf, '}')
	return nil
}

// members writes m's fields as members of the object under way; first
// tracks whether a comma is due. Fields come out in schema order, which is
// the order of upstream's Go structs and so of Go's JSON.
func (w *writer) members(m *message, data []byte, first *bool, depth int) error {
	if len(w.buf) > w.limit {
		return errTooLarge
	}
	slots, err := scan(data, m)
	if err != nil {
		return err
	}
	for i := range m.fields {
		f := &m.fields[i]
		its := slots[i]
		if f.inline {
			// An embedded Go struct: its members join this object.
			if depth+1 > maxDepth {
				return errTooDeep
			}
			sub := schema.messages[f.typ]
			if sub == nil || sub.special != specNone {
				return fmt.Errorf("protobuf: cannot inline %s into %s", f.typ, m.name)
			}
			if err := w.members(sub, joined(its), first, depth+1); err != nil {
				return err
			}
			continue
		}
		var err error
		switch f.card {
		case single:
			err = w.single(f, its, first, depth)
		case list:
			err = w.list(f, its, first, depth)
		case mapping:
			err = w.mapping(f, its, first, depth)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// key writes a member name and the colon.
func (w *writer) key(name string, first *bool) {
	if !*first {
		w.buf = append(w.buf, ',')
	}
	*first = false
	w.buf = appendString(w.buf, name)
	w.buf = append(w.buf, ':')
}

func (w *writer) single(f *field, its []item, first *bool, depth int) error {
	if len(its) == 0 {
		switch f.pres {
		case presAlways:
			w.key(f.name, first)
			return w.zero(f, depth)
		case presNullable:
			w.key(f.name, first)
			w.buf = append(w.buf, "null"...)
		}
		return nil
	}
	if f.kind == kMessage {
		data := joined(its)
		if f.pres == presOmitZero && len(data) == 0 {
			return nil
		}
		w.key(f.name, first)
		return w.object(f.typ, data, depth+1)
	}
	it, _ := last(its)
	if (f.pres == presOmitEmpty || f.pres == presOmitZero) && isZero(f.kind, it) {
		return nil
	}
	w.key(f.name, first)
	w.scalar(f.kind, it)
	return nil
}

func (w *writer) list(f *field, its []item, first *bool, depth int) error {
	if f.kind == kBool || f.kind == kInt32 || f.kind == kInt64 {
		ns, err := numbers(its)
		if err != nil {
			return err
		}
		its = its[:0:0]
		for _, n := range ns {
			its = append(its, item{wire: wireVarint, n: n})
		}
	}
	if len(its) == 0 {
		// Go leaves the slice nil: omitempty drops it, otherwise null.
		if f.pres == presAlways {
			w.key(f.name, first)
			w.buf = append(w.buf, "null"...)
		}
		return nil
	}
	w.key(f.name, first)
	w.buf = append(w.buf, '[')
	for i, it := range its {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if f.kind == kMessage {
			if err := w.object(f.typ, it.data, depth+1); err != nil {
				return err
			}
			continue
		}
		w.scalar(f.kind, it)
	}
	w.buf = append(w.buf, ']')
	return nil
}

// mapping writes a map<string, V> field. Entries are messages
// {key = 1, value = 2}; a repeated key replaces the earlier one, and Go
// writes maps with sorted keys.
func (w *writer) mapping(f *field, its []item, first *bool, depth int) error {
	if len(its) == 0 {
		if f.pres == presAlways {
			w.key(f.name, first)
			w.buf = append(w.buf, "null"...)
		}
		return nil
	}
	entries := make(map[string]item, len(its))
	for _, e := range its {
		var k string
		var v item
		for buf := e.data; len(buf) > 0; {
			num, it, rest, err := next(buf)
			if err != nil {
				return err
			}
			buf = rest
			switch {
			case num == 1 && it.wire == wireBytes:
				k = string(it.data)
			case num == 1:
				return fmt.Errorf("protobuf: wrong wire type %d for a key of %s", it.wire, f.name)
			case num == 2 && !wireFits(&field{kind: f.kind}, it.wire):
				return fmt.Errorf("protobuf: wrong wire type %d for a value of %s", it.wire, f.name)
			case num == 2:
				v = it
			}
		}
		entries[k] = v
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.key(f.name, first)
	w.buf = append(w.buf, '{')
	inner := true
	for _, k := range keys {
		w.key(k, &inner)
		v := entries[k]
		if f.kind == kMessage {
			if err := w.object(f.typ, v.data, depth+1); err != nil {
				return err
			}
			continue
		}
		w.scalar(f.kind, v)
	}
	w.buf = append(w.buf, '}')
	return nil
}

// zero writes what Go writes for a field absent from the wire that it
// does not omit.
func (w *writer) zero(f *field, depth int) error {
	switch f.kind {
	case kString:
		w.buf = append(w.buf, `""`...)
	case kBytes:
		w.buf = append(w.buf, "null"...)
	case kBool:
		w.buf = append(w.buf, "false"...)
	case kInt32, kInt64:
		w.buf = append(w.buf, '0')
	case kMessage:
		return w.object(f.typ, nil, depth+1)
	}
	return nil
}

func (w *writer) scalar(k kind, it item) {
	switch k {
	case kString:
		w.buf = appendString(w.buf, string(it.data))
	case kBytes:
		w.buf = append(w.buf, '"')
		w.buf = base64.StdEncoding.AppendEncode(w.buf, it.data)
		w.buf = append(w.buf, '"')
	case kBool:
		w.buf = strconv.AppendBool(w.buf, it.n != 0)
	case kInt32:
		w.buf = strconv.AppendInt(w.buf, int64(int32(it.n)), 10)
	case kInt64:
		w.buf = strconv.AppendInt(w.buf, int64(it.n), 10)
	}
}

func isZero(k kind, it item) bool {
	switch k {
	case kString, kBytes:
		return len(it.data) == 0
	case kInt32:
		return int32(it.n) == 0
	default:
		return it.n == 0
	}
}

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			// Valid JSON, but not valid JavaScript: escape as Go does.
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
