package shell

import (
	"fmt"
	"strings"
)

// awk's parser: a recursive descent over POSIX awk's grammar, building the
// tree awk.go walks. Variables are resolved to slots here (specials first,
// then globals; function parameters are locals).

type awkExpr interface{}

type (
	aNum   struct{ v float64 }
	aStr   struct{ s string }
	aRegex struct{ re string }
	// aVar is a variable: a global slot, or a local of the running function.
	aVar struct {
		name  string
		idx   int
		local bool
	}
	aField struct{ e awkExpr }
	aIndex struct {
		arr  *aVar
		keys []awkExpr
	}
	aIn struct {
		keys []awkExpr
		arr  *aVar
	}
	aAssign struct {
		op     string // "=", "+=", …
		lv, rv awkExpr
	}
	aCond   struct{ c, a, b awkExpr }
	aBinary struct {
		op   string
		l, r awkExpr
	}
	aMatch struct {
		neg  bool
		l, r awkExpr
	}
	aUnary struct {
		op string
		e  awkExpr
	}
	aIncDec struct {
		pre bool
		op  string
		lv  awkExpr
	}
	aCall struct {
		name string
		args []awkExpr
		line int
	}
	aBuiltin struct {
		name string
		args []awkExpr
	}
	aGetline struct {
		from string // "" main input, "<" a file, "|" a command
		src  awkExpr
		lv   awkExpr
	}
	aGroup struct{ e awkExpr }
)

type awkStmt interface{}

type (
	sExpr  struct{ e awkExpr }
	sPrint struct {
		printf bool
		args   []awkExpr
		redir  string // "", ">", ">>", "|"
		dest   awkExpr
	}
	sIf struct {
		cond      awkExpr
		then, els []stmtAt
	}
	sWhile struct {
		cond awkExpr
		body []stmtAt
		do   bool
	}
	sFor struct {
		init, post awkStmt
		cond       awkExpr
		body       []stmtAt
	}
	sForIn struct {
		v    awkExpr
		arr  *aVar
		body []stmtAt
	}
	sBlock  struct{ body []stmtAt }
	sSimple struct{ what string } // next, nextfile, break, continue
	sExit   struct{ e awkExpr }
	sReturn struct{ e awkExpr }
	sDelete struct {
		arr  *aVar
		keys []awkExpr
	}
)

// stmtAt is a statement and its source line, for runtime error messages.
type stmtAt struct {
	line int
	s    awkStmt
}

type awkItem struct {
	pat1, pat2 awkExpr
	rng        bool
	body       []stmtAt
	hasBody    bool
}

type awkFunc struct {
	name   string
	params []string
	body   []stmtAt
	line   int
}

type awkProgram struct {
	begins, ends [][]stmtAt
	items        []awkItem
	funcs        map[string]*awkFunc
	globals      []string
	calls        []*aCall
}

// The special variables occupy the first global slots.
const (
	avNF = iota
	avNR
	avFNR
	avFS
	avOFS
	avORS
	avRS
	avFILENAME
	avSUBSEP
	avRSTART
	avRLENGTH
	avCONVFMT
	avOFMT
	avENVIRON
	avARGC
	avARGV
	avRT
	avSpecials
)

var awkSpecialNames = []string{"NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP",
	"RSTART", "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT"}

type awkParser struct {
	lx      awkLexer
	tok     awkToken
	prog    *awkProgram
	gidx    map[string]int
	params  map[string]int // the current function's parameters
	depth   int
	inLoop  int
	inFunc  bool
	inPrint bool // in a print's operands: '>' redirects
	noIn    bool
}

type awkParseState struct {
	lx  awkLexer
	tok awkToken
}

func (p *awkParser) save() awkParseState     { return awkParseState{p.lx, p.tok} }
func (p *awkParser) restore(s awkParseState) { p.lx, p.tok = s.lx, s.tok }

// parseAwk parses a program; errors come back as *awkSyntaxError.
func parseAwk(src string) (prog *awkProgram, err error) {
	p := &awkParser{lx: awkLexer{src: src, line: 1}, gidx: map[string]int{}}
	p.prog = &awkProgram{funcs: map[string]*awkFunc{}}
	for i, n := range awkSpecialNames {
		p.gidx[n] = i
		p.prog.globals = append(p.prog.globals, n)
	}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*awkSyntaxError)
			if !ok {
				panic(r)
			}
			prog, err = nil, se
		}
	}()
	p.advance()
	p.program()
	for _, c := range p.prog.calls {
		f := p.prog.funcs[c.name]
		if f == nil {
			return nil, &awkSyntaxError{msg: "fatal: function `" + c.name + "' not defined", line: c.line}
		}
		if len(c.args) > len(f.params) {
			return nil, &awkSyntaxError{msg: fmt.Sprintf("fatal: function `%s' called with more arguments than declared", c.name), line: c.line}
		}
	}
	return p.prog, nil
}

