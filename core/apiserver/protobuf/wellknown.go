package protobuf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// rfc3339Micro is metav1.MicroTime's JSON layout.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// wellKnown writes the messages whose JSON form is not an object of their
// fields, the way their upstream MarshalJSON methods do.
func (w *writer) wellKnown(m *message, data []byte, depth int) error {
	slots, err := scan(data, m)
	if err != nil {
		return err
	}
	num := func(i int) uint64 { it, _ := last(slots[i]); return it.n }
	str := func(i int) []byte { it, _ := last(slots[i]); return it.data }
	switch m.special {
	case specTime, specMicroTime:
		// Upstream marshals the zero time as an empty message, and writes
		// it as null.
		if len(data) == 0 {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		t := time.Unix(int64(num(0)), int64(int32(num(1)))).UTC()
		if y := t.Year(); y < 0 || y > 9999 {
			return fmt.Errorf("protobuf: time out of range: year %d", y)
		}
		layout := time.RFC3339 // whole seconds: Time drops the nanoseconds
		if m.special == specMicroTime {
			layout = rfc3339Micro
		}
		w.buf = append(w.buf, '"')
		w.buf = t.AppendFormat(w.buf, layout)
		w.buf = append(w.buf, '"')
	case specDuration:
		w.buf = appendString(w.buf, time.Duration(num(0)).String())
	case specIntOrString:
		switch num(0) {
		case 0:
			w.buf = strconv.AppendInt(w.buf, int64(int32(num(1))), 10)
		case 1:
			w.buf = appendString(w.buf, string(str(2)))
		default:
			return fmt.Errorf("protobuf: IntOrString of unknown type %d", num(0))
		}
	case specQuantity:
		s := string(str(0))
		if s == "" {
			s = "0" // the zero Quantity
		}
		w.buf = appendString(w.buf, s)
	case specStringList:
		if len(slots[0]) == 0 {
			// Upstream leaves the slice nil.
			w.buf = append(w.buf, "null"...)
			return nil
		}
		w.buf = append(w.buf, '[')
		for i, it := range slots[0] {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = appendString(w.buf, string(it.data))
		}
		w.buf = append(w.buf, ']')
	case specRawExtension, specFieldsV1:
		return w.embedded(str(0), m.special == specRawExtension, depth)
	default:
		return fmt.Errorf("protobuf: no JSON form for %s", m.name)
	}
	return nil
}

// embedded writes the raw bytes of a RawExtension or FieldsV1. Clients put
// JSON there; a RawExtension may also hold a whole protobuf envelope.
func (w *writer) embedded(raw []byte, envelopes bool, depth int) error {
	switch {
	case len(raw) == 0:
		w.buf = append(w.buf, "null"...)
	case envelopes && bytes.HasPrefix(raw, magic):
		return w.envelope(raw[len(magic):], depth+1)
	case json.Valid(raw):
		// Compact so that the output stays one line of JSON.
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return err
		}
		w.buf = append(w.buf, b.Bytes()...)
	default:
		return fmt.Errorf("protobuf: embedded object is neither JSON nor protobuf")
	}
	return nil
}
