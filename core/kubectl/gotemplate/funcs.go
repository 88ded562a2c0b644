package gotemplate

import (
	"encoding/base64"
	"errors"
	"fmt"
)

// function is a template function: its parameters' types (the last one
// repeated when variadic) and its body.
type function struct {
	params   []param
	variadic bool
	call     func(args []value) (value, error)
}

// param is the type of the j-th argument.
func (f *function) param(j int) param {
	if j >= len(f.params) {
		if !f.variadic {
			return pNone
		}
		return f.params[len(f.params)-1]
	}
	return f.params[j]
}

func fixed(call func(args []value) (value, error), params ...param) *function {
	return &function{params: params, call: call}
}

func variadic(call func(args []value) (value, error), params ...param) *function {
	return &function{params: params, variadic: true, call: call}
}

// builtins are text/template's functions.
var builtins = map[string]*function{
	// and, or and call are evaluated by evalCall itself.
	"and":      variadic(nil, pValue, pValue),
	"or":       variadic(nil, pValue, pValue),
	"call":     variadic(callFunc, pValue, pValue),
	"html":     variadic(escaper(htmlEscape), pAny),
	"js":       variadic(escaper(jsEscape), pAny),
	"urlquery": variadic(escaper(urlQueryEscape), pAny),
	"index":    variadic(index, pValue, pValue),
	"slice":    variadic(slice, pValue, pValue),
	"len":      fixed(length, pValue),
	"not":      fixed(func(a []value) (value, error) { return of(!truth(a[0])), nil }, pValue),
	"print":    variadic(func(a []value) (value, error) { return of(fmt.Sprint(anys(a)...)), nil }, pAny),
	"println":  variadic(func(a []value) (value, error) { return of(fmt.Sprintln(anys(a)...)), nil }, pAny),
	"printf": variadic(func(a []value) (value, error) {
		return of(fmt.Sprintf(a[0].x.(string), anys(a[1:])...)), nil
	}, pString, pAny),
	"eq": variadic(func(a []value) (value, error) { return boolResult(eq(a[0], a[1:]...)) }, pValue, pValue),
	"ne": fixed(func(a []value) (value, error) {
		t, err := eq(a[0], a[1])
		return of(!t), err
	}, pValue, pValue),
	"lt": fixed(func(a []value) (value, error) { return boolResult(lt(a[0], a[1])) }, pValue, pValue),
	"le": fixed(func(a []value) (value, error) { return boolResult(le(a[0], a[1])) }, pValue, pValue),
	"gt": fixed(func(a []value) (value, error) {
		t, err := le(a[0], a[1])
		if err != nil {
			return of(false), err
		}
		return of(!t), nil
	}, pValue, pValue),
	"ge": fixed(func(a []value) (value, error) {
		t, err := lt(a[0], a[1])
		if err != nil {
			return of(false), err
		}
		return of(!t), nil
	}, pValue, pValue),
}

// kubectlFuncs are the functions kubectl's go-template printer adds.
var kubectlFuncs = map[string]*function{
	"exists": variadic(func(a []value) (value, error) { return of(exists(a[0], a[1:])), nil }, pAny, pAny),
	"base64decode": fixed(func(a []value) (value, error) {
		b, err := base64.StdEncoding.DecodeString(a[0].x.(string))
		if err != nil {
			return of(""), fmt.Errorf("base64 decode failed: %v", err)
		}
		return of(string(b)), nil
	}, pString),
}

func boolResult(t bool, err error) (value, error) { return of(t), err }

// anys is the arguments as a function of interface{} parameters gets them.
func anys(a []value) []any {
	out := make([]any, len(a))
	for i, v := range a {
		out[i] = v.x
	}
	return out
}

var errZeroValue = errors.New("reflect: call of reflect.Value.Type on zero Value")

// indexArg is an integer index into something of length or capacity cap.
func indexArg(i value, cap int) (int, error) {
	var x int64
	switch n := i.x; {
	case !i.valid():
		return 0, fmt.Errorf("cannot index slice/array with nil")
	case i.state == concrete && basicKind(n) == intKind:
		x = asInt(n)
	case i.state == concrete && basicKind(n) == uintKind:
		x = int64(n.(uint8))
	default:
		return 0, fmt.Errorf("cannot index slice/array with type %s", i.typeName())
	}
	if x < 0 || x > int64(cap) {
		return 0, fmt.Errorf("index out of range: %d", x)
	}
	return int(x), nil
}

// elemIndex is an index to read an element at; the length itself passes
// indexArg but reflect refuses it.
func elemIndex(i value, length int, what string) (int, error) {
	n, err := indexArg(i, length)
	if err == nil && n == length {
		err = fmt.Errorf("reflect: %s index out of range", what)
	}
	return n, err
}

