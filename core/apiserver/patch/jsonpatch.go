package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// MaxJSONPatchOperations is the apiserver's cap on operations in one JSON
// patch.
const MaxJSONPatchOperations = 10000

// copySizeLimit bounds how many bytes "copy" operations may add in one
// patch, so a short patch cannot grow a document exponentially.
const copySizeLimit = 3 * 1024 * 1024

// jsonOp is one RFC 6902 operation as sent; a field that is JSON null is
// a nil pointer, one that is absent is missing from the map.
type jsonOp map[string]*json.RawMessage

type jsonOps []jsonOp

// jsonArray lets operations grow and shrink an array in place while its
// parent keeps pointing at it.
type jsonArray struct{ items []any }

func (a *jsonArray) MarshalJSON() ([]byte, error) {
	if a.items == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(a.items)
}

// Wording of evanphx/json-patch v4's sentinel errors, which its messages
// end with.
var (
	errTestFailed   = errors.New("test failed")
	errMissing      = errors.New("missing value")
	errInvalidIndex = errors.New("invalid index referenced")
)

// wrapf words an error as github.com/pkg/errors.Wrapf does: "msg: cause".
func wrapf(cause error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), cause)
}

// JSONPatch applies an RFC 6902 JSON patch to the original document, with
// the behaviour and error wording of evanphx/json-patch v4 (which the
// apiserver uses): negative array indices count from the end, "-" appends,
// and "replace" of a missing object key adds it.
func JSONPatch(original, patchData []byte) ([]byte, error) {
	ops, err := decodeJSONOps(patchData)
	if err != nil {
		return nil, badRequest(err)
	}
	if len(ops) > MaxJSONPatchOperations {
		return nil, &Error{Code: 413,
			Message: fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", MaxJSONPatchOperations, len(ops))}
	}
	if len(original) == 0 {
		return original, nil
	}
	doc, err := decodeJSONPatchDoc(original)
	if err != nil {
		return nil, unprocessable(err)
	}
	if _, ok := doc.(map[string]any); !ok {
		if _, ok := doc.(*jsonArray); !ok {
			return nil, unprocessable(fmt.Errorf("json: cannot unmarshal %s into Go value of type jsonpatch.partialDoc", jsonKind(doc)))
		}
	}
	var copied int
	for _, op := range ops {
		switch kind := op.kind(); kind {
		case "add":
			err = opAdd(doc, op)
		case "remove":
			err = opRemove(doc, op)
		case "replace":
			doc, err = opReplace(doc, op)
		case "move":
			err = opMove(doc, op)
		case "test":
			err = opTest(doc, op)
		case "copy":
			err = opCopy(doc, op, &copied)
		default:
			err = fmt.Errorf("Unexpected kind: %s", kind)
		}
		if err != nil {
			return nil, unprocessable(err)
		}
	}
	return json.Marshal(doc)
}

func decodeJSONOps(data []byte) (jsonOps, error) {
	var ops jsonOps
	if err := json.Unmarshal(data, &ops); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Name the types as upstream's decoder does.
			typ := "jsonpatch.Operation"
			if te.Type == reflect.TypeOf(ops) {
				typ = "jsonpatch.Patch"
			}
			return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", te.Value, typ)
		}
		return nil, err
	}
	return ops, nil
}

// decodeJSONPatchDoc parses a document keeping numbers as written, since
// "test" compares them as text, and arrays as *jsonArray.
func decodeJSONPatchDoc(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var probe any
		if uerr := json.Unmarshal(data, &probe); uerr != nil {
			return nil, uerr
		}
		return nil, err
	}
	return toPatchTree(v), nil
}

func toPatchTree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = toPatchTree(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = toPatchTree(e)
		}
		return &jsonArray{items: t}
	default:
		return v
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	default:
		return "number"
	}
}

func (o jsonOp) kind() string {
	raw := o["op"]
	if raw == nil {
		return "unknown"
	}
	var s string
	if err := json.Unmarshal(*raw, &s); err != nil {
		return "unknown"
	}
	return s
}

func (o jsonOp) stringField(name, missing string) (string, error) {
	raw := o[name]
	if raw == nil {
		return "unknown", wrapf(errMissing, "%s", missing)
	}
	var s string
	if err := json.Unmarshal(*raw, &s); err != nil {
		return "unknown", err
	}
	return s, nil
}

func (o jsonOp) path() (string, error) {
	return o.stringField("path", "operation missing path field")
}

func (o jsonOp) from() (string, error) {
	return o.stringField("from", "operation, missing from field")
}

