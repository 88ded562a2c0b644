package gotemplate

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"text/template"
)

// reference runs a template through text/template with kubectl's two
// functions, as kubectl does.
func reference(text string, data any, missingKeyError bool) (string, error) {
	t, err := template.New("output").Funcs(template.FuncMap{
		"exists": referenceExists,
		"base64decode": func(s string) (string, error) {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return "", fmt.Errorf("base64 decode failed: %v", err)
			}
			return string(b), nil
		},
	}).Parse(text)
	if err != nil {
		return "", err
	}
	if missingKeyError {
		t.Option("missingkey=error")
	}
	var out bytes.Buffer
	err = t.Execute(&out, data)
	return out.String(), err
}

// referenceExists is kubectl's exists written over reflect: whether
// indexing item by the indices would reach a non-nil value.
func referenceExists(item any, indices ...any) bool {
	v := reflect.ValueOf(item)
	for _, i := range indices {
		idx := reflect.ValueOf(i)
		for v.Kind() == reflect.Interface {
			if v.IsNil() {
				return false
			}
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Slice, reflect.String:
			var n int64
			switch idx.Kind() {
			case reflect.Int, reflect.Int64:
				n = idx.Int()
			case reflect.Uint8:
				n = int64(idx.Uint())
			default:
				return false
			}
			if n < 0 || n >= int64(v.Len()) {
				return false
			}
			v = v.Index(int(n))
		case reflect.Map:
			if !idx.IsValid() {
				idx = reflect.Zero(v.Type().Key())
			}
			if !idx.Type().AssignableTo(v.Type().Key()) {
				return false
			}
			if x := v.MapIndex(idx); x.IsValid() {
				v = x
			} else {
				v = reflect.Zero(v.Type().Elem())
			}
		default:
			return false
		}
	}
	return !(v.Kind() == reflect.Interface && v.IsNil())
}

func ours(text string, data any, missingKeyError bool) (string, error) {
	t, err := Parse("output", text)
	if err != nil {
		return "", err
	}
	t.MissingKeyError = missingKeyError
	var out bytes.Buffer
	err = t.Execute(&out, data)
	return out.String(), err
}

// compare fails the test when the two executors disagree on output or
// error.
func compare(t *testing.T, text string, data any, missingKeyError bool) {
	t.Helper()
	want, wantErr := reference(text, data, missingKeyError)
	if wantErr != nil && strings.Contains(wantErr.Error(), "maximum template depth") {
		return // text/template's limit differs by platform; ours does not
	}
	got, gotErr := ours(text, data, missingKeyError)
	if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("template %q over %#v (missingkey=error %v):\ntext/template: %q, %v\nours:          %q, %v",
			text, data, missingKeyError, want, wantErr, got, gotErr)
	}
}

// gen writes random templates and data from a seeded source.
type gen struct {
	r    *rand.Rand
	vars []string
	loop int
}

var keys = []string{"a", "b", "items", "name", "n", "f", "ok", "nil", "s"}

func (g *gen) data(depth int) any {
	switch g.r.Intn(11) {
	case 0, 1:
		if depth > 2 {
			return "x"
		}
		m := map[string]any{}
		for i := g.r.Intn(5); i > 0; i-- {
			m[keys[g.r.Intn(len(keys))]] = g.data(depth + 1)
		}
		return m
	case 2, 3:
		if depth > 2 {
			return int64(2)
		}
		var s []any
		if g.r.Intn(4) > 0 {
			s = make([]any, 0, g.r.Intn(3))
		} else {
			s = []any{}
		}
		for i := g.r.Intn(4); i > 0; i-- {
			s = append(s, g.data(depth+1))
		}
		return s
	case 4:
		return []string{"", "web", "a<b>&'\"", "%d", "aGk=", "ü\x01", "a"}[g.r.Intn(7)]
	case 5:
		return []int64{0, 1, 3, -2, 1000000}[g.r.Intn(5)]
	case 6:
		return []float64{0, 1.5, 3, 1e21, -0.25}[g.r.Intn(5)]
	case 7:
		return g.r.Intn(2) == 0
	case 8:
		return nil
	}
	return map[string]any{"name": "web", "n": int64(2), "items": []any{map[string]any{"name": "x"}, nil, "s"}}
}

// root is what kubectl passes: mostly an object, sometimes anything.
func (g *gen) root() any {
	if g.r.Intn(5) == 0 {
		return g.data(0)
	}
	m := map[string]any{}
	for _, k := range keys {
		if g.r.Intn(2) == 0 {
			m[k] = g.data(1)
		}
	}
	return m
}

func (g *gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g *gen) field() string {
	var b strings.Builder
	for i := 1 + g.r.Intn(3); i > 0; i-- {
		b.WriteString("." + keys[g.r.Intn(len(keys))])
	}
	return b.String()
}

func (g *gen) operand(depth int) string {
	switch g.r.Intn(14) {
	case 0, 1, 2:
		return g.field()
	case 3:
		return "."
	case 4:
		return "$" + g.pick("", g.field())
	case 5:
		if len(g.vars) > 0 {
			return g.vars[g.r.Intn(len(g.vars))] + g.pick("", "", g.field())
		}
		return "$"
	case 6:
		return g.pick("0", "1", "2", "-1", "3", "1.5", "1e3", "0x10", "'a'", "1i", "99999999999999999999", "0x1p4")
	case 7:
		return g.pick(`"a"`, `"web"`, `""`, "`%v-%d`", `"aGk="`, `"x=<y>"`, `"%s"`)
	case 8:
		return g.pick("true", "false", "nil")
	case 9, 10:
		if depth < 2 {
			return "(" + g.pipeline(depth+1) + ")" + g.pick("", "", g.field())
		}
	}
	return g.field()
}

