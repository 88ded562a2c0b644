package patch

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kubeplay/core/api/codec"
)

func harnessSchema() *schemaType {
	item := &schemaType{}
	rk := &schemaType{}
	item.fields = map[string]fieldMeta{
		"mergingList":           mergeBy("name", item),
		"nonMergingList":        nested(item),
		"mergingIntList":        mergeSet(),
		"mergeItemPtr":          mergeBy("name", item),
		"replacingItem":         replaced(),
		"retainKeysMap":         retainKeys(rk),
		"retainKeysMergingList": mergeByRetainingKeys("name", item),
	}
	rk.fields = map[string]fieldMeta{
		"mergingIntList": mergeSet(),
		"mergingList":    mergeBy("name", item),
		"nonMergingList": nested(item),
	}
	return item
}

type rawCase struct {
	desc                                                                    string
	original, twoWay, modified, current, threeWay, result, twoWayResult    []byte
	expectedError                                                           string
	isYAMLCase                                                              bool
}

func y2j(t *testing.T, b []byte) []byte {
	if b == nil {
		return nil
	}
	j, err := codec.YAMLToJSON(b)
	if err != nil {
		t.Fatalf("yaml: %v\n%s", err, b)
	}
	v, err := decodeValue(j)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

func parseRawCases(t *testing.T, src []byte, varName string) []rawCase {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []rawCase
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Names[0].Name != varName {
			return true
		}
		lit := vs.Values[0].(*ast.CompositeLit)
		for _, e := range lit.Elts {
			c := rawCase{}
			for _, kv := range e.(*ast.CompositeLit).Elts {
				kv := kv.(*ast.KeyValueExpr)
				key := kv.Key.(*ast.Ident).Name
				if key == "Description" {
					c.desc, _ = strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
					continue
				}
				for _, kv2 := range kv.Value.(*ast.CompositeLit).Elts {
					kv2 := kv2.(*ast.KeyValueExpr)
					k2 := kv2.Key.(*ast.Ident).Name
					var s string
					switch v := kv2.Value.(type) {
					case *ast.CallExpr:
						s, _ = strconv.Unquote(v.Args[0].(*ast.BasicLit).Value)
					case *ast.BasicLit:
						s, _ = strconv.Unquote(v.Value)
					}
					b := []byte(s)
					switch k2 {
					case "Original":
						c.original = b
					case "TwoWay":
						c.twoWay = b
					case "Modified":
						c.modified = b
					case "Current":
						c.current = b
					case "ThreeWay":
						c.threeWay = b
					case "Result":
						c.result = b
					case "TwoWayResult":
						c.twoWayResult = b
					case "ExpectedError":
						c.expectedError = s
					}
				}
			}
			out = append(out, c)
		}
		return false
	})
	return out
}

func yamlVar(t *testing.T, src []byte, varName string) []byte {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "x.go", src, 0)
	var out []byte
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Names[0].Name != varName {
			return true
		}
		s, _ := strconv.Unquote(vs.Values[0].(*ast.CallExpr).Args[0].(*ast.BasicLit).Value)
		out = []byte(s)
		return false
	})
	return out
}

// sortForCompare sorts merge lists by merge key like upstream's sortMergeListsByName.
func sortForCompare(v any, s *schemaType) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, e := range m {
		switch t := e.(type) {
		case map[string]any:
			sub, _ := s.lookup(k)
			m[k] = sortForCompare(t, sub)
		case []any:
			if strings.HasPrefix(k, "$deleteFromPrimitiveList") || k == "$retainKeys" {
				m[k] = sortScalars(t)
				continue
			}
			if strings.HasPrefix(k, "$") {
				continue
			}
			sub, meta := s.lookup(k)
			_, strat := meta.strategy()
			if strat == "merge" && len(t) > 0 {
				if _, isMap := t[0].(map[string]any); isMap {
					for i := range t {
						t[i] = sortForCompare(t[i], sub)
					}
					sort.SliceStable(t, func(i, j int) bool {
						return fmt.Sprintf("%v", t[i].(map[string]any)[meta.mergeKey]) < fmt.Sprintf("%v", t[j].(map[string]any)[meta.mergeKey])
					})
				} else {
					m[k] = sortScalars(deduplicateScalars(t))
				}
			}
		}
	}
	return m
}

