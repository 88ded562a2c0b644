package jsonpath

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxValues bounds the values one run of a template may select, summed
// over its steps and range items. Upstream has no bound, and a few
// recursive descents in a row ({..a..a..a} over a deep object) or nested
// ranges multiply a document's values past what memory and patience
// hold; here they stop with an error.
const maxValues = 1 << 21

// maxOutput bounds what one run prints: each value of {..} over a large
// list prints the objects below it again.
const maxOutput = 64 << 20

var errTooMuchOutput = fmt.Errorf("the template prints more than %d MB", maxOutput>>20)

var errTooManyValues = fmt.Errorf("the template selects more than %d values", maxValues)

// eval applies steps to the values {cur}.
func (t *Template) eval(steps []step, root, cur any) ([]any, error) {
	return t.evalSet(steps, root, []any{cur})
}

// evalSet applies steps to vals, each step to the whole set of values the
// last one selected, as upstream's evaluator does: a field missing from
// some of them is not an error while others have it.
func (t *Template) evalSet(steps []step, root any, vals []any) ([]any, error) {
	for _, st := range steps {
		next, err := t.apply(st, root, vals)
		if err != nil {
			return nil, err
		}
		if err := t.spend(len(next)); err != nil {
			return nil, err
		}
		vals = next
	}
	return vals, nil
}

func (t *Template) apply(st step, root any, vals []any) ([]any, error) {
	switch st.kind {
	case stepLiteral:
		return []any{st.lit}, nil
	case stepConstant:
		out := make([]any, len(vals))
		for i := range out {
			out[i] = st.lit
		}
		return out, nil
	case stepIdentifier:
		return nil, fmt.Errorf("unrecognized identifier %s", st.name)
	case stepField:
		return t.field(st.name, vals)
	case stepUnion:
		var out []any
		for _, alt := range st.union {
			got, err := t.evalSet(alt, root, vals)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
		return out, nil
	case stepWildcard:
		var out []any
		for _, v := range vals {
			// A long string's bytes are values too: stop before copying
			// past the bound.
			if s, ok := v.(string); ok && len(out)+len(s) > maxValues-t.spent {
				return nil, errTooManyValues
			}
			out = append(out, children(v)...)
		}
		return out, nil
	case stepRecursive:
		return descend(vals, maxValues-t.spent)
	case stepSlice:
		return slice(vals, st.slice, st.derive)
	case stepFilter:
		var out []any
		for _, v := range vals {
			arr, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%v is not array or slice and cannot be filtered", v)
			}
			for _, e := range arr {
				keep, err := t.match(st.filter, root, e)
				if err != nil {
					return nil, err
				}
				if keep {
					out = append(out, e)
				}
			}
		}
		return out, nil
	}
	return nil, nil
}

func (t *Template) spend(n int) error {
	t.spent += n
	if t.spent > maxValues {
		return errTooManyValues
	}
	return nil
}

