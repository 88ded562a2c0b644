package gotemplate

import (
	"strings"
	"text/template/parse"
)

// Evaluation of pipelines, commands and arguments. The node recorded with
// s.at before each step is where an error is reported, so the steps record
// it where text/template does.

func (s *state) evalPipeline(dot value, pipe *parse.PipeNode) value {
	if pipe == nil {
		return noValue
	}
	s.at(pipe)
	v := noFinal
	for _, cmd := range pipe.Cmds {
		// Each command's result is the next one's final argument, taken
		// out of its interface.
		v = s.evalCommand(dot, cmd, v).elem()
	}
	for _, d := range pipe.Decl {
		if pipe.IsAssign {
			s.setVar(d.Ident[0], v)
		} else {
			s.push(d.Ident[0], v)
		}
	}
	return v
}

func (s *state) notAFunction(args []parse.Node, final value) {
	if len(args) > 1 || final.state != missing {
		s.errorf("can't give argument to non-function %s", args[0])
	}
}

func (s *state) evalCommand(dot value, cmd *parse.CommandNode, final value) value {
	first := cmd.Args[0]
	switch n := first.(type) {
	case *parse.FieldNode:
		return s.evalFieldNode(dot, n, cmd.Args, final)
	case *parse.ChainNode:
		return s.evalChainNode(dot, n, cmd.Args, final)
	case *parse.IdentifierNode:
		return s.evalFunction(dot, n, cmd, cmd.Args, final)
	case *parse.PipeNode:
		s.notAFunction(cmd.Args, final)
		return s.evalPipeline(dot, n)
	case *parse.VariableNode:
		return s.evalVariableNode(dot, n, cmd.Args, final)
	}
	s.at(first)
	s.notAFunction(cmd.Args, final)
	if v, ok := s.literal(dot, first); ok {
		return v
	}
	if _, ok := first.(*parse.NilNode); ok {
		s.errorf("nil is not a command")
	}
	s.errorf("can't evaluate command %q", first)
	return noValue
}

// literal is the value of a constant or of dot.
func (s *state) literal(dot value, n parse.Node) (value, bool) {
	switch n := n.(type) {
	case *parse.BoolNode:
		return of(n.True), true
	case *parse.DotNode:
		return dot, true
	case *parse.NumberNode:
		return s.idealConstant(n), true
	case *parse.StringNode:
		return of(n.Text), true
	}
	return noValue, false
}

// idealConstant types a number literal by its spelling, as Go does for an
// untyped constant: complex, float (with . e or p, not hex or a rune) or int.
func (s *state) idealConstant(n *parse.NumberNode) value {
	s.at(n)
	hexInt := len(n.Text) > 2 && n.Text[0] == '0' && (n.Text[1] == 'x' || n.Text[1] == 'X') && !strings.ContainsAny(n.Text, "pP")
	rune := n.Text != "" && n.Text[0] == '\''
	switch {
	case n.IsComplex:
		return of(n.Complex128)
	case n.IsFloat && !hexInt && !rune && strings.ContainsAny(n.Text, ".eEpP"):
		return of(n.Float64)
	case n.IsInt:
		i := int(n.Int64)
		if int64(i) != n.Int64 {
			s.errorf("%s overflows int", n.Text)
		}
		return of(i)
	case n.IsUint:
		s.errorf("%s overflows int", n.Text)
	}
	return noValue
}

func (s *state) evalFieldNode(dot value, f *parse.FieldNode, args []parse.Node, final value) value {
	s.at(f)
	return s.evalFieldChain(dot, dot, f, f.Ident, args, final)
}

func (s *state) evalChainNode(dot value, c *parse.ChainNode, args []parse.Node, final value) value {
	s.at(c)
	if len(c.Field) == 0 {
		s.errorf("internal error: no fields in evalChainNode")
	}
	if c.Node.Type() == parse.NodeNil {
		s.errorf("indirection through explicit nil in %s", c)
	}
	recv := s.evalArg(dot, pNone, c.Node)
	return s.evalFieldChain(dot, recv, c, c.Field, args, final)
}

func (s *state) evalVariableNode(dot value, v *parse.VariableNode, args []parse.Node, final value) value {
	s.at(v)
	val := s.varValue(v.Ident[0])
	if len(v.Ident) == 1 {
		s.notAFunction(args, final)
		return val
	}
	return s.evalFieldChain(dot, val, v, v.Ident[1:], args, final)
}

func (s *state) evalFieldChain(dot, recv value, node parse.Node, ident []string, args []parse.Node, final value) value {
	for _, name := range ident[:len(ident)-1] {
		recv = s.evalField(name, nil, noFinal, recv)
	}
	return s.evalField(ident[len(ident)-1], args, final, recv)
}

// evalField is .name on a value: a map key; nothing else has fields here,
// and no value has methods.
func (s *state) evalField(name string, args []parse.Node, final, recv value) value {
	if !recv.valid() {
		if s.t.MissingKeyError {
			s.errorf("nil data; no entry for key %q", name)
		}
		return noValue
	}
	typ := recv.typeName()
	if recv.isNilIface() {
		s.errorf("nil pointer evaluating %s.%s", typ, name)
	}
	if m, ok := recv.x.(map[string]any); ok {
		if len(args) > 1 || final.state != missing {
			s.errorf("%s is not a method but has arguments", name)
		}
		x, found := m[name]
		if !found {
			if s.t.MissingKeyError {
				s.errorf("map has no entry for key %q", name)
			}
			return noValue
		}
		return boxedOf(x)
	}
	s.errorf("can't evaluate field %s in type %s", name, typ)
	return noValue
}

