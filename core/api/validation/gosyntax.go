package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// goValue prints a value the way upstream's errors print internal API
// structs with %#v (core.PodTemplateSpec{...}), except that non-nil
// pointers print as &value instead of a memory address, which would make
// output differ from run to run.
type goValue struct{ v any }

func (g goValue) String() string { return goSyntax(reflect.ValueOf(g.v)) }

// metav1Types are the kubeplay api types that upstream keeps in
// k8s.io/apimachinery/pkg/apis/meta/v1 (printed "v1."); the rest print "core.".
var metav1Types = map[string]bool{"ObjectMeta": true, "LabelSelector": true, "LabelSelectorRequirement": true,
	"Time": true, "MicroTime": true, "OwnerReference": true, "Condition": true, "TypeMeta": true}

func goTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + goTypeName(t.Elem())
	case reflect.Slice:
		return "[]" + goTypeName(t.Elem())
	case reflect.Map:
		return "map[" + goTypeName(t.Key()) + "]" + goTypeName(t.Elem())
	}
	s := t.String()
	if strings.HasPrefix(s, "api.") {
		if metav1Types[s[4:]] {
			return "v1." + s[4:]
		}
		return "core." + s[4:]
	}
	return s
}

func goSyntax(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	t := v.Type()
	if t == quantityType || t.Kind() == reflect.Struct && t.PkgPath() == "time" {
		return fmt.Sprintf("%#v", v.Interface())
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "(" + goTypeName(t) + ")(nil)"
		}
		return "&" + goSyntax(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return "interface {}(nil)"
		}
		return goSyntax(v.Elem())
	case reflect.Struct:
		parts := make([]string, 0, t.NumField())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			parts = append(parts, f.Name+":"+goSyntax(v.Field(i)))
		}
		return goTypeName(t) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Slice:
		if v.IsNil() {
			return goTypeName(t) + "(nil)"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = goSyntax(v.Index(i))
		}
		return goTypeName(t) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.Map:
		if v.IsNil() {
			return goTypeName(t) + "(nil)"
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = goSyntax(k) + ":" + goSyntax(v.MapIndex(k))
		}
		return goTypeName(t) + "{" + strings.Join(parts, ", ") + "}"
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprintf("%#v", v.Interface())
}