var funcs = []string{"and", "or", "not", "len", "index", "slice", "eq", "ne", "lt", "le", "gt", "ge",
	"print", "printf", "println", "html", "js", "urlquery", "call", "exists", "base64decode"}

func (g *gen) command(depth int) string {
	if g.r.Intn(2) == 0 {
		return g.operand(depth)
	}
	f := funcs[g.r.Intn(len(funcs))]
	var b strings.Builder
	b.WriteString(f)
	if f == "printf" && g.r.Intn(3) > 0 {
		b.WriteString(" " + g.pick(`"%v"`, `"%d-%s"`, `"%q"`, `"%5.2f|%x"`))
	}
	n := g.r.Intn(4)
	if arity, ok := arities[f]; ok && g.r.Intn(4) > 0 {
		n = arity
	}
	for ; n > 0; n-- {
		b.WriteString(" " + g.operand(depth))
	}
	return b.String()
}

// arities are the argument counts that are not an error.
var arities = map[string]int{"not": 1, "len": 1, "base64decode": 1, "ne": 2, "lt": 2, "le": 2, "gt": 2, "ge": 2, "eq": 2, "index": 2, "slice": 2}

func (g *gen) pipeline(depth int) string {
	cmds := []string{g.command(depth)}
	if g.r.Intn(3) == 0 {
		// Only a function can take the value piped in.
		f := funcs[g.r.Intn(len(funcs))]
		if arity, ok := arities[f]; ok && arity > 1 {
			f += " " + g.operand(depth)
		}
		cmds = append(cmds, f)
	}
	return strings.Join(cmds, " | ")
}

func (g *gen) action() string {
	l, r := g.pick("{{", "{{", "{{- "), g.pick("}}", "}}", " -}}")
	return l + g.pipeline(0) + r
}

func (g *gen) list(depth int) string {
	var b strings.Builder
	mark := len(g.vars)
	for i := 1 + g.r.Intn(3); i > 0; i-- {
		switch n := g.r.Intn(12); {
		case n < 3:
			b.WriteString(g.pick("x", " ", "\n", "-", " <", "\t"))
		case n < 6:
			b.WriteString(g.action())
		case n == 6:
			v := fmt.Sprintf("$v%d", len(g.vars))
			b.WriteString("{{" + v + " := " + g.pipeline(0) + "}}")
			g.vars = append(g.vars, v)
		case n == 7 && depth < 3:
			kw := g.pick("if", "with")
			b.WriteString("{{" + kw + " " + g.pipeline(0) + "}}" + g.list(depth+1))
			if g.r.Intn(2) == 0 {
				b.WriteString("{{else " + g.pick("", kw+" "+g.pipeline(0)) + "}}" + g.list(depth+1))
			}
			b.WriteString("{{end}}")
		case n == 8 && depth < 3:
			decl := g.pick("", "", "$i := ", "$k, $v := ")
			saved := g.vars
			if decl != "" {
				g.vars = append(append([]string(nil), g.vars...), strings.Fields(strings.NewReplacer(",", "", ":=", "").Replace(decl))...)
			}
			g.loop++
			b.WriteString("{{range " + decl + g.pipeline(0) + "}}" + g.list(depth+1))
			g.loop--
			g.vars = saved
			if g.r.Intn(2) == 0 {
				b.WriteString("{{else}}" + g.list(depth+1))
			}
			b.WriteString("{{end}}")
		case n == 9 && g.loop > 0:
			b.WriteString(g.pick("{{break}}", "{{continue}}"))
		case n == 10:
			b.WriteString(g.pick(`{{template "t" `+g.operand(0)+`}}`, `{{block "b" `+g.operand(0)+`}}[{{.}}]{{end}}`, `{{template "missing"}}`))
		default:
			b.WriteString("{{/* c */}}")
		}
	}
	g.vars = g.vars[:mark]
	return b.String()
}

func (g *gen) template() string {
	g.vars = nil
	body := g.list(0)
	if g.r.Intn(3) == 0 {
		body += `{{define "t"}}(` + g.action() + `){{end}}`
	}
	return body
}

// TestMatchesTextTemplate runs random templates over random decoded-JSON
// data through text/template and through this package.
func TestMatchesTextTemplate(t *testing.T) {
	g := &gen{r: rand.New(rand.NewSource(1))}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		text, data := g.template(), g.root()
		compare(t, text, data, g.r.Intn(4) == 0)
	}
}

// FuzzMatchesTextTemplate lets the fuzzer write the template; the data is
// picked by a seed.
func FuzzMatchesTextTemplate(f *testing.F) {
	for _, s := range []string{
		`{{.a}}`, `{{range $i, $v := .items}}{{$i}}={{$v}}{{end}}`, `{{index . "a" 0}}`,
		`{{if eq .n 2 3}}y{{else}}n{{end}}`, `{{printf "%v" .f}}`, `{{slice .s 1}}`,
		`{{with .a}}{{.b}}{{end}}`, `{{define "x"}}{{.}}{{end}}{{template "x" .n}}`,
	} {
		f.Add(s, int64(0), false)
	}
	f.Fuzz(func(t *testing.T, text string, seed int64, missingKeyError bool) {
		g := &gen{r: rand.New(rand.NewSource(seed))}
		compare(t, text, g.root(), missingKeyError)
	})
}