func (s *state) evalFunction(dot value, n *parse.IdentifierNode, cmd parse.Node, args []parse.Node, final value) value {
	s.at(n)
	f := s.t.funcs[n.Ident]
	builtin := false
	if f == nil {
		f, builtin = builtins[n.Ident], true
	}
	if f == nil {
		s.errorf("%q is not a defined function", n.Ident)
	}
	return s.evalCall(dot, f, builtin, cmd, n.Ident, args, final)
}

// evalCall checks the argument count, evaluates the arguments against the
// parameters' types and calls f; args[0] is the function's own node.
func (s *state) evalCall(dot value, f *function, builtin bool, node parse.Node, name string, args []parse.Node, final value) value {
	if args != nil {
		args = args[1:]
	}
	nIn := len(args)
	if final.state != missing {
		nIn++
	}
	nParams := len(f.params)
	nFixed := len(args)
	if f.variadic {
		nFixed = nParams - 1
		if nIn < nFixed {
			s.errorf("wrong number of args for %s: want at least %d got %d", name, nParams-1, len(args))
		}
	} else if nIn != nParams {
		s.errorf("wrong number of args for %s: want %d got %d", name, nParams, nIn)
	}

	// and/or evaluate their arguments only until the answer is known.
	if builtin && (name == "and" || name == "or") {
		var v value
		for _, a := range args {
			v = s.evalArg(dot, pValue, a)
			if truth(v) == (name == "or") {
				return v
			}
		}
		if final.state != missing {
			v = final
		}
		return v
	}

	argv := make([]value, nIn)
	i := 0
	for ; i < nFixed && i < len(args); i++ {
		argv[i] = s.evalArg(dot, f.params[i], args[i])
	}
	if f.variadic {
		for ; i < len(args); i++ {
			argv[i] = s.evalArg(dot, f.params[nParams-1], args[i])
		}
	}
	if final.state != missing {
		p := f.params[nParams-1]
		if f.variadic && nIn-1 < nFixed {
			p = f.params[nIn-1]
		}
		argv[i] = s.validateType(final, p)
	}
	if builtin && name == "call" {
		callee := reflectString(final)
		if len(args) > 0 {
			callee = args[0].String()
		}
		argv = append([]value{of(callee)}, argv...)
	}
	for j, a := range argv {
		// A literal that is no Go constant reaches a function as reflect's
		// zero Value, which reflect refuses to pass.
		if !a.valid() && f.param(j) == pAny {
			s.at(node)
			s.errorf("error calling %s: %s", name, "reflect: Call using zero Value argument")
		}
	}
	v, err := f.call(argv)
	if err != nil {
		s.at(node)
		s.errorf("error calling %s: %w", name, err)
	}
	return v
}

// reflectString is reflect.Value's String: the string itself, or the
// type in angle brackets.
func reflectString(v value) string {
	if !v.valid() {
		return "<invalid Value>"
	}
	if str, ok := v.x.(string); ok && v.state == concrete {
		return str
	}
	return "<" + v.typeName() + " Value>"
}

// param is the type of a function's parameter, which decides how an
// argument is checked and converted.
type param uint8

const (
	pNone   param = iota // no parameter: a chain's receiver, taken as it is
	pValue               // reflect.Value: any value, even none
	pAny                 // interface{}: any value, none becomes nil
	pString              // string
)

// validateType makes an evaluated argument fit a parameter, or fails as
// text/template does.
func (s *state) validateType(v value, p param) value {
	if !v.valid() {
		switch p {
		case pAny:
			return nilIfaceV
		case pString:
			s.errorf("invalid value; expected string")
		}
		return noValue
	}
	if p != pString {
		return v
	}
	if _, ok := v.x.(string); ok {
		if v.state == boxed {
			return of(v.x)
		}
		return v
	}
	got := v.typeName()
	if v.state == boxed && v.x != nil {
		got = typeOf(v.x)
	}
	s.errorf("wrong type for value; expected string; got %s", got)
	return noValue
}

func (s *state) evalArg(dot value, p param, n parse.Node) value {
	s.at(n)
	switch n := n.(type) {
	case *parse.DotNode:
		return s.validateType(dot, p)
	case *parse.NilNode:
		switch p {
		case pString:
			s.errorf("cannot assign nil to string")
		case pAny:
			return nilIfaceV
		}
		return noValue
	case *parse.FieldNode:
		return s.validateType(s.evalFieldNode(dot, n, []parse.Node{n}, noFinal), p)
	case *parse.VariableNode:
		return s.validateType(s.evalVariableNode(dot, n, nil, noFinal), p)
	case *parse.PipeNode:
		return s.validateType(s.evalPipeline(dot, n), p)
	case *parse.IdentifierNode:
		return s.validateType(s.evalFunction(dot, n, n, nil, noFinal), p)
	case *parse.ChainNode:
		return s.validateType(s.evalChainNode(dot, n, nil, noFinal), p)
	}
	if p == pString {
		s.at(n)
		if str, ok := n.(*parse.StringNode); ok {
			return of(str.Text)
		}
		s.errorf("expected string; found %s", n)
	}
	return s.evalEmptyInterface(dot, n)
}

// evalEmptyInterface is a literal passed where any value will do.
func (s *state) evalEmptyInterface(dot value, n parse.Node) value {
	s.at(n)
	if v, ok := s.literal(dot, n); ok {
		return v
	}
	s.errorf("can't handle assignment of %s to empty interface argument", n)
	return noValue
}