func (p *awkParser) advance() {
	p.tok = p.lx.next()
	if p.lx.err != nil {
		panic(p.lx.err)
	}
}

// fail reports a syntax error at the current token, as gawk does: the
// source line, then a caret under the token.
func (p *awkParser) fail(msg string) {
	t := p.tok
	bol := strings.LastIndexByte(p.lx.src[:t.pos], '\n') + 1
	line := t.line
	if t.kind == atNewline || t.kind == atEOF {
		msg = "unexpected newline or end of string"
		if t.kind == atNewline {
			line++
		}
	}
	panic(&awkSyntaxError{msg: msg, line: line, col: t.pos - bol, src: p.lx.lineText(bol), show: true})
}

func (p *awkParser) is(text string) bool {
	return (p.tok.kind == atPunct || p.tok.kind == atKeyword) && p.tok.text == text
}

func (p *awkParser) expect(text string) {
	if !p.is(text) {
		p.fail("syntax error")
	}
	p.advance()
}

func (p *awkParser) optNewlines() {
	for p.tok.kind == atNewline {
		p.advance()
	}
}

func (p *awkParser) enter() {
	p.depth++
	if p.depth > 200 {
		p.fail("expression nested too deeply")
	}
}

func (p *awkParser) leave() { p.depth-- }

func (p *awkParser) program() {
	for {
		for p.tok.kind == atNewline || p.is(";") {
			p.advance()
		}
		if p.tok.kind == atEOF {
			return
		}
		p.item()
	}
}

func (p *awkParser) item() {
	switch {
	case p.is("BEGIN"), p.is("END"):
		begin := p.is("BEGIN")
		p.advance()
		if !p.is("{") {
			p.fail("syntax error")
		}
		body := p.block()
		if begin {
			p.prog.begins = append(p.prog.begins, body)
		} else {
			p.prog.ends = append(p.prog.ends, body)
		}
	case p.is("function"):
		p.function()
	case p.is("{"):
		p.prog.items = append(p.prog.items, awkItem{body: p.block(), hasBody: true})
	default:
		it := awkItem{pat1: p.expr()}
		if p.is(",") {
			p.advance()
			p.optNewlines()
			it.rng = true
			it.pat2 = p.expr()
		}
		if p.is("{") {
			it.body, it.hasBody = p.block(), true
		}
		p.prog.items = append(p.prog.items, it)
	}
}

func (p *awkParser) function() {
	line := p.tok.line
	p.advance()
	if p.tok.kind != atName && p.tok.kind != atFuncName {
		p.fail("syntax error")
	}
	name := p.tok.text
	if _, dup := p.prog.funcs[name]; dup {
		panic(&awkSyntaxError{msg: "function `" + name + "' previously defined", line: p.tok.line})
	}
	if _, isVar := p.gidx[name]; isVar && p.gidx[name] < avSpecials {
		panic(&awkSyntaxError{msg: "function `" + name + "': cannot use special variable `" + name + "' as a function name", line: p.tok.line})
	}
	p.advance()
	p.expect("(")
	f := &awkFunc{name: name, line: line}
	p.prog.funcs[name] = f
	p.params = map[string]int{}
	for !p.is(")") {
		if p.tok.kind != atName {
			p.fail("syntax error")
		}
		if _, dup := p.params[p.tok.text]; dup {
			panic(&awkSyntaxError{msg: fmt.Sprintf("function `%s': parameter #%d, `%s', duplicates parameter #%d", name, len(f.params)+1, p.tok.text, p.params[p.tok.text]+1), line: p.tok.line})
		}
		p.params[p.tok.text] = len(f.params)
		f.params = append(f.params, p.tok.text)
		p.advance()
		if p.is(",") {
			p.advance()
			p.optNewlines()
		} else if !p.is(")") {
			p.fail("syntax error")
		}
	}
	p.advance()
	p.optNewlines()
	p.inFunc = true
	f.body = p.block()
	p.inFunc = false
	p.params = nil
}

