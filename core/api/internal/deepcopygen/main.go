// Command deepcopygen writes zz_generated_deepcopy.go for package api: for
// every exported struct, map or slice type a DeepCopyInto and DeepCopy, and
// for every kind (a struct embedding TypeMeta and ObjectMeta) DeepCopyObject.
//
// The copies are field by field, as upstream's deepcopy-gen writes them:
// `*out = *in` first, then every pointer, slice, map and interface below it
// is copied again. It reads the package with go/ast only, so it runs even
// when the package does not compile (for example after a type was added but
// before its copy exists).
//
// Types from other packages: a type with a DeepCopy method (any receiver) is
// copied with it; a struct holding only plain values is copied by value;
// anything else is an error, so a pointer hidden inside an imported type
// cannot be shared by accident.
//
// Run it with `go generate ./core/api`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// OutputFile is the generated file's name inside the package directory.
const OutputFile = "zz_generated_deepcopy.go"

// modulePrefix maps in-module import paths to directories next to the api package.
const modulePrefix = "kubeplay/core/api/"

func main() {
	dir := flag.String("dir", ".", "directory of the api package")
	out := flag.String("o", "", "output file (default DIR/"+OutputFile+")")
	flag.Parse()
	src, err := Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "deepcopygen:", err)
		os.Exit(1)
	}
	path := *out
	if path == "" {
		path = filepath.Join(*dir, OutputFile)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "deepcopygen:", err)
		os.Exit(1)
	}
}

// copyKind says how a value of some type is copied.
type copyKind int

const (
	shallow   copyKind = iota // assignment copies it completely
	deep                      // needs field-by-field work (a local named type with DeepCopyInto, or a composite)
	viaMethod                 // external type with its own DeepCopy method
)

// extType records what deepcopygen learned about a type from another package.
type extType struct {
	kind copyKind
}

type generator struct {
	dir      string
	pkgName  string
	types    map[string]ast.Expr        // local named types
	aliases  map[string]ast.Expr        // local aliases → their targets
	methods  map[string]map[string]bool // receiver type → declared method names (hand-written)
	imports  map[string]string          // package name → import path, across files
	ext      map[string]extType         // "pkg.Type" → analysis
	memo     map[string]copyKind        // local type → copy kind
	visiting map[string]bool            // cycle guard
	used     map[string]bool            // package names the output references
	buf      bytes.Buffer
}

// Generate returns the formatted source of zz_generated_deepcopy.go for the
// package in dir.
func Generate(dir string) ([]byte, error) {
	g := &generator{
		dir:      dir,
		types:    map[string]ast.Expr{},
		aliases:  map[string]ast.Expr{},
		methods:  map[string]map[string]bool{},
		imports:  map[string]string{},
		ext:      map[string]extType{},
		memo:     map[string]copyKind{},
		visiting: map[string]bool{},
		used:     map[string]bool{},
	}
	if err := g.load(); err != nil {
		return nil, err
	}
	return g.run()
}

func (g *generator) load() error {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(g.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == OutputFile {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(g.dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if g.pkgName == "" {
			g.pkgName = f.Name.Name
		}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			pname := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				pname = imp.Name.Name
			}
			g.imports[pname] = path
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					if ts.Assign.IsValid() {
						// An alias is its target: classified like it, never given methods.
						g.aliases[ts.Name.Name] = ts.Type
						continue
					}
					g.types[ts.Name.Name] = ts.Type
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := d.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					if g.methods[id.Name] == nil {
						g.methods[id.Name] = map[string]bool{}
					}
					g.methods[id.Name][d.Name.Name] = true
				}
			}
		}
	}
	if g.pkgName == "" {
		return fmt.Errorf("no Go files in %s", g.dir)
	}
	return nil
}