// index is x[i][j]…: slices and strings by integer, maps by string key
// (the element type's zero, nil, for a missing one).
func index(a []value) (value, error) {
	item := a[0].elem()
	if !item.valid() {
		return noValue, fmt.Errorf("index of untyped nil")
	}
	for _, i := range a[1:] {
		i = i.elem()
		if item.isNilIface() {
			return noValue, fmt.Errorf("index of nil pointer")
		}
		switch x := item.x.(type) {
		case []any:
			n, err := elemIndex(i, len(x), "slice")
			if err != nil {
				return noValue, err
			}
			item = boxedOf(x[n])
		case string:
			n, err := elemIndex(i, len(x), "string")
			if err != nil {
				return noValue, err
			}
			item = of(x[n])
		case map[string]any:
			if !i.valid() {
				return noValue, fmt.Errorf("value is nil; should be of type string")
			}
			key, ok := i.x.(string)
			if !ok {
				return noValue, fmt.Errorf("value has type %s; should be string", i.typeName())
			}
			item = boxedOf(x[key])
		default:
			return noValue, fmt.Errorf("can't index item of type %s", typeOf(item.x))
		}
	}
	return item, nil
}

// slice is x[i:j:k] over a slice or string; the indexes are taken as they
// come, not out of their interfaces.
func slice(a []value) (value, error) {
	item := a[0].elem()
	if !item.valid() {
		return noValue, fmt.Errorf("slice of untyped nil")
	}
	idxs := a[1:]
	if len(idxs) > 3 {
		return noValue, fmt.Errorf("too many slice indexes: %d", len(idxs))
	}
	var length, cp int
	switch x := item.x.(type) {
	case string:
		if len(idxs) == 3 {
			return noValue, fmt.Errorf("cannot 3-index slice a string")
		}
		length, cp = len(x), len(x)
	case []any:
		length, cp = len(x), cap(x)
	default:
		return noValue, fmt.Errorf("can't slice item of type %s", typeOf(item.x))
	}
	idx := [3]int{0, length}
	for i, v := range idxs {
		n, err := indexArg(v, cp)
		if err != nil {
			return noValue, err
		}
		idx[i] = n
	}
	if idx[0] > idx[1] {
		return noValue, fmt.Errorf("invalid slice index: %d > %d", idx[0], idx[1])
	}
	if str, ok := item.x.(string); ok {
		return of(str[idx[0]:idx[1]]), nil
	}
	x := item.x.([]any)
	if len(idxs) < 3 {
		return of(x[idx[0]:idx[1]]), nil
	}
	if idx[1] > idx[2] {
		return noValue, fmt.Errorf("invalid slice index: %d > %d", idx[1], idx[2])
	}
	return of(x[idx[0]:idx[1]:idx[2]]), nil
}

func length(a []value) (value, error) {
	item := a[0]
	if item.isNilIface() {
		return noValue, fmt.Errorf("len of nil pointer")
	}
	if !item.valid() {
		return noValue, errZeroValue
	}
	switch x := item.x.(type) {
	case map[string]any:
		return of(len(x)), nil
	case []any:
		return of(len(x)), nil
	case string:
		return of(len(x)), nil
	}
	return noValue, fmt.Errorf("len of type %s", typeOf(item.x))
}

// callFunc is call: no value here is a function, so it only fails.
func callFunc(a []value) (value, error) {
	name, fn := a[0].x.(string), a[1].elem()
	if !fn.valid() {
		return noValue, fmt.Errorf("call of nil")
	}
	return noValue, fmt.Errorf("non-function %s of type %s", name, typeOf(fn.x))
}

// exists is kubectl's: whether index would find something non-nil.
func exists(item value, idxs []value) bool {
	v := item.elem()
	for _, i := range idxs {
		i = i.elem()
		if v.isNilIface() {
			return false
		}
		switch x := v.x.(type) {
		case []any, string:
			if !i.valid() || (basicKind(i.x) != intKind && basicKind(i.x) != uintKind) {
				return false
			}
			n := asInt(i.x)
			if u, ok := i.x.(uint8); ok {
				n = int64(u)
			}
			if s, ok := x.(string); ok {
				if n < 0 || n >= int64(len(s)) {
					return false
				}
				v = of(s[n])
				continue
			}
			xs := x.([]any)
			if n < 0 || n >= int64(len(xs)) {
				return false
			}
			v = boxedOf(xs[n])
		case map[string]any:
			key := ""
			if i.valid() {
				k, ok := i.x.(string)
				if !ok {
					return false
				}
				key = k
			}
			v = boxedOf(x[key])
		default:
			return false
		}
	}
	return !v.isNilIface()
}
