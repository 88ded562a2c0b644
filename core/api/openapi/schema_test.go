package openapi

import (
	"reflect"
	"strings"
	"testing"

	"kubeplay/core/api"
)

func TestEveryDefinitionAndFieldHasADescription(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Definitions() {
		if strings.TrimSpace(d.Description) == "" || d.Description == "TODO" {
			t.Errorf("%s has no description", d.Name)
		}
		for _, f := range d.Fields {
			if strings.TrimSpace(f.Description) == "" || f.Description == "TODO" {
				t.Errorf("%s.%s has no description", d.Name, f.Name)
			}
		}
	}
}

// The schema must describe exactly the fields our Go types serve: every
// JSON field of every kind, nested types included, with a matching type.
func TestSchemaMatchesTheGoTypes(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, gvk := range api.Kinds() {
		switch gvk.Kind {
		case "Scale", "Eviction": // request bodies of subresources, not resources
			continue
		}
		obj, _ := api.New(gvk.APIVersion(), gvk.Kind)
		d, ok := s.ForKind(GVK{gvk.Group, gvk.Version, gvk.Kind})
		if !ok {
			t.Errorf("no definition for %v", gvk)
			continue
		}
		checkStruct(t, d, reflect.TypeOf(obj).Elem(), map[string]bool{})
	}
}

func checkStruct(t *testing.T, d *Definition, typ reflect.Type, seen map[string]bool) {
	t.Helper()
	if seen[d.Name] {
		return
	}
	seen[d.Name] = true
	goFields := map[string]reflect.Type{}
	jsonFields(typ, goFields)
	byName := map[string]*Field{}
	for _, f := range d.Fields {
		byName[f.Name] = f
		if _, ok := goFields[f.Name]; !ok {
			t.Errorf("%s.%s is in the schema but %v has no such field", d.Name, f.Name, typ)
		}
	}
	for name, ft := range goFields {
		f, ok := byName[name]
		if !ok {
			t.Errorf("%s: %v field %q is missing from the schema", d.Name, typ, name)
			continue
		}
		checkType(t, d.Name+"."+name, f.Type, ft, seen)
	}
}

func jsonFields(typ reflect.Type, out map[string]reflect.Type) {
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			jsonFields(f.Type, out)
			continue
		}
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		out[name] = f.Type
	}
}

var leafTypes = map[string]string{
	"api.Time": "Time", "api.MicroTime": "MicroTime", "resource.Quantity": "Quantity",
	"intstr.IntOrString": "IntOrString", "api.RawExtension": "RawExtension",
}

func checkType(t *testing.T, where string, st *Type, gt reflect.Type, seen map[string]bool) {
	t.Helper()
	for gt.Kind() == reflect.Pointer {
		gt = gt.Elem()
	}
	if leaf, ok := leafTypes[gt.String()]; ok {
		if st.Ref == nil || !strings.HasSuffix(st.Ref.Name, "."+leaf) {
			t.Errorf("%s: schema type does not refer to %s", where, leaf)
		}
		return
	}
	want := map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean", reflect.Int32: "integer/int32",
		reflect.Int64: "integer/int64", reflect.Float64: "number/double"}[gt.Kind()]
	got := st.Primitive
	if st.Format != "" {
		got += "/" + st.Format
	}
	switch gt.Kind() {
	case reflect.Slice:
		if gt.Elem().Kind() == reflect.Uint8 {
			if got != "string/byte" {
				t.Errorf("%s: bytes are %q in the schema", where, got)
			}
			return
		}
		if st.Elem == nil || st.Map {
			t.Errorf("%s: a list in Go but not in the schema", where)
			return
		}
		checkType(t, where+"[]", st.Elem, gt.Elem(), seen)
	case reflect.Map:
		if st.Elem == nil || !st.Map {
			t.Errorf("%s: a map in Go but not in the schema", where)
			return
		}
		checkType(t, where+"{}", st.Elem, gt.Elem(), seen)
	case reflect.Struct:
		if st.Ref == nil {
			t.Errorf("%s: a struct in Go but %q in the schema", where, got)
			return
		}
		checkStruct(t, st.Ref, gt, seen)
	default:
		if got != want {
			t.Errorf("%s: %v in Go is %q in the schema, want %q", where, gt, got, want)
		}
	}
}