// kindOf classifies a type expression appearing in the package.
func (g *generator) kindOf(t ast.Expr) (copyKind, error) {
	switch t := t.(type) {
	case *ast.Ident:
		if target, ok := g.aliases[t.Name]; ok {
			return g.kindOf(target)
		}
		if types.Universe.Lookup(t.Name) != nil {
			if t.Name == "error" || t.Name == "any" {
				return 0, fmt.Errorf("cannot copy interface %s", t.Name)
			}
			return shallow, nil
		}
		return g.localKind(t.Name)
	case *ast.StarExpr, *ast.MapType:
		return deep, nil
	case *ast.ArrayType:
		if t.Len == nil {
			return deep, nil
		}
		return g.kindOf(t.Elt)
	case *ast.SelectorExpr:
		e, err := g.external(t)
		if err != nil {
			return 0, err
		}
		return e.kind, nil
	case *ast.FuncType, *ast.ChanType:
		return shallow, nil // references to code or channels are shared by design
	case *ast.InterfaceType:
		return 0, fmt.Errorf("cannot copy anonymous interface %s", types.ExprString(t))
	case *ast.StructType:
		for _, f := range t.Fields.List {
			k, err := g.kindOf(f.Type)
			if err != nil {
				return 0, err
			}
			if k != shallow {
				return deep, nil
			}
		}
		return shallow, nil
	}
	return 0, fmt.Errorf("unsupported type %s", types.ExprString(t))
}

func (g *generator) localKind(name string) (copyKind, error) {
	if k, ok := g.memo[name]; ok {
		return k, nil
	}
	t, ok := g.types[name]
	if !ok {
		return 0, fmt.Errorf("unknown type %s", name)
	}
	if g.visiting[name] {
		return deep, nil // recursive types hold pointers, hence deep
	}
	g.visiting[name] = true
	defer delete(g.visiting, name)
	var k copyKind
	var err error
	if it, ok := t.(*ast.InterfaceType); ok {
		if !g.hasMethod(it, "DeepCopyObject") {
			return 0, fmt.Errorf("interface %s has no DeepCopyObject method", name)
		}
		k = deep
	} else {
		k, err = g.kindOf(t)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", name, err)
		}
	}
	g.memo[name] = k
	return k, nil
}

func (g *generator) hasMethod(it *ast.InterfaceType, name string) bool {
	for _, m := range it.Methods.List {
		for _, n := range m.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// knownExternal lists standard-library types by how they copy.
var knownExternal = map[string]copyKind{
	"time.Time":     shallow, // its *Location is shared and immutable
	"time.Duration": shallow,
}

// external analyses pkg.Type from another package.
func (g *generator) external(sel *ast.SelectorExpr) (extType, error) {
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return extType{}, fmt.Errorf("unsupported type %s", types.ExprString(sel))
	}
	key := pkg.Name + "." + sel.Sel.Name
	if e, ok := g.ext[key]; ok {
		return e, nil
	}
	path, ok := g.imports[pkg.Name]
	if !ok {
		return extType{}, fmt.Errorf("unknown package %s", pkg.Name)
	}
	var e extType
	if k, ok := knownExternal[path[strings.LastIndex(path, "/")+1:]+"."+sel.Sel.Name]; ok && !strings.HasPrefix(path, modulePrefix) {
		e = extType{kind: k}
	} else if strings.HasPrefix(path, modulePrefix) {
		sub, err := analyseModuleType(filepath.Join(g.dir, strings.TrimPrefix(path, modulePrefix)), sel.Sel.Name)
		if err != nil {
			return extType{}, fmt.Errorf("%s: %v", key, err)
		}
		e = sub
	} else {
		return extType{}, fmt.Errorf("do not know how to copy %s (add it to knownExternal)", key)
	}
	g.ext[key] = e
	return e, nil
}

// analyseModuleType reads another package of the module: a DeepCopy method
// wins; otherwise the type must hold only plain values.
func analyseModuleType(dir, name string) (extType, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return extType{}, err
	}
	local := map[string]ast.Expr{}
	hasDeepCopy := false
	for _, en := range entries {
		fn := en.Name()
		if en.IsDir() || !strings.HasSuffix(fn, ".go") || strings.HasSuffix(fn, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, fn), nil, parser.SkipObjectResolution)
		if err != nil {
			return extType{}, err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						local[ts.Name.Name] = ts.Type
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "DeepCopy" {
					continue
				}
				recv := d.Recv.List[0].Type
				if st, ok := recv.(*ast.StarExpr); ok {
					recv = st.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.Name == name {
					hasDeepCopy = true
				}
			}
		}
	}
	if hasDeepCopy {
		return extType{kind: viaMethod}, nil
	}
	t, ok := local[name]
	if !ok {
		return extType{}, fmt.Errorf("type not found in %s", dir)
	}
	if err := plainValue(t, local, map[string]bool{}); err != nil {
		return extType{}, fmt.Errorf("has no DeepCopy method and %v", err)
	}
	return extType{kind: shallow}, nil
}