func (p *awkParser) block() []stmtAt {
	p.enter()
	defer p.leave()
	p.expect("{")
	var out []stmtAt
	for {
		for p.tok.kind == atNewline || p.is(";") {
			p.advance()
		}
		if p.is("}") {
			p.advance()
			return out
		}
		if p.tok.kind == atEOF {
			p.fail("syntax error")
		}
		out = append(out, p.stmt())
	}
}

// endSimple consumes a simple statement's terminator.
func (p *awkParser) endSimple() {
	switch {
	case p.tok.kind == atNewline || p.is(";"):
		p.advance()
	case p.is("}") || p.tok.kind == atEOF:
	default:
		p.fail("syntax error")
	}
}

// body parses the statement a control statement governs.
func (p *awkParser) body() []stmtAt {
	p.optNewlines()
	if p.is(";") {
		p.advance()
		return nil
	}
	s := p.stmt()
	if b, ok := s.s.(sBlock); ok {
		return b.body
	}
	return []stmtAt{s}
}

func (p *awkParser) stmt() stmtAt {
	p.enter()
	defer p.leave()
	line := p.tok.line
	at := func(s awkStmt) stmtAt { return stmtAt{line: line, s: s} }
	if p.is("{") {
		return at(sBlock{body: p.block()})
	}
	if p.tok.kind == atKeyword {
		switch p.tok.text {
		case "if":
			p.advance()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			s := sIf{cond: c, then: p.body()}
			st := p.save()
			for p.tok.kind == atNewline || p.is(";") {
				p.advance()
			}
			if p.is("else") {
				p.advance()
				s.els = p.body()
			} else {
				p.restore(st)
			}
			return at(s)
		case "while":
			p.advance()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			if p.is(";") {
				p.advance()
				return at(sWhile{cond: c})
			}
			p.inLoop++
			b := p.body()
			p.inLoop--
			return at(sWhile{cond: c, body: b})
		case "do":
			p.advance()
			p.inLoop++
			b := p.body()
			p.inLoop--
			for p.tok.kind == atNewline || p.is(";") {
				p.advance()
			}
			if !p.is("while") {
				p.fail("syntax error")
			}
			p.advance()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.endSimple()
			return at(sWhile{cond: c, body: b, do: true})
		case "for":
			return at(p.forStmt())
		case "break", "continue":
			what := p.tok.text
			if p.inLoop == 0 {
				panic(&awkSyntaxError{msg: fmt.Sprintf("`%s' is not allowed outside a loop", what), line: line, src: p.lx.lineText(p.tok.pos - p.tok.col), col: p.tok.col, show: true})
			}
			p.advance()
			p.endSimple()
			return at(sSimple{what: what})
		case "next", "nextfile":
			what := p.tok.text
			p.advance()
			p.endSimple()
			return at(sSimple{what: what})
		case "exit":
			p.advance()
			var e awkExpr
			if !p.atStmtEnd() {
				e = p.expr()
			}
			p.endSimple()
			return at(sExit{e: e})
		case "return":
			if !p.inFunc {
				p.fail("`return' used outside function context")
			}
			p.advance()
			var e awkExpr
			if !p.atStmtEnd() {
				e = p.expr()
			}
			p.endSimple()
			return at(sReturn{e: e})
		case "delete":
			p.advance()
			if p.tok.kind != atName {
				p.fail("syntax error")
			}
			d := sDelete{arr: p.variable(p.tok.text)}
			p.advance()
			if p.is("[") {
				p.advance()
				d.keys = p.exprList("]")
				p.expect("]")
			}
			p.endSimple()
			return at(d)
		case "print", "printf":
			s := p.printStmt()
			p.endSimple()
			return at(s)
		}
	}
	if p.is(";") {
		p.advance()
		return at(sBlock{})
	}
	s := p.simpleStmt()
	p.endSimple()
	return at(s)
}

func (p *awkParser) atStmtEnd() bool {
	return p.tok.kind == atNewline || p.tok.kind == atEOF || p.is(";") || p.is("}")
}

func (p *awkParser) simpleStmt() awkStmt {
	if p.is("print") || p.is("printf") {
		return p.printStmt()
	}
	return sExpr{e: p.expr()}
}