// value decodes the "value" field; absent and null both give nil, and
// present tells them apart.
func (o jsonOp) value() (v any, present bool) {
	raw, ok := o["value"]
	if !ok {
		return nil, false
	}
	if raw == nil {
		return nil, true
	}
	v, err := decodeJSONPatchDoc(*raw)
	if err != nil {
		return nil, true
	}
	return v, true
}

// A container is an object or array a path's last token indexes into.
type container interface {
	get(key string) (any, error)
	set(key string, v any) error
	add(key string, v any) error
	remove(key string) error
}

type objectContainer map[string]any

func (d objectContainer) get(key string) (any, error) { return d[key], nil }

func (d objectContainer) set(key string, v any) error {
	d[key] = v
	return nil
}

func (d objectContainer) add(key string, v any) error {
	d[key] = v
	return nil
}

func (d objectContainer) remove(key string) error {
	if _, ok := d[key]; !ok {
		return wrapf(errMissing, "Unable to remove nonexistent key: %s", key)
	}
	delete(d, key)
	return nil
}

type arrayContainer struct{ a *jsonArray }

func invalidIndex(idx int) error {
	return wrapf(errInvalidIndex, "Unable to access invalid index: %d", idx)
}

func (d arrayContainer) get(key string) (any, error) {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return nil, err
	}
	n := len(d.a.items)
	if idx < 0 {
		if idx < -n {
			return nil, invalidIndex(idx)
		}
		idx += n
	}
	if idx >= n {
		return nil, invalidIndex(idx)
	}
	return d.a.items[idx], nil
}

func (d arrayContainer) set(key string, v any) error {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return err
	}
	n := len(d.a.items)
	if idx < 0 {
		if idx < -n {
			return invalidIndex(idx)
		}
		idx += n
	}
	if idx >= n {
		return invalidIndex(idx)
	}
	d.a.items[idx] = v
	return nil
}

func (d arrayContainer) add(key string, v any) error {
	if key == "-" {
		d.a.items = append(d.a.items, v)
		return nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return wrapf(err, "value was not a proper array index: '%s'", key)
	}
	n := len(d.a.items) + 1
	if idx >= n {
		return invalidIndex(idx)
	}
	if idx < 0 {
		if idx < -n {
			return invalidIndex(idx)
		}
		idx += n
	}
	items := make([]any, 0, n)
	items = append(items, d.a.items[:idx]...)
	items = append(items, v)
	items = append(items, d.a.items[idx:]...)
	d.a.items = items
	return nil
}

func (d arrayContainer) remove(key string) error {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return err
	}
	n := len(d.a.items)
	if idx >= n {
		return invalidIndex(idx)
	}
	if idx < 0 {
		if idx < -n {
			return invalidIndex(idx)
		}
		idx += n
	}
	items := make([]any, 0, n-1)
	items = append(items, d.a.items[:idx]...)
	items = append(items, d.a.items[idx+1:]...)
	d.a.items = items
	return nil
}

func asContainer(v any) container {
	switch t := v.(type) {
	case map[string]any:
		return objectContainer(t)
	case *jsonArray:
		return arrayContainer{t}
	}
	return nil
}

var pointerDecoder = strings.NewReplacer("~1", "/", "~0", "~")

// findObject resolves all but the last token of an RFC 6901 pointer and
// returns that container with the last token, unescaped. Like upstream it
// ignores whatever precedes the first "/".
func findObject(doc any, path string) (container, string) {
	split := strings.Split(path, "/")
	if len(split) < 2 {
		return nil, ""
	}
	cur := asContainer(doc)
	for _, part := range split[1 : len(split)-1] {
		if cur == nil {
			return nil, ""
		}
		next, err := cur.get(pointerDecoder.Replace(part))
		if err != nil || next == nil {
			return nil, ""
		}
		cur = asContainer(next)
	}
	if cur == nil {
		return nil, ""
	}
	return cur, pointerDecoder.Replace(split[len(split)-1])
}

func opAdd(doc any, op jsonOp) error {
	path, err := op.path()
	if err != nil {
		return wrapf(errMissing, "add operation failed to decode path")
	}
	con, key := findObject(doc, path)
	if con == nil {
		return wrapf(errMissing, "add operation does not apply: doc is missing path: \"%s\"", path)
	}
	v, _ := op.value()
	if err := con.add(key, v); err != nil {
		return wrapf(err, "error in add for path: '%s'", path)
	}
	return nil
}

func opRemove(doc any, op jsonOp) error {
	path, err := op.path()
	if err != nil {
		return wrapf(errMissing, "remove operation failed to decode path")
	}
	con, key := findObject(doc, path)
	if con == nil {
		return wrapf(errMissing, "remove operation does not apply: doc is missing path: \"%s\"", path)
	}
	if err := con.remove(key); err != nil {
		return wrapf(err, "error in remove for path: '%s'", path)
	}
	return nil
}

