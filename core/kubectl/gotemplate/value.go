// Package gotemplate runs kubectl's -o go-template over the objects kubectl
// prints: what JSON decodes to (maps, slices, strings, int64, float64,
// bools, nil). It parses with text/template/parse and evaluates as
// text/template does, error for error, but without reflection: text/template
// looks methods up by name, which makes the linker keep every exported method
// of every reachable type, and that cost the page's wasm 5 MB.
package gotemplate

import "fmt"

// state of a value, as reflect would see it in text/template.
const (
	invalid  = iota // reflect's zero Value: a missing key, an untyped nil
	concrete        // a value of its own type
	boxed           // a value held in an interface{} slot (a map or slice element), possibly nil
	missing         // no value passed down the pipeline (text/template's missingVal)
)

// value is what text/template holds as a reflect.Value. The types that can
// occur are those of decoded JSON (map[string]any, []any, string, int64,
// float64, bool) and those templates make themselves (int, uint8,
// complex128).
type value struct {
	x     any
	state uint8
}

var (
	noValue   = value{state: invalid}
	noFinal   = value{state: missing}
	nilIfaceV = value{state: boxed}
)

func of(x any) value { return value{x: x, state: concrete} }

func boxedOf(x any) value { return value{x: x, state: boxed} }

func (v value) valid() bool { return v.state == concrete || v.state == boxed }

// elem is indirectInterface: the concrete value inside an interface, or
// the invalid value for a nil one.
func (v value) elem() value {
	if v.state != boxed {
		return v
	}
	if v.x == nil {
		return noValue
	}
	return of(v.x)
}

// isNilIface reports an interface{} holding nil.
func (v value) isNilIface() bool { return v.state == boxed && v.x == nil }

// typeName is reflect.Type's String for the value's static type.
func (v value) typeName() string {
	if v.state == boxed {
		return "interface {}"
	}
	return typeOf(v.x)
}

func typeOf(x any) string {
	switch x.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	}
	return fmt.Sprintf("%T", x)
}

// kind groups the types as the comparison functions do.
type kind int

const (
	otherKind kind = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

func basicKind(x any) kind {
	switch x.(type) {
	case bool:
		return boolKind
	case int, int64:
		return intKind
	case uint8:
		return uintKind
	case float64:
		return floatKind
	case complex128:
		return complexKind
	case string:
		return stringKind
	}
	return otherKind
}

func asInt(x any) int64 {
	switch n := x.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	}
	return 0
}

// isTrue is text/template's truth: non-zero, non-empty; ok is false for
// values with no truth (none of the types above).
func isTrue(v value) (truth, ok bool) {
	if !v.valid() {
		return false, true
	}
	switch x := v.x.(type) {
	case map[string]any:
		return len(x) > 0, true
	case []any:
		return len(x) > 0, true
	case string:
		return len(x) > 0, true
	case bool:
		return x, true
	case int:
		return x != 0, true
	case int64:
		return x != 0, true
	case uint8:
		return x != 0, true
	case float64:
		return x != 0, true
	case complex128:
		return x != 0, true
	case nil:
		return false, true
	}
	return false, false
}

func truth(v value) bool {
	t, _ := isTrue(v.elem())
	return t
}
