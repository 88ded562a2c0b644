// Package patch applies and computes the three patch formats the API
// server accepts: JSON patch (RFC 6902, as evanphx/json-patch v4 applies
// it), JSON merge patch (RFC 7386) and Kubernetes' strategic merge patch
// (apimachinery's strategicpatch), plus the two- and three-way patch
// builders kubectl apply uses.
//
// Everything works on plain JSON trees (map[string]any, []any, string,
// int64, float64, bool, nil), so results are byte-for-byte deterministic:
// maps marshal with sorted keys and every walk over a map goes in key order.
package patch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Error is a patch the API server refuses. Code is the HTTP status
// upstream's apiserver answers with for that failure:
//
//   - 400 Bad Request: the patch body is malformed (Message is shown);
//   - 413 Request Entity Too Large: too many JSON patch operations;
//   - 422 Unprocessable Entity: a well-formed patch that does not apply.
//     Upstream answers these with the generic Invalid message "the server
//     rejected our request due to an error in our request"; Message keeps
//     the detail for logs and traces;
//   - 500: any other failure; upstream returns Message as it is.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return e.Message }

func badRequest(err error) error {
	return &Error{Code: 400, Message: err.Error()}
}

func unprocessable(err error) error {
	return &Error{Code: 422, Message: err.Error()}
}

func internal(err error) error {
	return &Error{Code: 500, Message: err.Error()}
}

// decodeValue parses one JSON document into a tree whose numbers are int64
// when they are integers that fit and float64 otherwise, as apimachinery's
// json package (PreserveInts) does. Errors carry encoding/json's wording.
func decodeValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = fmt.Errorf("trailing data")
		}
	}
	if err != nil {
		// Let encoding/json word the error exactly as Unmarshal does.
		var probe any
		if uerr := json.Unmarshal(data, &probe); uerr != nil {
			return nil, uerr
		}
		return nil, err
	}
	return convertNumbers(v)
}

// decodeObject parses a JSON object; null gives an empty map.
func decodeObject(data []byte) (map[string]any, error) {
	var probe map[string]any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	v, err := decodeValue(data)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func convertNumbers(v any) (any, error) {
	var err error
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if t[k], err = convertNumbers(e); err != nil {
				return nil, err
			}
		}
	case []any:
		for i, e := range t {
			if t[i], err = convertNumbers(e); err != nil {
				return nil, err
			}
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", t)
		}
		return f, nil
	}
	return v, nil
}

// deepCopy copies a JSON tree.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		if t == nil {
			return t
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// deepEqual compares two JSON trees; int64 and float64 differ, as the
// reflect.DeepEqual upstream uses makes them.
func deepEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !deepEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !deepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// marshal renders a result tree; it cannot fail on a tree decoded from
// JSON, but an error is still reported rather than dropped.
func marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, internal(err)
	}
	return b, nil
}