func (p *awkParser) forStmt() awkStmt {
	p.advance()
	p.expect("(")
	// for (name in array)
	st := p.save()
	if p.tok.kind == atName {
		name := p.tok.text
		p.advance()
		if p.is("in") {
			p.advance()
			if p.tok.kind == atName {
				arr := p.tok.text
				p.advance()
				if p.is(")") {
					p.advance()
					p.inLoop++
					b := p.body()
					p.inLoop--
					return sForIn{v: p.variable(name), arr: p.variable(arr), body: b}
				}
			}
		}
	}
	p.restore(st)
	var f sFor
	if !p.is(";") {
		f.init = p.simpleStmt()
	}
	p.expect(";")
	p.optNewlines()
	if !p.is(";") {
		f.cond = p.expr()
	}
	p.expect(";")
	p.optNewlines()
	if !p.is(")") {
		f.post = p.simpleStmt()
	}
	p.expect(")")
	if p.is(";") {
		p.advance()
		return f
	}
	p.inLoop++
	f.body = p.body()
	p.inLoop--
	return f
}

func (p *awkParser) printStmt() awkStmt {
	s := sPrint{printf: p.tok.text == "printf"}
	p.advance()
	parsed := false
	if p.is("(") {
		// print (a, b) > "f": a parenthesized list is the operands.
		st := p.save()
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					if _, se := r.(*awkSyntaxError); !se {
						panic(r)
					}
					ok = false
				}
			}()
			p.advance()
			list := p.exprList(")")
			p.expect(")")
			if p.atStmtEnd() || p.is(">") || p.is(">>") || p.is("|") {
				s.args = list
				return true
			}
			return false
		}()
		p.lx.err = nil
		if ok {
			parsed = true
		} else {
			p.restore(st)
		}
	}
	if !parsed && !p.atStmtEnd() && !p.is(">") && !p.is(">>") && !p.is("|") {
		saved := p.inPrint
		p.inPrint = true
		s.args = p.exprList("")
		p.inPrint = saved
	}
	if s.printf && len(s.args) == 0 {
		p.fail("syntax error")
	}
	if p.is(">") || p.is(">>") || p.is("|") {
		s.redir = p.tok.text
		p.advance()
		saved := p.inPrint
		p.inPrint = true
		s.dest = p.concat()
		p.inPrint = saved
	}
	return s
}

// exprList parses comma-separated expressions (up to end, not consumed).
func (p *awkParser) exprList(end string) []awkExpr {
	var out []awkExpr
	if end != "" && p.is(end) {
		return nil
	}
	saved := p.inPrint
	if end != "" {
		p.inPrint = false
	}
	defer func() { p.inPrint = saved }()
	for {
		out = append(out, p.expr())
		if !p.is(",") {
			return out
		}
		p.advance()
		p.optNewlines()
	}
}

func (p *awkParser) variable(name string) *aVar {
	if i, ok := p.params[name]; ok {
		return &aVar{name: name, idx: i, local: true}
	}
	if _, isFunc := p.prog.funcs[name]; isFunc && !p.inFunc {
		p.fail("syntax error")
	}
	i, ok := p.gidx[name]
	if !ok {
		i = len(p.prog.globals)
		p.gidx[name] = i
		p.prog.globals = append(p.prog.globals, name)
	}
	return &aVar{name: name, idx: i}
}

func isLvalue(e awkExpr) bool {
	switch e.(type) {
	case *aVar, *aField, *aIndex:
		return true
	}
	return false
}

func (p *awkParser) expr() awkExpr {
	p.enter()
	defer p.leave()
	left := p.ternary()
	if p.tok.kind == atPunct && isLvalue(left) {
		switch op := p.tok.text; op {
		case "=", "+=", "-=", "*=", "/=", "%=", "^=":
			p.advance()
			p.optNewlines()
			return &aAssign{op: op, lv: left, rv: p.expr()}
		}
	}
	return left
}

func (p *awkParser) ternary() awkExpr {
	c := p.or()
	if !p.is("?") {
		return c
	}
	p.advance()
	p.optNewlines()
	a := p.expr()
	p.optNewlines()
	p.expect(":")
	p.optNewlines()
	b := p.expr()
	return &aCond{c: c, a: a, b: b}
}

func (p *awkParser) or() awkExpr {
	l := p.and()
	for p.is("||") {
		p.advance()
		p.optNewlines()
		l = &aBinary{op: "||", l: l, r: p.and()}
	}
	return l
}

func (p *awkParser) and() awkExpr {
	l := p.in()
	for p.is("&&") {
		p.advance()
		p.optNewlines()
		l = &aBinary{op: "&&", l: l, r: p.in()}
	}
	return l
}

