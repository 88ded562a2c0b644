package api

import (
	"bytes"
	"errors"
)

// RawExtension is runtime.RawExtension: an embedded object kept as raw JSON
// (a ControllerRevision's data). It marshals as the embedded object itself.
type RawExtension struct {
	Raw []byte `json:"-"`
}

func (r RawExtension) MarshalJSON() ([]byte, error) {
	if len(r.Raw) == 0 {
		return []byte("null"), nil
	}
	return r.Raw, nil
}

func (r *RawExtension) UnmarshalJSON(b []byte) error {
	if r == nil {
		return errors.New("api.RawExtension: UnmarshalJSON on nil pointer")
	}
	if bytes.Equal(b, []byte("null")) {
		r.Raw = nil
		return nil
	}
	// The decoder reuses its buffer: keep our own copy.
	r.Raw = append(r.Raw[:0:0], b...)
	return nil
}
