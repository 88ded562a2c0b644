package apiserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/apiserver/patch"
)

// patchFields applies a merge or strategic merge patch field by field when
// every top-level key of the patch names a field of the object (metadata,
// spec, status, data, ...) and holds an object. Neither kind of patch
// touches a key it does not name, so only the named fields need to go
// through JSON; the rest of the object is copied. (The node IPAM
// controller's CIDR patch then encodes a node's spec, not its status with
// every image it holds.) ok is false for any other patch, and for one that
// fails here: the caller then patches the whole object, which also words
// the errors.
func patchFields(cur api.Object, patchType string, data []byte, schema patch.Schema) (api.Object, bool) {
	if patchType != MergePatchType && patchType != StrategicMergePatchType {
		return nil, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || len(top) == 0 {
		return nil, false
	}
	v := reflect.ValueOf(cur)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	// An object that encodes itself may not be the sum of its fields.
	if _, ok := cur.(json.Marshaler); ok {
		return nil, false
	}
	if _, ok := cur.(json.Unmarshaler); ok {
		return nil, false
	}
	t := v.Elem().Type()
	fields := make(map[string]int, len(top))
	original := make(map[string]any, len(top))
	for key, raw := range top {
		raw = bytes.TrimLeft(raw, " \t\r\n")
		if len(raw) == 0 || raw[0] != '{' {
			return nil, false // null, a list or a value replaces the field
		}
		i := fieldNamed(t, key)
		if i < 0 {
			return nil, false
		}
		fields[key] = i
		original[key] = v.Elem().Field(i).Interface()
	}
	origJSON, err := json.Marshal(original)
	if err != nil {
		return nil, false
	}
	var patched []byte
	if patchType == MergePatchType {
		patched, err = patch.MergePatch(origJSON, data)
	} else {
		patched, err = patch.StrategicMergePatch(origJSON, data, schema)
	}
	if err != nil {
		return nil, false
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(patched, &out) != nil {
		return nil, false
	}
	obj := cur.DeepCopyObject()
	ov := reflect.ValueOf(obj).Elem()
	for key, i := range fields {
		f := ov.Field(i)
		f.Set(reflect.Zero(f.Type()))
		if raw, ok := out[key]; ok {
			if json.Unmarshal(raw, f.Addr().Interface()) != nil {
				return nil, false
			}
		}
	}
	return obj, true
}

// fieldNamed is the index of t's field that JSON calls name (an embedded
// struct counts when its tag names it, as ObjectMeta's "metadata"), or -1.
func fieldNamed(t reflect.Type, name string) int {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case tag != "":
			if tag == name {
				return i
			}
		case !f.Anonymous && f.Name == name:
			return i
		}
	}
	return -1
}
