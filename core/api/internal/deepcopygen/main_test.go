package main

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checked-in file must be what the generator writes today: run
// `go generate ./core/api` after changing a type.
func TestGeneratedFileIsUpToDate(t *testing.T) {
	apiDir := filepath.Join("..", "..")
	out := filepath.Join(t.TempDir(), OutputFile)
	src, err := Generate(apiDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, _ := os.ReadFile(out)
	current, err := os.ReadFile(filepath.Join(apiDir, OutputFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, current) {
		t.Fatalf("%s is stale: run `go generate ./core/api`", OutputFile)
	}
}

const demoSrc = `package demo

type Object interface{ DeepCopyObject() Object }

type TypeMeta struct{ Kind string }

type ObjectMeta struct {
	Name   string
	Labels map[string]string
}

type Names []string

type Phase = string

type PlainAlias = Plain

type MapAlias = map[string]*int

type Plain struct {
	A int
	B string
}

type Thing struct {
	TypeMeta
	ObjectMeta
	PtrSlice   *[]string
	MapOfPtrs  map[string][]*int
	Nested     [][]string
	Arr        [2]*int
	Named      Names
	NamedPtr   *Names
	Objects    map[string]Object
	ObjectList []Object
	One        Object
	Self       *Thing
	Plains     []Plain
	PlainMap   map[string]Plain
	Things     map[string]Thing
	Fn         func() int
	Ph         Phase
	PA         *PlainAlias
	MA         MapAlias
	MAs        []MapAlias
}

// Custom keeps its own copy; the generator must not write another.
type Custom struct{ P *int }

func (in *Custom) DeepCopyInto(out *Custom) { *out = *in }
`

// A package with every shape the generator handles must type-check with its
// generated file, and kinds must get DeepCopyObject.
func TestGeneratedCodeCompilesForEveryShape(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "demo.go"), []byte(demoSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for name, text := range map[string]string{"demo.go": demoSrc, OutputFile: string(src)} {
		f, err := parser.ParseFile(fset, name, text, 0)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("demo", fset, files, nil)
	if err != nil {
		t.Fatalf("generated code does not compile: %v\n%s", err, src)
	}
	thing := pkg.Scope().Lookup("Thing").Type()
	ms := types.NewMethodSet(types.NewPointer(thing))
	for _, m := range []string{"DeepCopyInto", "DeepCopy", "DeepCopyObject"} {
		if ms.Lookup(pkg, m) == nil {
			t.Errorf("*Thing has no %s", m)
		}
	}
	if strings.Contains(string(src), "func (in *Custom) DeepCopyInto") {
		t.Error("generator replaced a hand-written DeepCopyInto")
	}
	if !strings.Contains(string(src), "func (in *Custom) DeepCopy()") {
		t.Error("generator skipped DeepCopy of a type with a hand-written DeepCopyInto")
	}
	if strings.Contains(string(src), "func (in *Plain) DeepCopyObject") {
		t.Error("Plain is not a kind")
	}
}

// A type from another package that hides a pointer must either bring its
// own DeepCopy or stop the generator.
func TestImportedTypesMustBeSafeToCopy(t *testing.T) {
	cases := []struct {
		name, src string
		wantErr   string
	}{
		{"plain struct", "package q\ntype Quantity struct{ s string; n int64 }\n", ""},
		{"nested plain struct", "package q\ntype inner struct{ a [2]int32 }\ntype Quantity struct{ i inner }\n", ""},
		{"pointer with DeepCopy", "package q\ntype Quantity struct{ p *int }\nfunc (q Quantity) DeepCopy() Quantity { return q }\n", ""},
		{"pointer without DeepCopy", "package q\ntype Quantity struct{ p *int }\n", "has no DeepCopy method"},
		{"slice without DeepCopy", "package q\ntype Quantity struct{ b []byte }\n", "holds a slice"},
		{"missing type", "package q\ntype Other struct{}\n", "type not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "q.go"), []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := analyseModuleType(dir, "Quantity")
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, c.wantErr)
			}
		})
	}
}
