package gotemplate

import (
	"fmt"
	"io"
	"sort"
	"text/template/parse"
)

// maxDepth bounds {{template}} recursion. text/template allows 100000
// natively and 1000 in wasm; one figure on every platform keeps output
// the same everywhere.
const maxDepth = 1000

// Template is a parsed template and the templates it defines.
type Template struct {
	name  string
	trees map[string]*parse.Tree
	funcs map[string]*function
	// MissingKeyError makes a missing map key an error (text/template's
	// missingkey=error, kubectl's --allow-missing-template-keys=false)
	// instead of <no value>.
	MissingKeyError bool
}

// Parse parses text as the template name, with kubectl's functions
// (exists, base64decode) beside text/template's builtins.
func Parse(name, text string) (*Template, error) {
	known := map[string]any{}
	for n := range builtins {
		known[n] = true
	}
	for n := range kubectlFuncs {
		known[n] = true
	}
	trees, err := parse.Parse(name, text, "", "", known)
	if err != nil {
		return nil, err
	}
	return &Template{name: name, trees: trees, funcs: kubectlFuncs}, nil
}

// execError is an evaluation error on its way up to Execute.
type execError struct{ err error }

// variable is a $name and its value.
type variable struct {
	name  string
	value value
}

// state is one template's execution: its tree, the node being evaluated
// (for error positions) and the variables in scope.
type state struct {
	t     *Template
	tree  *parse.Tree
	w     io.Writer
	node  parse.Node
	vars  []variable
	depth int
}

// Execute applies the template to data, writing as it goes; on an error,
// what was written before it stays written.
func (t *Template) Execute(w io.Writer, data any) (err error) {
	tree := t.trees[t.name]
	s := &state{t: t, tree: tree, w: w}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(execError)
			if !ok {
				panic(r)
			}
			err = e.err
		}
	}()
	root := of(data)
	if data == nil {
		root = noValue
	}
	s.vars = []variable{{"$", root}}
	if tree == nil || tree.Root == nil {
		s.errorf("%q is an incomplete or empty template", t.name)
	}
	s.walk(root, tree.Root)
	return nil
}

// errorf stops execution with an error placed at the current node, worded
// as text/template words it.
func (s *state) errorf(format string, args ...any) {
	msg := fmt.Errorf(format, args...).Error()
	if s.node == nil {
		msg = fmt.Sprintf("template: %s: %s", s.tree.Name, msg)
	} else {
		location, context := s.tree.ErrorContext(s.node)
		msg = fmt.Sprintf("template: %s: executing %q at <%s>: %s", location, s.tree.Name, context, msg)
	}
	panic(execError{fmt.Errorf("%s", msg)})
}

func (s *state) at(n parse.Node) { s.node = n }

func (s *state) mark() int { return len(s.vars) }

func (s *state) pop(mark int) { s.vars = s.vars[:mark] }

func (s *state) push(name string, v value) { s.vars = append(s.vars, variable{name, v}) }

func (s *state) setVar(name string, v value) {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].name == name {
			s.vars[i].value = v
			return
		}
	}
	s.errorf("undefined variable: %s", name)
}

func (s *state) setTopVar(n int, v value) { s.vars[len(s.vars)-n].value = v }

func (s *state) varValue(name string) value {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].name == name {
			return s.vars[i].value
		}
	}
	s.errorf("undefined variable: %s", name)
	return noValue
}

// control is how a walk ends: normally, or by {{break}} or {{continue}}.
type control int

const (
	next control = iota
	breakLoop
	continueLoop
)

func (s *state) walk(dot value, node parse.Node) control {
	s.at(node)
	switch node := node.(type) {
	case *parse.ActionNode:
		// Variables declared here live until the enclosing block ends.
		v := s.evalPipeline(dot, node.Pipe)
		if len(node.Pipe.Decl) == 0 {
			s.printValue(node, v)
		}
	case *parse.BreakNode:
		return breakLoop
	case *parse.ContinueNode:
		return continueLoop
	case *parse.CommentNode:
	case *parse.IfNode:
		return s.walkIfOrWith(false, dot, node.Pipe, node.List, node.ElseList)
	case *parse.WithNode:
		return s.walkIfOrWith(true, dot, node.Pipe, node.List, node.ElseList)
	case *parse.ListNode:
		for _, n := range node.Nodes {
			if c := s.walk(dot, n); c != next {
				return c
			}
		}
	case *parse.RangeNode:
		s.walkRange(dot, node)
	case *parse.TemplateNode:
		s.walkTemplate(dot, node)
	case *parse.TextNode:
		s.w.Write(node.Text)
	default:
		s.errorf("unknown node: %s", node)
	}
	return next
}

