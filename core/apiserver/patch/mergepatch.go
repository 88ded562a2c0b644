package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Wording of evanphx/json-patch v4's merge patch errors.
var (
	errBadJSONDoc   = errors.New("Invalid JSON Document")
	errBadJSONPatch = errors.New("Invalid JSON Patch")
)

// MergePatch applies an RFC 7386 JSON merge patch: objects merge key by
// key, null deletes a key, anything else (arrays included) replaces. It
// follows evanphx/json-patch v4, whose "Invalid JSON Patch" the apiserver
// answers with 400 and anything else with 500.
func MergePatch(original, patchData []byte) ([]byte, error) {
	doc, docErr := decodeMergeDoc(original)
	pat, patchErr := decodeMergeDoc(patchData)
	var syn *json.SyntaxError
	if errors.As(docErr, &syn) {
		return nil, internal(errBadJSONDoc)
	}
	if errors.As(patchErr, &syn) {
		return nil, badRequest(errBadJSONPatch)
	}
	docObj, docIsObj := doc.(map[string]any)
	patchObj, patchIsObj := pat.(map[string]any)
	if docErr == nil && doc == nil {
		return nil, internal(errBadJSONDoc)
	}
	if patchErr == nil && pat == nil {
		return nil, badRequest(errBadJSONPatch)
	}
	switch {
	case docIsObj && patchIsObj:
		mergeDocs(docObj, patchObj)
		return json.Marshal(docObj)
	case patchIsObj:
		// Not an object to merge into: the patch becomes the document.
		return json.Marshal(pruneNulls(patchObj))
	default:
		arr, ok := pat.([]any)
		if !ok {
			return nil, badRequest(errBadJSONPatch)
		}
		return json.Marshal(pruneNulls(arr))
	}
}

// decodeMergeDoc parses JSON keeping numbers as written.
func decodeMergeDoc(data []byte) (any, error) {
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	return decodeJSONNumbers(data)
}

func decodeJSONNumbers(data []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// mergeDocs merges patch into doc in place.
func mergeDocs(doc, patch map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		v := patch[k]
		if v == nil {
			delete(doc, k)
			continue
		}
		cur, ok := doc[k]
		if !ok || cur == nil {
			doc[k] = pruneNulls(v)
			continue
		}
		doc[k] = mergeValue(cur, v)
	}
}

func mergeValue(cur, patch any) any {
	curObj, ok := cur.(map[string]any)
	if !ok {
		return pruneNulls(patch)
	}
	patchObj, ok := patch.(map[string]any)
	if !ok {
		// Upstream returns such a patch value untouched, nulls and all.
		return patch
	}
	mergeDocs(curObj, patchObj)
	return curObj
}

// pruneNulls drops null members of objects, recursively (array elements
// that are null stay).
func pruneNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if t[k] == nil {
				delete(t, k)
			} else {
				t[k] = pruneNulls(t[k])
			}
		}
	case []any:
		for i, e := range t {
			if e != nil {
				t[i] = pruneNulls(e)
			}
		}
	}
	return v
}

// CreateMergePatch returns the JSON merge patch that turns original into
// modified (evanphx/json-patch's CreateMergePatch for two objects).
func CreateMergePatch(original, modified []byte) ([]byte, error) {
	o, err := decodeObject(original)
	if err != nil {
		return nil, errBadJSONDoc
	}
	m, err := decodeObject(modified)
	if err != nil {
		return nil, errBadJSONDoc
	}
	return json.Marshal(mergeDiff(o, m))
}

// mergeDiff is the merge patch from a to b.
func mergeDiff(a, b map[string]any) map[string]any {
	into := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		bv := b[k]
		av, ok := a[k]
		if !ok {
			into[k] = bv
			continue
		}
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		switch {
		case aIsMap && bIsMap:
			if d := mergeDiff(am, bm); len(d) > 0 {
				into[k] = d
			}
		case !jsonValuesMatch(av, bv):
			into[k] = bv
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			into[k] = nil
		}
	}
	return into
}

// jsonValuesMatch compares JSON values with numbers compared by value, as
// upstream's float64 decoding does.
func jsonValuesMatch(a, b any) bool {
	if af, ok := number(a); ok {
		bf, ok := number(b)
		return ok && af == bf
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonValuesMatch(xv, yv) {
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
			if !jsonValuesMatch(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		switch b.(type) {
		case map[string]any, []any:
			return false
		}
		return a == b
	}
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// createThreeWayJSONMergePatch is kubectl apply's patch for kinds without
// strategic merge metadata (apimachinery's jsonmergepatch): changes and
// additions from current to modified, deletions from original to modified.
func createThreeWayJSONMergePatch(original, modified, current []byte) ([]byte, error) {
	o, m, c, err := decodeThree(original, modified, current)
	if err != nil {
		return nil, errBadJSONDoc
	}
	addAndChange := keepOrDropNulls(mergeDiff(c, m), false)
	deletions := keepOrDropNulls(mergeDiff(o, m), true)
	if mergeConflicts(addAndChange, deletions) {
		return nil, newConflictError(addAndChange, deletions)
	}
	mergeDocs(deletions, addAndChange)
	return json.Marshal(deletions)
}

// decodeThree parses apply's three documents; an empty one is {}.
func decodeThree(original, modified, current []byte) (o, m, c map[string]any, err error) {
	docs := [3][]byte{original, modified, current}
	var out [3]map[string]any
	for i, d := range docs {
		if len(d) == 0 {
			out[i] = map[string]any{}
			continue
		}
		if out[i], err = decodeObject(d); err != nil {
			return nil, nil, nil, err
		}
	}
	return out[0], out[1], out[2], nil
}

// keepOrDropNulls keeps only the null leaves (keepNull) or only the rest.
func keepOrDropNulls(m map[string]any, keepNull bool) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch t := v.(type) {
		case nil:
			if keepNull {
				out[k] = nil
			}
		case map[string]any:
			if len(t) == 0 {
				if !keepNull {
					out[k] = t
				}
				continue
			}
			if sub := keepOrDropNulls(t, keepNull); len(sub) > 0 {
				out[k] = sub
			}
		default:
			if !keepNull {
				out[k] = v
			}
		}
	}
	return out
}

// mergeConflicts reports whether two patches set a shared field
// differently (mergepatch.HasConflicts).
func mergeConflicts(left, right any) bool {
	switch l := left.(type) {
	case map[string]any:
		r, ok := right.(map[string]any)
		if !ok {
			return true
		}
		for _, k := range slices.Sorted(maps.Keys(l)) {
			if rv, ok := r[k]; ok && mergeConflicts(l[k], rv) {
				return true
			}
		}
		return false
	case []any:
		r, ok := right.([]any)
		if !ok || len(l) != len(r) {
			return true
		}
		for i := range l {
			if mergeConflicts(l[i], r[i]) {
				return true
			}
		}
		return false
	default:
		return !deepEqual(left, right)
	}
}

// ConflictError is a three-way patch that would overwrite a change made
// to the live object since the last apply (only with overwrite false).
type ConflictError struct{ Message string }

func (e *ConflictError) Error() string { return e.Message }

func newConflictError(patch, changed map[string]any) error {
	return &ConflictError{Message: fmt.Sprintf("patch:\n%s\nconflicts with changes made from original to current:\n%s\n", toYAML(patch), toYAML(changed))}
}