// field selects name from every object among vals; it is missing only if
// no object has it.
func (t *Template) field(name string, vals []any) ([]any, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	var out []any
	for _, v := range vals {
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[name]; ok {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 && !t.AllowMissingKeys {
		return nil, fmt.Errorf("%s is not found", name)
	}
	return out, nil
}

// children are an object's values (by key: upstream's order is Go's map
// order, random), a list's elements, or a string's bytes, as numbers.
func children(v any) []any {
	switch x := v.(type) {
	case map[string]any:
		out := make([]any, 0, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, x[k])
		}
		return out
	case []any:
		return x
	case string:
		out := make([]any, len(x))
		for i := range len(x) {
			out[i] = int64(x[i])
		}
		return out
	}
	return nil
}

// descend is recursive descent: each value that has children (a non-empty
// object, list or string), followed by its descendants of the same kind.
// Numbers, booleans, nulls and empty values are left out, as upstream
// leaves them out.
func descend(vals []any, max int) ([]any, error) {
	var out []any
	var walk func(vals []any) error
	walk = func(vals []any) error {
		for _, v := range vals {
			s, isString := v.(string)
			var kids []any
			if !isString {
				kids = children(v)
			}
			if s == "" && len(kids) == 0 {
				continue
			}
			out = append(out, v)
			if len(out) > max {
				return errTooManyValues
			}
			// A string's bytes have no children of their own.
			if err := walk(kids); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(vals); err != nil {
		return nil, err
	}
	return out, nil
}

// slice is [start:end:step] over every list among vals (nulls skipped),
// with upstream's bounds checks and messages. An index [i] is the slice
// [i:i+1] with a derived end, which counts from the back as its start
// does ([-1] is the last element).
func slice(vals []any, params [3]*int, derived bool) ([]any, error) {
	var out []any
	for _, v := range vals {
		if v == nil {
			continue
		}
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T is not array or slice", v) // Go's name of the type, as upstream prints it
		}
		n := len(arr)
		from, to := 0, n
		if params[0] != nil {
			from = *params[0]
		}
		if from < 0 {
			from += n
		}
		if params[1] != nil {
			to = *params[1]
			if to < 0 || to == 0 && derived {
				to += n
			}
		}
		if to == from {
			continue // zero elements asked for, wherever
		}
		if from >= n || from < 0 {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", from, n)
		}
		if to > n || to < 0 {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", to-1, n)
		}
		if from > to {
			return nil, fmt.Errorf("starting index %d is greater than ending index %d", from, to)
		}
		by := 1
		if params[2] != nil {
			if *params[2] <= 0 {
				return nil, errors.New("step must be > 0")
			}
			by = *params[2]
		}
		for i := from; i < to; i += by {
			out = append(out, arr[i])
		}
	}
	return out, nil
}

// match reports whether the filter keeps element e: each side must give
// one value (none skips e), compared by the rules of Go's templates, as
// upstream compares them.
func (t *Template) match(f *filter, root, e any) (bool, error) {
	if f.op == "exists" {
		lefts, _ := t.eval(f.left, root, e)
		return len(lefts) > 0, nil
	}
	left, ok, err := t.operand(f.left, root, e)
	if !ok || err != nil {
		return false, err
	}
	right, ok, err := t.operand(f.right, root, e)
	if !ok || err != nil {
		return false, err
	}
	return compare(f.op, left, right)
}

// operand is the one value a side of a comparison gives for element e;
// ok is false when it gives none.
func (t *Template) operand(steps []step, root, e any) (v any, ok bool, err error) {
	vals, err := t.eval(steps, root, e)
	switch {
	case err != nil:
		return nil, false, err
	case len(vals) == 0:
		return nil, false, nil
	case len(vals) > 1:
		return nil, false, errors.New("can only compare one element at a time")
	}
	return vals[0], true, nil
}

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errBadComparison     = errors.New("incompatible types for comparison")
)

// compare applies op to two scalars: strings with strings, integers with
// integers, floats with floats, booleans only for (in)equality.
func compare(op string, a, b any) (bool, error) {
	ka, err := basicKind(a)
	if err != nil {
		return false, err
	}
	kb, err := basicKind(b)
	if err != nil {
		return false, err
	}
	if ka != kb {
		return false, errBadComparison
	}
	var c int // -1, 0, 1
	switch ka {
	case kindBool:
		if op != "==" && op != "!=" {
			return false, errBadComparisonType
		}
		if a.(bool) != b.(bool) {
			c = 1
		}
	case kindInt:
		c = cmpOrdered(asInt(a), asInt(b))
	case kindFloat:
		c = cmpOrdered(a.(float64), b.(float64))
	case kindString:
		c = strings.Compare(a.(string), b.(string))
	}
	switch op {
	case "==":
		return c == 0, nil
	case "!=":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unrecognized filter operator %s", op)
}

type kind int

const (
	kindBool kind = iota
	kindInt
	kindFloat
	kindString
)

func basicKind(v any) (kind, error) {
	switch v.(type) {
	case bool:
		return kindBool, nil
	case int, int64:
		return kindInt, nil
	case float64:
		return kindFloat, nil
	case string:
		return kindString, nil
	}
	return 0, errBadComparisonType
}

func asInt(v any) int64 {
	if i, ok := v.(int); ok {
		return int64(i)
	}
	return v.(int64)
}

func cmpOrdered[T int64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