func (p *awkParser) in() awkExpr {
	l := p.match()
	for p.is("in") && !p.noIn {
		p.advance()
		if p.tok.kind != atName {
			p.fail("syntax error")
		}
		keys := []awkExpr{l}
		if g, ok := l.(*aGroup); ok {
			keys = []awkExpr{g.e}
		}
		l = &aIn{keys: keys, arr: p.variable(p.tok.text)}
		p.advance()
	}
	return l
}

func (p *awkParser) match() awkExpr {
	l := p.comparison()
	for p.is("~") || p.is("!~") {
		neg := p.tok.text == "!~"
		p.advance()
		l = &aMatch{neg: neg, l: l, r: p.comparison()}
	}
	return l
}

func (p *awkParser) comparison() awkExpr {
	l := p.concat()
	for {
		switch {
		case p.is("|"):
			st := p.save()
			p.advance()
			if !p.is("getline") {
				p.restore(st)
				return l
			}
			p.advance()
			l = &aGetline{from: "|", src: l, lv: p.optLvalue()}
			continue
		case p.is("<"), p.is("<="), p.is("!="), p.is("=="), p.is(">="), p.is(">") && !p.inPrint:
			op := p.tok.text
			p.advance()
			l = &aBinary{op: op, l: l, r: p.concat()}
			// Comparisons do not chain (a < b < c is a syntax error in gawk
			// only for some forms); reading left to right is what awk does.
			continue
		}
		return l
	}
}

// startsOperand reports whether the token can begin a concatenated operand.
func (p *awkParser) startsOperand() bool {
	switch p.tok.kind {
	case atNumber, atString, atRegex, atName, atFuncName, atBuiltin:
		return true
	case atPunct:
		switch p.tok.text {
		case "$", "(", "!", "-", "+", "++", "--":
			return p.tok.text != "!" && p.tok.text != "-" && p.tok.text != "+"
		}
	case atKeyword:
		return p.tok.text == "getline"
	}
	return false
}

func (p *awkParser) concat() awkExpr {
	l := p.additive()
	for p.startsOperand() && !(p.noIn && p.is("in")) {
		l = &aBinary{op: " ", l: l, r: p.additive()}
	}
	return l
}

func (p *awkParser) additive() awkExpr {
	l := p.multiplicative()
	for p.is("+") || p.is("-") {
		op := p.tok.text
		p.advance()
		l = &aBinary{op: op, l: l, r: p.multiplicative()}
	}
	return l
}

func (p *awkParser) multiplicative() awkExpr {
	l := p.unary()
	for p.is("*") || p.is("/") || p.is("%") {
		op := p.tok.text
		p.advance()
		r := p.unary()
		if n, ok := r.(*aNum); ok && n.v == 0 && op != "*" {
			if _, lok := l.(*aNum); lok {
				panic(&awkSyntaxError{msg: "error: division by zero attempted", line: p.tok.line})
			}
		}
		l = &aBinary{op: op, l: l, r: r}
	}
	return l
}

func (p *awkParser) unary() awkExpr {
	p.enter()
	defer p.leave()
	if p.is("!") || p.is("-") || p.is("+") {
		op := p.tok.text
		p.advance()
		return &aUnary{op: op, e: p.unary()}
	}
	return p.power()
}

func (p *awkParser) power() awkExpr {
	l := p.postfix()
	if p.is("^") {
		p.advance()
		return &aBinary{op: "^", l: l, r: p.powerRHS()}
	}
	return l
}

func (p *awkParser) powerRHS() awkExpr {
	p.enter()
	defer p.leave()
	if p.is("-") || p.is("+") || p.is("!") {
		op := p.tok.text
		p.advance()
		return &aUnary{op: op, e: p.powerRHS()}
	}
	return p.power()
}

func (p *awkParser) postfix() awkExpr {
	if p.is("++") || p.is("--") {
		op := p.tok.text
		p.advance()
		lv := p.postfixOperand()
		if !isLvalue(lv) {
			p.fail("syntax error")
		}
		return &aIncDec{pre: true, op: op, lv: lv}
	}
	e := p.primary()
	if isLvalue(e) && (p.is("++") || p.is("--")) {
		op := p.tok.text
		p.advance()
		return &aIncDec{op: op, lv: e}
	}
	return e
}

func (p *awkParser) postfixOperand() awkExpr {
	if p.is("$") {
		return p.primary()
	}
	if p.tok.kind != atName {
		p.fail("syntax error")
	}
	return p.primary()
}

