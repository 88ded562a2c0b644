// Package openapi is the schema of kubeplay's API types: every served kind
// and the types nested in it, with upstream's definition names, field names,
// types, required markers, enums and patch strategies, and a short
// description of each in our own words. The API server publishes it as
// OpenAPI v3 and kubectl explain reads it.
package openapi

import (
	_ "embed"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync"
)

// schema.txt is the whole schema, one definition a block (see its header).
//
//go:embed schema.txt
var schemaText string

// Definition is one named schema (components.schemas in OpenAPI v3).
type Definition struct {
	Name        string // upstream's, e.g. io.k8s.api.core.v1.Pod
	Description string
	// Type and Format are set for definitions that are not objects with
	// fields (Time is a string, Quantity one of string or number).
	Type, Format string
	OneOf        []string
	GVKs         []GVK // the kinds this definition is the body of
	Fields       []*Field
}

// GVK names a kind.
type GVK struct{ Group, Version, Kind string }

// Field is one property of a definition.
type Field struct {
	Name          string
	Type          *Type
	Description   string
	Required      bool
	Enum          []string
	PatchStrategy string // x-kubernetes-patch-strategy
	MergeKey      string // x-kubernetes-patch-merge-key
}

// Type is a field's type: a primitive, a reference to a definition, or a
// list or string-keyed map of a type.
type Type struct {
	Primitive, Format string
	Ref               *Definition
	Elem              *Type
	Map               bool // Elem is a map's value type (else a list's item)
}

// Schema is the parsed schema.txt.
type Schema struct {
	defs  map[string]*Definition
	names []string // in file order
}

var (
	loadOnce sync.Once
	loaded   *Schema
	loadErr  error
)

// Load returns the schema, parsed once; the result is shared and must not be
// changed.
func Load() (*Schema, error) {
	loadOnce.Do(func() { loaded, loadErr = Parse(schemaText) })
	return loaded, loadErr
}

// Definition returns the named definition.
func (s *Schema) Definition(name string) (*Definition, bool) {
	d, ok := s.defs[name]
	return d, ok
}

// Definitions lists every definition in file order.
func (s *Schema) Definitions() []*Definition {
	out := make([]*Definition, len(s.names))
	for i, n := range s.names {
		out[i] = s.defs[n]
	}
	return out
}

// ForKind returns the definition of a kind's body.
func (s *Schema) ForKind(g GVK) (*Definition, bool) {
	for _, n := range s.names {
		for _, k := range s.defs[n].GVKs {
			if k == g {
				return s.defs[n], true
			}
		}
	}
	return nil, false
}

// Parse reads schema text. A definition starts with its name on a line of
// its own (with optional gvk=, type=, format= and oneOf= attributes); then
// ": description" and one line a field, "name TYPE [required]
// [enum=A|B] [patch=STRATEGY[/MERGEKEY]]: description"; a blank line ends
// it. TYPE is string, boolean, integer/int32, integer/int64,
// number/double, string/byte, []TYPE, map[string]TYPE or a definition's
// last name segment (looked up in the same package first).
func Parse(text string) (*Schema, error) {
	s := &Schema{defs: map[string]*Definition{}}
	type pending struct {
		f    *Field
		typ  string
		def  *Definition
		line int
	}
	var todo []pending
	var cur *Definition
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.TrimSpace(line) == "":
			cur = nil
		case cur == nil:
			d, err := parseHeader(line)
			if err != nil {
				return nil, fmt.Errorf("schema.txt:%d: %v", n, err)
			}
			if s.defs[d.Name] != nil {
				return nil, fmt.Errorf("schema.txt:%d: %s defined twice", n, d.Name)
			}
			s.defs[d.Name] = d
			s.names = append(s.names, d.Name)
			cur = d
		case strings.HasPrefix(line, ": "):
			cur.Description = strings.TrimPrefix(line, ": ")
		default:
			f, typ, err := parseField(line)
			if err != nil {
				return nil, fmt.Errorf("schema.txt:%d: %v", n, err)
			}
			if len(cur.Fields) > 0 && cur.Fields[len(cur.Fields)-1].Name >= f.Name {
				return nil, fmt.Errorf("schema.txt:%d: field %s out of order", n, f.Name)
			}
			cur.Fields = append(cur.Fields, f)
			todo = append(todo, pending{f, typ, cur, n})
		}
	}
	byShort := map[string][]string{}
	for _, n := range s.names {
		short := n[strings.LastIndexByte(n, '.')+1:]
		byShort[short] = append(byShort[short], n)
	}
	for _, p := range todo {
		t, err := s.parseType(p.typ, p.def.Name, byShort)
		if err != nil {
			return nil, fmt.Errorf("schema.txt:%d: %v", p.line, err)
		}
		p.f.Type = t
	}
	return s, nil
}

