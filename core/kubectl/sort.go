package kubectl

import (
	"fmt"
	"sort"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/kubectl/jsonpath"
)

// sortObjects is --sort-by: objects ordered by a JSONPath field, numbers
// by value and everything else by its text (RFC 3339 times sort as text);
// objects without the field come first.
func sortObjects(objs []api.Object, field string) error {
	t, err := jsonpath.Parse(relaxedJSONPath(field))
	if err != nil {
		return fmt.Errorf("couldn't parse jsonpath %s: %v", field, err)
	}
	t.AllowMissingKeys = true
	type keyed struct {
		obj   api.Object
		text  string
		num   float64
		isNum bool
		found bool
	}
	ks := make([]keyed, len(objs))
	for i, o := range objs {
		ks[i].obj = o
		u, err := codec.Unstructured(o)
		if err != nil {
			continue
		}
		vals, _ := t.Values(u)
		if len(vals) == 0 || vals[0] == nil {
			continue
		}
		ks[i].found = true
		ks[i].text = jsonpath.Text(vals[0])
		switch v := vals[0].(type) {
		case int64, float64, int:
			ks[i].isNum = true
			ks[i].num, _ = strconv.ParseFloat(jsonpath.Text(v), 64)
		}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.found != b.found {
			return !a.found
		}
		if a.isNum && b.isNum {
			return a.num < b.num
		}
		return a.text < b.text
	})
	for i := range ks {
		objs[i] = ks[i].obj
	}
	return nil
}