// plainValue checks that copying t by assignment shares nothing mutable.
func plainValue(t ast.Expr, local map[string]ast.Expr, seen map[string]bool) error {
	switch t := t.(type) {
	case *ast.Ident:
		if types.Universe.Lookup(t.Name) != nil {
			if t.Name == "error" || t.Name == "any" {
				return fmt.Errorf("holds an interface")
			}
			return nil
		}
		if seen[t.Name] {
			return nil
		}
		seen[t.Name] = true
		lt, ok := local[t.Name]
		if !ok {
			return fmt.Errorf("holds unknown type %s", t.Name)
		}
		return plainValue(lt, local, seen)
	case *ast.StructType:
		for _, f := range t.Fields.List {
			if err := plainValue(f.Type, local, seen); err != nil {
				return err
			}
		}
		return nil
	case *ast.ArrayType:
		if t.Len == nil {
			return fmt.Errorf("holds a slice")
		}
		return plainValue(t.Elt, local, seen)
	case *ast.SelectorExpr:
		if types.ExprString(t) == "time.Time" {
			return nil
		}
		return fmt.Errorf("holds %s", types.ExprString(t))
	}
	return fmt.Errorf("holds %s", types.ExprString(t))
}

func (g *generator) typeString(t ast.Expr) string {
	ast.Inspect(t, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				g.used[id.Name] = true
			}
		}
		return true
	})
	return types.ExprString(t)
}

func (g *generator) p(format string, args ...any) {
	fmt.Fprintf(&g.buf, format, args...)
	g.buf.WriteByte('\n')
}