// optLvalue parses getline's optional target variable.
func (p *awkParser) optLvalue() awkExpr {
	if p.tok.kind == atName || p.is("$") {
		return p.primary()
	}
	return nil
}

func (p *awkParser) primary() awkExpr {
	p.enter()
	defer p.leave()
	t := p.tok
	switch t.kind {
	case atNumber:
		p.advance()
		return &aNum{v: t.num}
	case atString:
		p.advance()
		return &aStr{s: t.text}
	case atRegex:
		p.advance()
		return &aRegex{re: t.text}
	case atName:
		p.advance()
		v := p.variable(t.text)
		if p.is("[") {
			p.advance()
			keys := p.exprList("]")
			if len(keys) == 0 {
				p.fail("syntax error")
			}
			p.expect("]")
			return &aIndex{arr: v, keys: keys}
		}
		return v
	case atFuncName:
		p.advance()
		p.expect("(")
		p.optNewlines()
		args := p.exprList(")")
		p.optNewlines()
		p.expect(")")
		c := &aCall{name: t.text, args: args, line: t.line}
		p.prog.calls = append(p.prog.calls, c)
		return c
	case atBuiltin:
		p.advance()
		b := &aBuiltin{name: t.text}
		if p.is("(") {
			p.advance()
			p.optNewlines()
			b.args = p.exprList(")")
			p.optNewlines()
			p.expect(")")
		} else if t.text != "length" {
			p.fail("syntax error")
		}
		p.checkBuiltin(b, t)
		return b
	case atKeyword:
		if t.text == "getline" {
			p.advance()
			g := &aGetline{lv: p.optLvalue()}
			if p.is("<") {
				p.advance()
				g.from = "<"
				g.src = p.postfix()
			}
			return g
		}
	case atPunct:
		switch t.text {
		case "$":
			p.advance()
			var e awkExpr
			switch {
			case p.is("++") || p.is("--"):
				e = p.postfix()
			case p.is("-") || p.is("+") || p.is("!"):
				op := p.tok.text
				p.advance()
				e = &aUnary{op: op, e: p.primary()}
			default:
				e = p.primary()
			}
			return &aField{e: e}
		case "(":
			p.advance()
			p.optNewlines()
			saved, savedIn := p.inPrint, p.noIn
			p.inPrint, p.noIn = false, false
			list := p.exprList(")")
			p.inPrint, p.noIn = saved, savedIn
			p.optNewlines()
			p.expect(")")
			if len(list) == 0 {
				p.fail("syntax error")
			}
			if len(list) > 1 {
				if !p.is("in") {
					p.fail("syntax error")
				}
				p.advance()
				if p.tok.kind != atName {
					p.fail("syntax error")
				}
				in := &aIn{keys: list, arr: p.variable(p.tok.text)}
				p.advance()
				return in
			}
			return &aGroup{e: list[0]}
		}
	}
	p.fail("syntax error")
	return nil
}

// checkBuiltin rejects wrong argument counts at parse time, as gawk does.
func (p *awkParser) checkBuiltin(b *aBuiltin, t awkToken) {
	n := len(b.args)
	lo, hi := 0, 0
	switch b.name {
	case "length":
		lo, hi = 0, 1
	case "substr":
		lo, hi = 2, 3
	case "index", "atan2":
		lo, hi = 2, 2
	case "split":
		lo, hi = 2, 4
	case "sub", "gsub":
		lo, hi = 2, 3
	case "match":
		lo, hi = 2, 3
	case "sprintf":
		lo, hi = 1, 1<<30
	case "toupper", "tolower", "int", "sqrt", "exp", "log", "sin", "cos", "system":
		lo, hi = 1, 1
	case "close":
		lo, hi = 1, 2
	case "rand", "systime":
		lo, hi = 0, 0
	case "srand", "fflush":
		lo, hi = 0, 1
	case "gensub":
		lo, hi = 3, 4
	case "strftime":
		lo, hi = 0, 3
	}
	if n < lo || n > hi {
		panic(&awkSyntaxError{msg: fmt.Sprintf("%d is invalid as number of arguments for %s", n, b.name), line: t.line, col: t.col, src: p.lx.lineText(t.pos - t.col), show: true})
	}
	switch b.name {
	case "split":
		if _, ok := b.args[1].(*aVar); !ok {
			p.fail("split: second argument is not an array")
		}
	case "sub", "gsub":
		if n == 3 && !isLvalue(b.args[2]) {
			panic(&awkSyntaxError{msg: b.name + " third parameter is not a changeable object", line: t.line})
		}
	}
}