func yamlCases(t *testing.T, src []byte, varName string, s *schemaType) []rawCase {
	y := yamlVar(t, src, varName)
	j, err := codec.YAMLToJSON(y)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := decodeValue(j)
	var out []rawCase
	for _, c := range v.(map[string]any)["testCases"].([]any) {
		cm := c.(map[string]any)
		get := func(k string) []byte {
			x, ok := cm[k]
			if !ok || x == nil {
				return nil
			}
			x = sortForCompare(x, s)
			b, _ := json.Marshal(x)
			return b
		}
		out = append(out, rawCase{desc: cm["description"].(string), original: get("original"), twoWay: get("twoWay"),
			modified: get("modified"), current: get("current"), threeWay: get("threeWay"), result: get("result"),
			twoWayResult: get("twoWayResult"), isYAMLCase: true})
	}
	return out
}

func canon(b []byte) string {
	if b == nil {
		return "null"
	}
	v, err := decodeValue(b)
	if err != nil {
		return "ERR " + string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestUpstreamHarness(t *testing.T) {
	src, err := os.ReadFile("/tmp/harness/upstream_cases.go.txt")
	if err != nil {
		t.Skip("no upstream cases")
	}
	s := harnessSchema()
	sch := Schema{s}
	conv := func(cs []rawCase) []rawCase {
		for i := range cs {
			if cs[i].isYAMLCase {
				continue
			}
			c := &cs[i]
			c.original, c.twoWay, c.modified, c.current, c.threeWay, c.result, c.twoWayResult =
				y2j(t, c.original), y2j(t, c.twoWay), y2j(t, c.modified), y2j(t, c.current), y2j(t, c.threeWay), y2j(t, c.result), y2j(t, c.twoWayResult)
		}
		return cs
	}
	apply := func(desc string, orig, p, want []byte, wantErr string) {
		got, err := StrategicMergePatch(orBraces(orig), p, sch)
		if wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Errorf("%s: want error %q, got %v", desc, wantErr, err)
			}
			return
		}
		if err != nil {
			t.Errorf("%s: apply error %v\norig %s\npatch %s", desc, err, orig, p)
			return
		}
		if canon(got) != canon(want) {
			t.Errorf("%s: apply\norig  %s\npatch %s\nwant  %s\ngot   %s", desc, orig, p, canon(want), canon(got))
		}
	}
	// custom (apply only)
	custom := yamlCases(t, src, "customStrategicMergePatchTestCaseData", s)
	custom = append(custom, conv(parseRawCases(t, src, "customStrategicMergePatchRawTestCases"))...)
	for _, c := range custom {
		apply("custom "+c.desc, c.original, c.twoWay, c.modified, c.expectedError)
	}
	all := yamlCases(t, src, "createStrategicMergePatchTestCaseData", s)
	all = append(all, conv(parseRawCases(t, src, "strategicMergePatchRawTestCases"))...)
	t.Logf("%d custom, %d create cases", len(custom), len(all))
	for _, c := range all {
		// two-way
		p, err := CreateTwoWayMergePatch(c.original, c.modified, sch)
		if err != nil {
			t.Errorf("%s: twoway error %v", c.desc, err)
		} else if canon(p) != canon(c.twoWay) {
			t.Errorf("%s: twoway\nwant %s\ngot  %s", c.desc, canon(c.twoWay), canon(p))
		} else {
			want := c.twoWayResult
			if want == nil {
				want = c.modified
			}
			apply(c.desc+" (two-way apply)", c.original, p, want, c.expectedError)
		}
		// three-way
		p, err = CreateThreeWayMergePatch(c.original, c.modified, c.current, sch, false)
		if err != nil {
			if _, ok := err.(*ConflictError); !ok {
				t.Errorf("%s: threeway error %v", c.desc, err)
				continue
			}
			if !strings.Contains(c.desc, "conflict") {
				t.Errorf("%s: unexpected conflict %v", c.desc, err)
				continue
			}
			if len(c.result) == 0 {
				continue
			}
			p, err = CreateThreeWayMergePatch(c.original, c.modified, c.current, sch, true)
			if err != nil {
				t.Errorf("%s: forced threeway error %v", c.desc, err)
				continue
			}
		} else if strings.Contains(c.desc, "conflict") || len(c.result) == 0 {
			t.Errorf("%s: expected conflict did not occur; patch %s", c.desc, p)
			continue
		}
		if canon(p) != canon(c.threeWay) {
			t.Errorf("%s: threeway\nwant %s\ngot  %s", c.desc, canon(c.threeWay), canon(p))
			continue
		}
		apply(c.desc+" (three-way apply)", c.current, p, c.result, c.expectedError)
	}
}

func orBraces(b []byte) []byte {
	if b == nil {
		return []byte("{}")
	}
	return b
}
