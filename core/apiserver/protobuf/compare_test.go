package protobuf

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
)

// compareJSON fails t unless got and want hold the same JSON value,
// listing the paths where they differ.
func compareJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	var diffs []string
	diffJSON("", g, w, &diffs)
	for _, d := range diffs {
		t.Error(d)
	}
}

// dropNullCreationTimestamps removes every "creationTimestamp": null.
func dropNullCreationTimestamps(t *testing.T, doc []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ts, ok := v["creationTimestamp"]; ok && ts == nil {
				delete(v, "creationTimestamp")
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffJSON(path string, g, w any, diffs *[]string) {
	gm, gok := g.(map[string]any)
	wm, wok := w.(map[string]any)
	if gok && wok {
		keys := map[string]bool{}
		for k := range gm {
			keys[k] = true
		}
		for k := range wm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			gv, gin := gm[k]
			wv, win := wm[k]
			switch {
			case !gin:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: missing, want %v", path, k, wv))
			case !win:
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: unexpected %v", path, k, gv))
			default:
				diffJSON(path+"."+k, gv, wv, diffs)
			}
		}
		return
	}
	ga, gok := g.([]any)
	wa, wok := w.([]any)
	if gok && wok && len(ga) == len(wa) {
		for i := range ga {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), ga[i], wa[i], diffs)
		}
		return
	}
	if !reflect.DeepEqual(g, w) {
		*diffs = append(*diffs, fmt.Sprintf("%s: got %v, want %v", path, g, w))
	}
}