func (s *state) walkIfOrWith(with bool, dot value, pipe *parse.PipeNode, list, elseList *parse.ListNode) control {
	defer s.pop(s.mark())
	v := s.evalPipeline(dot, pipe)
	t, ok := isTrue(v.elem())
	if !ok {
		s.errorf("if/with can't use %v", v.x)
	}
	switch {
	case t && with:
		return s.walk(v, list)
	case t:
		return s.walk(dot, list)
	case elseList != nil:
		return s.walk(dot, elseList)
	}
	return next
}

func (s *state) walkRange(dot value, r *parse.RangeNode) {
	s.at(r)
	defer s.pop(s.mark())
	v := s.evalPipeline(dot, r.Pipe)
	mark := s.mark()
	decl := r.Pipe.Decl
	// one runs the body for an element; false stops the loop ({{break}}).
	one := func(index, elem value) bool {
		if len(decl) > 0 {
			switch {
			case r.Pipe.IsAssign && len(decl) > 1:
				s.setVar(decl[0].Ident[0], index)
			case r.Pipe.IsAssign:
				s.setVar(decl[0].Ident[0], elem)
			default:
				s.setTopVar(1, elem)
			}
		}
		if len(decl) > 1 {
			if r.Pipe.IsAssign {
				s.setVar(decl[1].Ident[0], elem)
			} else {
				s.setTopVar(2, index)
			}
		}
		c := s.walk(elem, r.List)
		s.pop(mark)
		return c != breakLoop
	}
	ran := false
	switch x := v.x; {
	case !v.valid():
	case basicKind(x) == intKind || basicKind(x) == uintKind:
		if len(decl) > 1 {
			s.errorf("can't use %v to iterate over more than one variable", x)
		}
		ran = rangeInt(x, func(i any) bool { return one(noValue, of(i)) })
	default:
		switch x := x.(type) {
		case []any:
			for i := range x {
				ran = true
				if !one(of(i), boxedOf(x[i])) {
					break
				}
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				ran = true
				if !one(of(k), boxedOf(x[k])) {
					break
				}
			}
		default:
			s.errorf("range can't iterate over %v", x)
		}
	}
	if !ran && r.ElseList != nil {
		s.walk(dot, r.ElseList)
	}
}

// rangeInt counts from 0 up to n, in n's own type, as range over an
// integer does; it reports whether the body ran at all.
func rangeInt(n any, body func(i any) bool) bool {
	ran := false
	switch n := n.(type) {
	case int:
		for i := 0; i < n; i++ {
			ran = true
			if !body(i) {
				break
			}
		}
	case int64:
		for i := int64(0); i < n; i++ {
			ran = true
			if !body(i) {
				break
			}
		}
	case uint8:
		for i := uint8(0); i < n; i++ {
			ran = true
			if !body(i) {
				break
			}
		}
	}
	return ran
}

func (s *state) walkTemplate(dot value, t *parse.TemplateNode) {
	s.at(t)
	tree := s.t.trees[t.Name]
	if tree == nil {
		s.errorf("template %q not defined", t.Name)
	}
	if s.depth == maxDepth {
		s.errorf("exceeded maximum template depth (%v)", maxDepth)
	}
	dot = s.evalPipeline(dot, t.Pipe)
	// A template sees none of its caller's variables, only $ as its dot.
	inner := *s
	inner.depth++
	inner.tree = tree
	inner.vars = []variable{{"$", dot}}
	inner.walk(dot, tree.Root)
}

// printValue prints an action's value as fmt.Print does, <no value> for
// nothing at all.
func (s *state) printValue(n parse.Node, v value) {
	s.at(n)
	if !v.valid() {
		io.WriteString(s.w, "<no value>")
		return
	}
	fmt.Fprint(s.w, v.x)
}
