package api

import (
	"reflect"

	"kubeplay/core/api/resource"
)

// SemanticEqual is upstream's equality.Semantic.DeepEqual: reflect.DeepEqual
// except that a nil and an empty map or slice are equal, Quantities compare
// by value ("1" and "1000m") and Times and MicroTimes by instant. Controllers
// compare templates with it (is this ReplicaSet's template the
// Deployment's?), and validation immutable fields.
func SemanticEqual(a, b any) bool {
	return SemanticValueEqual(reflect.ValueOf(a), reflect.ValueOf(b))
}

var (
	semanticQuantity  = reflect.TypeFor[resource.Quantity]()
	semanticTime      = reflect.TypeFor[Time]()
	semanticMicroTime = reflect.TypeFor[MicroTime]()
)

// SemanticValueEqual is SemanticEqual of two reflected values (of fields a
// walker reached, which may be unexported).
func SemanticValueEqual(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.CanInterface() && b.CanInterface() {
		switch a.Type() {
		case semanticQuantity:
			return a.Interface().(resource.Quantity).Cmp(b.Interface().(resource.Quantity)) == 0
		case semanticTime:
			return a.Interface().(Time).Equal(b.Interface().(Time).Time)
		case semanticMicroTime:
			return a.Interface().(MicroTime).Equal(b.Interface().(MicroTime).Time)
		}
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Map:
		if a.Len() == 0 || b.Len() == 0 {
			return a.Len() == b.Len()
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Map {
			return semanticMapEqual(a, b)
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !SemanticValueEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return SemanticValueEqual(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !SemanticValueEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return semanticScalarEqual(a, b)
}

func semanticMapEqual(a, b reflect.Value) bool {
	for it := a.MapRange(); it.Next(); {
		bv := b.MapIndex(it.Key())
		if !bv.IsValid() || !SemanticValueEqual(it.Value(), bv) {
			return false
		}
	}
	return true
}

// semanticScalarEqual compares basic values, unexported fields too (which
// a Value can read but not hand out as an interface).
func semanticScalarEqual(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Func:
		return a.IsNil() && b.IsNil() // as reflect.DeepEqual: only nil funcs are equal
	}
	return a.CanInterface() && b.CanInterface() && a.Interface() == b.Interface()
}
