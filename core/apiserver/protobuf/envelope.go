package protobuf

import (
	"bytes"
	"errors"
	"fmt"
)

// magic opens every Kubernetes protobuf body.
var magic = []byte("k8s\x00")

// ErrUnknownKind reports a well-formed body of a kind that has no schema
// here. A server can answer it with 415 Unsupported Media Type, on which
// client-go retries the request as JSON.
var ErrUnknownKind error = unknownKind{}

// unknownKind is errors.ErrUnsupported to callers that do not import this
// package (the API server, which the page's wasm links without it).
type unknownKind struct{}

func (unknownKind) Error() string { return "protobuf: no schema for this kind" }

func (unknownKind) Is(target error) bool { return target == errors.ErrUnsupported }

const unknownType = "k8s.io.apimachinery.pkg.runtime.Unknown"

// ToJSON converts a request body in Kubernetes' protobuf encoding
// (Content-Type application/vnd.kubernetes.protobuf) into the JSON object
// the same client would have sent as application/json: the same member
// names, int64s as numbers, and the members Go's encoding/json would write
// for the upstream Go type. Errors other than ErrUnknownKind mean the body
// is malformed.
func ToJSON(body []byte) ([]byte, error) {
	if !bytes.HasPrefix(body, magic) {
		return nil, errors.New("protobuf: body does not start with the Kubernetes magic")
	}
	// Real bodies grow about three times over at most: member names are
	// longer than field tags.
	w := &writer{buf: make([]byte, 0, 2*len(body)+64), limit: 16*len(body) + 1<<20}
	if err := w.envelope(body[len(magic):], 0); err != nil {
		return nil, err
	}
	return w.buf, nil
}

// envelope writes the object held by a runtime.Unknown: its typeMeta names
// the kind, and raw is the object's own message, which has no apiVersion
// or kind of its own.
func (w *writer) envelope(data []byte, depth int) error {
	if depth > maxDepth {
		return errTooDeep
	}
	u := schema.messages[unknownType]
	slots, err := scan(data, u)
	if err != nil {
		return err
	}
	tm, err := scan(joined(slots[0]), schema.messages["k8s.io.apimachinery.pkg.runtime.TypeMeta"])
	if err != nil {
		return err
	}
	apiVersion, kind := lastString(tm[0]), lastString(tm[1])
	if enc := lastString(slots[2]); enc != "" {
		return fmt.Errorf("protobuf: unsupported content encoding %q", enc)
	}
	if ct := lastString(slots[3]); ct != "" && ct != "application/vnd.kubernetes.protobuf" {
		return fmt.Errorf("protobuf: unsupported content type %q inside the envelope", ct)
	}
	m := schema.kind(apiVersion, kind)
	if m == nil {
		return fmt.Errorf("%w: %s %s", ErrUnknownKind, apiVersion, kind)
	}
	raw, _ := last(slots[1])
	// TypeMeta leads, inline and omitempty, as in Go's JSON.
	w.buf = append(w.buf, '{')
	first := true
	if kind != "" {
		w.key("kind", &first)
		w.buf = appendString(w.buf, kind)
	}
	if apiVersion != "" {
		w.key("apiVersion", &first)
		w.buf = appendString(w.buf, apiVersion)
	}
	if err := w.members(m, raw.data, &first, depth+1); err != nil {
		return err
	}
	w.buf = append(w.buf, '}')
	return nil
}

func lastString(its []item) string {
	it, _ := last(its)
	return string(it.data)
}
