package patch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"testing"
)

func litCases(t *testing.T, src []byte, name string) [][]string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Names[0].Name != name {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			var row []string
			ok := true
			for _, x := range e.(*ast.CompositeLit).Elts {
				bl, isLit := x.(*ast.BasicLit)
				if !isLit {
					ok = false
					break
				}
				s, _ := strconv.Unquote(bl.Value)
				row = append(row, s)
			}
			if ok {
				out = append(out, row)
			}
		}
		return false
	})
	return out
}

func TestUpstreamJSONPatchHarness(t *testing.T) {
	src, err := os.ReadFile("/tmp/harness/jp_test.go.txt")
	if err != nil {
		t.Skip()
	}
	good := litCases(t, src, "Cases")
	bad := litCases(t, src, "BadCases")
	t.Logf("%d good %d bad", len(good), len(bad))
	for _, c := range good {
		got, err := JSONPatch([]byte(c[0]), []byte(c[1]))
		if err != nil {
			t.Errorf("doc %s patch %s: %v", c[0], c[1], err)
			continue
		}
		if c[2] == "" {
			if len(got) != 0 {
				t.Errorf("want empty got %s", got)
			}
			continue
		}
		if canon(got) != canon([]byte(c[2])) {
			t.Errorf("doc %s patch %s:\nwant %s\ngot  %s", c[0], c[1], canon([]byte(c[2])), canon(got))
		}
	}
	for _, c := range bad {
		got, err := JSONPatch([]byte(c[0]), []byte(c[1]))
		if err == nil {
			t.Errorf("doc %s patch %s: want error, got %s", c[0], c[1], got)
		} else {
			t.Logf("%s | %s => %v", c[0], c[1], err)
		}
	}
}
