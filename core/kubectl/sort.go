package kubectl

import (
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/api/resource"
	"kubeplay/core/kubectl/jsonpath"
)

// sortObjects is --sort-by, as kubectl v1.32 sorts: by the first value
// the path gives each object; an object without one goes before the
// other; numbers by value, strings that both read as quantities by
// quantity and other strings by their bytes; a null before a value. It
// fails when the path does not parse, fails on an object, or is found in
// none of them.
func sortObjects(objs []api.Object, field string) error {
	expr, err := relaxedJSONPath(field)
	if err != nil {
		return err
	}
	t, err := jsonpath.Parse(expr)
	if err != nil {
		return err
	}
	t.AllowMissingKeys = true
	s := bySortKey{objs: objs, keys: make([][]any, len(objs))}
	found := false
	for i, o := range objs {
		u, err := codec.Unstructured(o)
		if err != nil {
			return err
		}
		if s.keys[i], err = t.Values(u); err != nil {
			return err
		}
		found = found || len(s.keys[i]) > 0
	}
	if !found {
		return fmt.Errorf("couldn't find any field with path %q in the list of objects", expr)
	}
	// kubectl's sort is not stable, and its order is not a strict one
	// (two objects without the field are each less than the other):
	// sort.Sort with the same comparison puts ties where kubectl does.
	sort.Sort(s)
	return nil
}

type bySortKey struct {
	objs []api.Object
	keys [][]any
}

func (s bySortKey) Len() int { return len(s.objs) }

func (s bySortKey) Swap(i, j int) {
	s.objs[i], s.objs[j] = s.objs[j], s.objs[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

func (s bySortKey) Less(i, j int) bool {
	if len(s.keys[i]) == 0 {
		return true
	}
	if len(s.keys[j]) == 0 {
		return false
	}
	a, b := s.keys[i][0], s.keys[j][0]
	switch {
	case a == nil:
		return b != nil
	case b == nil:
		return false
	}
	switch x := a.(type) {
	case int64:
		y, ok := b.(int64)
		return ok && x < y
	case float64:
		y, ok := b.(float64)
		return ok && x < y
	case string:
		y, ok := b.(string)
		if !ok {
			return false
		}
		qx, errx := resource.ParseQuantity(x)
		qy, erry := resource.ParseQuantity(y)
		if errx == nil && erry == nil {
			return qx.Cmp(qy) < 0
		}
		return x < y
	}
	// kubectl stops on values it cannot order (booleans, objects, lists
	// of different types); here they keep their places.
	return false
}