func (g *generator) run() ([]byte, error) {
	names := make([]string, 0, len(g.types))
	for n := range g.types {
		if ast.IsExported(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		var err error
		switch t := g.types[n].(type) {
		case *ast.StructType:
			err = g.genStruct(n, t)
		case *ast.MapType, *ast.ArrayType:
			err = g.genNamedComposite(n, t)
		}
		if err != nil {
			return nil, err
		}
	}

	var head bytes.Buffer
	head.WriteString("// Code generated by deepcopygen. DO NOT EDIT.\n\n")
	fmt.Fprintf(&head, "package %s\n\n", g.pkgName)
	var pkgs []string
	for p := range g.used {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	if len(pkgs) > 0 {
		head.WriteString("import (\n")
		for _, p := range pkgs {
			path := g.imports[p]
			if path[strings.LastIndex(path, "/")+1:] == p {
				fmt.Fprintf(&head, "\t%q\n", path)
			} else {
				fmt.Fprintf(&head, "\t%s %q\n", p, path)
			}
		}
		head.WriteString(")\n\n")
	}
	head.Write(g.buf.Bytes())
	src, err := format.Source(head.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting output: %v\n%s", err, head.Bytes())
	}
	return src, nil
}

func (g *generator) handWritten(typ, method string) bool { return g.methods[typ][method] }

func fieldName(f *ast.Field) (string, error) {
	t := f.Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name, nil
	case *ast.SelectorExpr:
		return t.Sel.Name, nil
	}
	return "", fmt.Errorf("unsupported embedded field %s", types.ExprString(f.Type))
}

func (g *generator) genStruct(name string, st *ast.StructType) error {
	embedsType, embedsObject := false, false
	if !g.handWritten(name, "DeepCopyInto") {
		g.p("// DeepCopyInto copies in into out; in must be non-nil.")
		g.p("func (in *%s) DeepCopyInto(out *%s) {", name, name)
		g.p("*out = *in")
		for _, f := range st.Fields.List {
			var names []string
			if len(f.Names) == 0 {
				n, err := fieldName(f)
				if err != nil {
					return fmt.Errorf("%s: %v", name, err)
				}
				names = []string{n}
				if id, ok := f.Type.(*ast.Ident); ok {
					embedsType = embedsType || id.Name == "TypeMeta"
					embedsObject = embedsObject || id.Name == "ObjectMeta"
				}
			} else {
				for _, n := range f.Names {
					names = append(names, n.Name)
				}
			}
			for _, n := range names {
				if err := g.field(f.Type, "in."+n, "out."+n); err != nil {
					return fmt.Errorf("%s.%s: %v", name, n, err)
				}
			}
		}
		g.p("}\n")
	} else {
		for _, f := range st.Fields.List {
			if id, ok := f.Type.(*ast.Ident); ok && len(f.Names) == 0 {
				embedsType = embedsType || id.Name == "TypeMeta"
				embedsObject = embedsObject || id.Name == "ObjectMeta"
			}
		}
	}
	if !g.handWritten(name, "DeepCopy") {
		g.p("// DeepCopy returns a deep copy of in, or nil.")
		g.p("func (in *%s) DeepCopy() *%s {", name, name)
		g.p("if in == nil { return nil }")
		g.p("out := new(%s)", name)
		g.p("in.DeepCopyInto(out)")
		g.p("return out")
		g.p("}\n")
	}
	if embedsType && embedsObject && !g.handWritten(name, "DeepCopyObject") {
		g.p("// DeepCopyObject implements Object.")
		g.p("func (in *%s) DeepCopyObject() Object {", name)
		g.p("if c := in.DeepCopy(); c != nil { return c }")
		g.p("return nil")
		g.p("}\n")
	}
	return nil
}

func (g *generator) genNamedComposite(name string, t ast.Expr) error {
	k, err := g.localKind(name)
	if err != nil {
		return err
	}
	if k == shallow {
		return nil
	}
	if !g.handWritten(name, "DeepCopyInto") {
		g.p("// DeepCopyInto copies in into out.")
		g.p("func (in %s) DeepCopyInto(out *%s) {", name, name)
		g.p("{")
		g.p("in := &in")
		if err := g.body(t); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		g.p("}")
		g.p("}\n")
	}
	if !g.handWritten(name, "DeepCopy") {
		g.p("// DeepCopy returns a deep copy of in, or nil.")
		g.p("func (in %s) DeepCopy() %s {", name, name)
		g.p("if in == nil { return nil }")
		g.p("out := new(%s)", name)
		g.p("in.DeepCopyInto(out)")
		g.p("return *out")
		g.p("}\n")
	}
	return nil
}

// field copies struct field src into dst after `*out = *in`.
func (g *generator) field(t ast.Expr, src, dst string) error {
	t = g.resolve(t)
	k, err := g.kindOf(t)
	if err != nil {
		return err
	}
	switch k {
	case shallow:
		return nil
	case viaMethod:
		g.p("%s = %s.DeepCopy()", dst, src)
		return nil
	}
	switch t := t.(type) {
	case *ast.Ident:
		if g.isInterface(t.Name) {
			g.p("if %s != nil { %s = %s.DeepCopyObject() }", src, dst, src)
			return nil
		}
		if _, isStruct := g.types[t.Name].(*ast.StructType); isStruct {
			g.p("%s.DeepCopyInto(&%s)", src, dst)
			return nil
		}
		// Named map or slice: nil stays nil.
		g.p("if %s != nil {", src)
		g.p("in, out := &%s, &%s", src, dst)
		g.p("in.DeepCopyInto(out)")
		g.p("}")
		return nil
	case *ast.ArrayType:
		if t.Len != nil {
			g.p("{")
			g.p("in, out := &%s, &%s", src, dst)
			if err := g.body(t); err != nil {
				return err
			}
			g.p("}")
			return nil
		}
	case *ast.StructType:
		return fmt.Errorf("anonymous structs are not supported")
	}
	g.p("if %s != nil {", src)
	g.p("in, out := &%s, &%s", src, dst)
	if err := g.body(t); err != nil {
		return err
	}
	g.p("}")
	return nil
}

// resolve follows local aliases to the type they name.
func (g *generator) resolve(t ast.Expr) ast.Expr {
	for i := 0; i < 100; i++ {
		id, ok := t.(*ast.Ident)
		if !ok {
			return t
		}
		target, ok := g.aliases[id.Name]
		if !ok {
			return t
		}
		t = target
	}
	return t
}

func (g *generator) isInterface(name string) bool {
	_, ok := g.types[name].(*ast.InterfaceType)
	return ok
}

// body emits statements that deep-copy *in into *out, where in and out are
// pointers to a value of type t that is non-nil (for pointers, slices and
// maps) and out already holds a shallow copy or the zero value.
func (g *generator) body(t ast.Expr) error {
	t = g.resolve(t)
	switch t := t.(type) {
	case *ast.StarExpr:
		elem := g.typeString(t.X)
		g.p("*out = new(%s)", elem)
		k, err := g.kindOf(t.X)
		if err != nil {
			return err
		}
		switch {
		case k == shallow:
			g.p("**out = **in")
		case k == viaMethod:
			g.p("**out = (*in).DeepCopy()")
		default:
			if id, ok := t.X.(*ast.Ident); ok && !g.isInterface(id.Name) {
				g.p("(*in).DeepCopyInto(*out)")
				return nil
			}
			g.p("{")
			g.p("in, out := *in, *out")
			if err := g.body(t.X); err != nil {
				return err
			}
			g.p("}")
		}
		return nil
	case *ast.ArrayType:
		k, err := g.kindOf(t.Elt)
		if err != nil {
			return err
		}
		if t.Len == nil {
			g.p("*out = make(%s, len(*in))", g.typeString(t))
		}
		if k == shallow {
			if t.Len == nil {
				g.p("copy(*out, *in)")
			} else {
				g.p("*out = *in")
			}
			return nil
		}
		g.p("for i := range *in {")
		if err := g.elem(t.Elt, k, "(*in)[i]", "(*out)[i]"); err != nil {
			return err
		}
		g.p("}")
		return nil
	case *ast.MapType:
		kk, err := g.kindOf(t.Key)
		if err != nil {
			return err
		}
		if kk != shallow {
			return fmt.Errorf("map keys must be plain values: %s", types.ExprString(t))
		}
		k, err := g.kindOf(t.Value)
		if err != nil {
			return err
		}
		g.p("*out = make(%s, len(*in))", g.typeString(t))
		g.p("for key, val := range *in {")
		switch {
		case k == shallow:
			g.p("(*out)[key] = val")
		case k == viaMethod:
			g.p("(*out)[key] = val.DeepCopy()")
		default:
			if id, ok := t.Value.(*ast.Ident); ok {
				if g.isInterface(id.Name) {
					g.p("if val == nil { (*out)[key] = nil } else { (*out)[key] = val.DeepCopyObject() }")
					break
				}
				if _, isStruct := g.types[id.Name].(*ast.StructType); isStruct {
					g.p("(*out)[key] = *val.DeepCopy()")
					break
				}
			}
			g.p("var outVal %s", g.typeString(t.Value))
			g.p("if val != nil {")
			g.p("in, out := &val, &outVal")
			if err := g.body(t.Value); err != nil {
				return err
			}
			g.p("}")
			g.p("(*out)[key] = outVal")
		}
		g.p("}")
		return nil
	case *ast.Ident:
		if g.isInterface(t.Name) {
			g.p("*out = (*in).DeepCopyObject()")
			return nil
		}
		g.p("in.DeepCopyInto(out)")
		return nil
	}
	return fmt.Errorf("unsupported type %s", types.ExprString(t))
}

// elem copies one element of a slice or array.
func (g *generator) elem(t ast.Expr, k copyKind, src, dst string) error {
	t = g.resolve(t)
	if k == viaMethod {
		g.p("%s = %s.DeepCopy()", dst, src)
		return nil
	}
	if id, ok := t.(*ast.Ident); ok {
		if g.isInterface(id.Name) {
			g.p("if %s != nil { %s = %s.DeepCopyObject() }", src, dst, src)
			return nil
		}
		if _, isStruct := g.types[id.Name].(*ast.StructType); isStruct {
			g.p("%s.DeepCopyInto(&%s)", src, dst)
			return nil
		}
	}
	if at, ok := t.(*ast.ArrayType); ok && at.Len != nil {
		g.p("{")
		g.p("in, out := &%s, &%s", src, dst)
		if err := g.body(t); err != nil {
			return err
		}
		g.p("}")
		return nil
	}
	g.p("if %s != nil {", src)
	g.p("in, out := &%s, &%s", src, dst)
	if err := g.body(t); err != nil {
		return err
	}
	g.p("}")
	return nil
}
