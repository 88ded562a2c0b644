package gotemplate

import (
	"errors"
	"fmt"
)

// The comparison functions: basic values of one kind (any integers count
// as one), and for eq also nil against anything.

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errNoComparison      = errors.New("missing argument for comparison")
)

func eq(a value, bs ...value) (bool, error) {
	a = a.elem()
	if len(bs) == 0 {
		return false, errNoComparison
	}
	ka := basicKind(a.x)
	for _, b := range bs {
		b = b.elem()
		kb := basicKind(b.x)
		t := false
		switch {
		case ka != kb && ka == intKind && kb == uintKind:
			t = asInt(a.x) >= 0 && uint64(asInt(a.x)) == uint64(b.x.(uint8))
		case ka != kb && ka == uintKind && kb == intKind:
			t = asInt(b.x) >= 0 && uint64(a.x.(uint8)) == uint64(asInt(b.x))
		case ka != kb:
			if a.valid() && b.valid() {
				return false, fmt.Errorf("incompatible types for comparison: %s and %s", typeOf(a.x), typeOf(b.x))
			}
		case ka == otherKind:
			var err error
			if t, err = eqOther(a, b); err != nil {
				return false, err
			}
		default:
			t = a.x == b.x || ka == intKind && asInt(a.x) == asInt(b.x)
		}
		if t {
			return true, nil
		}
	}
	return false, nil
}

// eqOther compares what is neither a number, a string nor a bool: nil
// equals only nil, and maps and slices cannot be compared.
func eqOther(a, b value) (bool, error) {
	ka, kb := otherTypeKind(a), otherTypeKind(b)
	if ka != kb && a.valid() && b.valid() {
		return false, fmt.Errorf("non-comparable types %s: %v, %s: %v", fmt.Sprintf("%s", a.x), typeOf(a.x), typeOf(b.x), b.x)
	}
	if isNil(a) || isNil(b) {
		return isNil(a) == isNil(b), nil
	}
	return false, fmt.Errorf("non-comparable type %s: %v", fmt.Sprintf("%s", b.x), typeOf(b.x))
}

func otherTypeKind(v value) string {
	if !v.valid() {
		return ""
	}
	return typeOf(v.x)
}

func isNil(v value) bool {
	switch x := v.x.(type) {
	case map[string]any:
		return x == nil
	case []any:
		return x == nil
	}
	return !v.valid()
}

func lt(a, b value) (bool, error) {
	a, b = a.elem(), b.elem()
	ka, kb := basicKind(a.x), basicKind(b.x)
	if !a.valid() || ka == otherKind || !b.valid() || kb == otherKind {
		return false, errBadComparisonType
	}
	switch {
	case ka != kb && ka == intKind && kb == uintKind:
		return asInt(a.x) < 0 || uint64(asInt(a.x)) < uint64(b.x.(uint8)), nil
	case ka != kb && ka == uintKind && kb == intKind:
		return asInt(b.x) >= 0 && uint64(a.x.(uint8)) < uint64(asInt(b.x)), nil
	case ka != kb:
		return false, fmt.Errorf("incompatible types for comparison: %s and %s", typeOf(a.x), typeOf(b.x))
	}
	switch x := a.x.(type) {
	case float64:
		return x < b.x.(float64), nil
	case string:
		return x < b.x.(string), nil
	case uint8:
		return x < b.x.(uint8), nil
	case int, int64:
		return asInt(x) < asInt(b.x), nil
	}
	return false, errBadComparisonType
}

func le(a, b value) (bool, error) {
	t, err := lt(a, b)
	if t || err != nil {
		return t, err
	}
	return eq(a, b)
}