func parseHeader(line string) (*Definition, error) {
	words := strings.Fields(line)
	d := &Definition{Name: words[0], Type: "object"}
	for _, w := range words[1:] {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("bad attribute %q", w)
		}
		switch k {
		case "gvk":
			parts := strings.Split(v, "/")
			switch len(parts) {
			case 2:
				d.GVKs = append(d.GVKs, GVK{"", parts[0], parts[1]})
			case 3:
				d.GVKs = append(d.GVKs, GVK{parts[0], parts[1], parts[2]})
			default:
				return nil, fmt.Errorf("bad gvk %q", v)
			}
		case "type":
			d.Type = v
		case "format":
			d.Format = v
		case "oneOf":
			d.Type = ""
			d.OneOf = strings.Split(v, "|")
		default:
			return nil, fmt.Errorf("unknown attribute %q", k)
		}
	}
	return d, nil
}

func parseField(line string) (*Field, string, error) {
	head, desc, ok := strings.Cut(line, ": ")
	if !ok {
		return nil, "", fmt.Errorf("field line without description: %q", line)
	}
	words := strings.Fields(head)
	if len(words) < 2 {
		return nil, "", fmt.Errorf("field line needs a name and a type: %q", line)
	}
	f := &Field{Name: words[0], Description: desc}
	for _, w := range words[2:] {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "required":
			f.Required = true
		case "enum":
			f.Enum = strings.Split(v, "|")
			for i, e := range f.Enum {
				if e == `""` {
					f.Enum[i] = ""
				}
			}
		case "patch":
			f.PatchStrategy, f.MergeKey, _ = strings.Cut(v, "/")
		default:
			return nil, "", fmt.Errorf("unknown flag %q", w)
		}
	}
	return f, words[1], nil
}

func (s *Schema) parseType(t, owner string, byShort map[string][]string) (*Type, error) {
	switch {
	case strings.HasPrefix(t, "[]"):
		e, err := s.parseType(t[2:], owner, byShort)
		return &Type{Elem: e}, err
	case strings.HasPrefix(t, "map[string]"):
		e, err := s.parseType(t[len("map[string]"):], owner, byShort)
		return &Type{Elem: e, Map: true}, err
	}
	switch t {
	case "string", "boolean":
		return &Type{Primitive: t}, nil
	case "integer/int32", "integer/int64", "number/double", "string/byte":
		p, f, _ := strings.Cut(t, "/")
		return &Type{Primitive: p, Format: f}, nil
	}
	cands := byShort[t]
	pkg := owner[:strings.LastIndexByte(owner, '.')+1]
	for _, c := range cands {
		if strings.HasPrefix(c, pkg) && !strings.Contains(c[len(pkg):], ".") {
			return &Type{Ref: s.defs[c]}, nil
		}
	}
	if len(cands) == 1 {
		return &Type{Ref: s.defs[cands[0]]}, nil
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("unknown type %q", t)
	}
	sort.Strings(cands)
	return nil, fmt.Errorf("type %q is ambiguous: %s", t, strings.Join(cands, ", "))
}

// Fingerprint changes whenever the schema does, so clients that cache
// documents by hash fetch them again.
func Fingerprint() uint64 {
	h := fnv.New64a()
	h.Write([]byte(schemaText))
	return h.Sum64()
}

// FieldNames lists the fields found by following path (field names, through
// lists and maps) from a kind's definition; nil when the path leads nowhere.
// Tab completion of `kubectl explain pod.spec.` uses it.
func (s *Schema) FieldNames(kind GVK, path []string) []string {
	d, ok := s.ForKind(kind)
	if !ok {
		return nil
	}
	for _, name := range path {
		var next *Definition
		for _, f := range d.Fields {
			if f.Name == name {
				t := f.Type
				for t.Elem != nil {
					t = t.Elem
				}
				next = t.Ref
			}
		}
		if next == nil {
			return nil
		}
		d = next
	}
	out := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = f.Name
	}
	return out
}