func opReplace(doc any, op jsonOp) (any, error) {
	path, err := op.path()
	if err != nil {
		return doc, wrapf(err, "replace operation failed to decode path")
	}
	if path == "" {
		// The whole document; upstream ignores a value that is neither
		// an object nor an array.
		v, _ := op.value()
		switch v.(type) {
		case map[string]any, *jsonArray:
			return v, nil
		}
		return doc, nil
	}
	con, key := findObject(doc, path)
	if con == nil {
		return doc, wrapf(errMissing, "replace operation does not apply: doc is missing path: %s", path)
	}
	if _, err := con.get(key); err != nil {
		return doc, wrapf(errMissing, "replace operation does not apply: doc is missing key: %s", path)
	}
	v, _ := op.value()
	if err := con.set(key, v); err != nil {
		return doc, wrapf(err, "error in remove for path: '%s'", path)
	}
	return doc, nil
}

func opMove(doc any, op jsonOp) error {
	from, err := op.from()
	if err != nil {
		return wrapf(err, "move operation failed to decode from")
	}
	con, key := findObject(doc, from)
	if con == nil {
		return wrapf(errMissing, "move operation does not apply: doc is missing from path: %s", from)
	}
	val, err := con.get(key)
	if err != nil {
		return wrapf(err, "error in move for path: '%s'", key)
	}
	if err := con.remove(key); err != nil {
		return wrapf(err, "error in move for path: '%s'", key)
	}
	path, err := op.path()
	if err != nil {
		return wrapf(err, "move operation failed to decode path")
	}
	con, key = findObject(doc, path)
	if con == nil {
		return wrapf(errMissing, "move operation does not apply: doc is missing destination path: %s", path)
	}
	if err := con.add(key, val); err != nil {
		return wrapf(err, "error in move for path: '%s'", path)
	}
	return nil
}

func opTest(doc any, op jsonOp) error {
	path, err := op.path()
	if err != nil {
		return wrapf(err, "test operation failed to decode path")
	}
	want, _ := op.value()
	if path == "" {
		if patchTreeEqual(doc, want) {
			return nil
		}
		return wrapf(errTestFailed, "testing value %s failed", path)
	}
	con, key := findObject(doc, path)
	if con == nil {
		return wrapf(errMissing, "test operation does not apply: is missing path: %s", path)
	}
	got, err := con.get(key)
	if err != nil {
		return wrapf(err, "error in test for path: '%s'", path)
	}
	if patchTreeEqual(got, want) {
		return nil
	}
	return wrapf(errTestFailed, "testing value %s failed", path)
}

func opCopy(doc any, op jsonOp, copied *int) error {
	from, err := op.from()
	if err != nil {
		return wrapf(err, "copy operation failed to decode from")
	}
	con, key := findObject(doc, from)
	if con == nil {
		return wrapf(errMissing, "copy operation does not apply: doc is missing from path: %s", from)
	}
	val, err := con.get(key)
	if err != nil {
		return wrapf(err, "error in copy for from: '%s'", from)
	}
	path, err := op.path()
	if err != nil {
		return wrapf(errMissing, "copy operation failed to decode path")
	}
	con, key = findObject(doc, path)
	if con == nil {
		return wrapf(errMissing, "copy operation does not apply: doc is missing destination path: %s", path)
	}
	raw, err := json.Marshal(val)
	if err != nil {
		return wrapf(err, "error while performing deep copy")
	}
	*copied += len(raw)
	if *copied > copySizeLimit {
		return fmt.Errorf("Unable to complete the copy, the accumulated size increase of copy is %d, exceeding the limit %d", *copied, copySizeLimit)
	}
	dup, err := decodeJSONPatchDoc(raw)
	if err != nil {
		return wrapf(err, "error while performing deep copy")
	}
	if err := con.add(key, dup); err != nil {
		return wrapf(err, "error while adding value during copy")
	}
	return nil
}

// patchTreeEqual compares as upstream's "test" does: objects by keys,
// arrays by position, scalars by their JSON text (so 1 and 1.0 differ).
func patchTreeEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !patchTreeEqual(xv, yv) {
				return false
			}
		}
		return true
	case *jsonArray:
		y, ok := b.(*jsonArray)
		if !ok || len(x.items) != len(y.items) {
			return false
		}
		for i := range x.items {
			if !patchTreeEqual(x.items[i], y.items[i]) {
				return false
			}
		}
		return true
	default:
		switch b.(type) {
		case map[string]any, *jsonArray:
			return false
		}
		return a == b
	}
}
