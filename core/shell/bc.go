package shell

import (
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// bc, as GNU bc 1.07: arbitrary precision with scale, ibase and obase,
// variables and arrays, define/auto/return, if/while/for, print and
// strings, and with -l the math library (s c a l e j and scale 20).
// Numbers are printed as bc does, lines broken with a backslash at 70
// columns. Each statement runs as soon as it is read.

type bcTok struct {
	kind byte // 'n' number, 'i' name, 's' string, 'o' operator, '\n', 0 EOF
	text string
	line int
}

type bcLexer struct {
	src  string
	i    int
	line int
}

func (lx *bcLexer) next() bcTok {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.i++
		case c == '\\' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '\n':
			lx.i += 2
			lx.line++
		case c == '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
		case c == '/' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '*':
			end := strings.Index(lx.src[lx.i+2:], "*/")
			if end < 0 {
				lx.line += strings.Count(lx.src[lx.i:], "\n")
				lx.i = len(lx.src)
				return bcTok{kind: 'E', text: "comment", line: lx.line}
			}
			lx.line += strings.Count(lx.src[lx.i:lx.i+2+end], "\n")
			lx.i += end + 4
		default:
			goto token
		}
	}
	return bcTok{line: lx.line}
token:
	c := lx.src[lx.i]
	start := lx.i
	switch {
	case c == '\n':
		lx.i++
		lx.line++
		return bcTok{kind: '\n', line: lx.line}
	case c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c == '.' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] >= '0' && lx.src[lx.i+1] <= '9':
		dot := false
		for lx.i < len(lx.src) {
			d := lx.src[lx.i]
			if d >= '0' && d <= '9' || d >= 'A' && d <= 'F' || d == '.' && !dot {
				dot = dot || d == '.'
				lx.i++
				continue
			}
			if d == '\\' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '\n' {
				lx.i += 2
				lx.line++
				continue
			}
			break
		}
		return bcTok{kind: 'n', text: strings.ReplaceAll(lx.src[start:lx.i], "\\\n", ""), line: lx.line}
	case c == '.':
		lx.i++
		return bcTok{kind: 'i', text: "last", line: lx.line}
	case c >= 'a' && c <= 'z' || c == '_':
		for lx.i < len(lx.src) && (lx.src[lx.i] >= 'a' && lx.src[lx.i] <= 'z' || lx.src[lx.i] == '_' || lx.src[lx.i] >= '0' && lx.src[lx.i] <= '9') {
			lx.i++
		}
		return bcTok{kind: 'i', text: lx.src[start:lx.i], line: lx.line}
	case c == '"':
		end := strings.IndexByte(lx.src[lx.i+1:], '"')
		if end < 0 {
			lx.line += strings.Count(lx.src[lx.i:], "\n")
			lx.i = len(lx.src)
			return bcTok{kind: 'E', text: "string", line: lx.line}
		}
		s := lx.src[lx.i+1 : lx.i+1+end]
		lx.line += strings.Count(s, "\n")
		lx.i += end + 2
		return bcTok{kind: 's', text: s, line: lx.line}
	}
	for _, op := range []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||"} {
		if strings.HasPrefix(lx.src[lx.i:], op) {
			lx.i += 2
			return bcTok{kind: 'o', text: op, line: lx.line}
		}
	}
	lx.i++
	if strings.IndexByte("+-*/%^=<>!(){}[],;", c) >= 0 {
		return bcTok{kind: 'o', text: string(c), line: lx.line}
	}
	return bcTok{kind: 'E', text: string(c), line: lx.line}
}

// AST.

type bcExpr interface{}

type (
	bcLit  struct{ text string }
	bcVar  struct{ name string }
	bcElem struct {
		name string
		idx  bcExpr
	}
	bcAssign struct {
		op     string
		lv, rv bcExpr
	}
	bcBin struct {
		op   string
		l, r bcExpr
	}
	bcNeg    struct{ e bcExpr }
	bcNot    struct{ e bcExpr }
	bcIncDec struct {
		op  string
		pre bool
		lv  bcExpr
	}
	bcCall struct {
		name string
		args []bcExpr
	}
	bcParen struct{ e bcExpr }
)

type bcStmt interface{}

type (
	bcExprStmt struct{ e bcExpr }
	bcStr      struct{ s string }
	bcPrint    struct{ items []bcExpr } // bcStr or expressions
	bcBlock    struct{ body []bcStmt }
	bcIf       struct {
		cond      bcExpr
		then, els bcStmt
	}
	bcWhile struct {
		init, cond, post bcExpr
		body             bcStmt
	}
	bcJump   struct{ what string } // break, continue, halt
	bcReturn struct{ e bcExpr }
)

type bcFunc struct {
	name   string
	params []string // "a" or "a[]"
	autos  []string
	body   []bcStmt
}

type bcSyntax struct{ line int }

type bcQuit struct{}

type bcParser struct {
	lx  bcLexer
	tok bcTok
	in  *bcInterp
}

func (p *bcParser) advance() { p.tok = p.lx.next() }

func (p *bcParser) fail() { panic(&bcSyntax{line: p.tok.line}) }

func (p *bcParser) is(s string) bool { return p.tok.kind == 'o' && p.tok.text == s }

func (p *bcParser) isWord(s string) bool { return p.tok.kind == 'i' && p.tok.text == s }

func (p *bcParser) expect(s string) {
	if !p.is(s) {
		p.fail()
	}
	p.advance()
}

func (p *bcParser) skipNewlines() {
	for p.tok.kind == '\n' {
		p.advance()
	}
}

var bcKeywords = map[string]bool{"define": true, "auto": true, "return": true, "if": true, "else": true,
	"while": true, "for": true, "break": true, "continue": true, "quit": true, "halt": true, "print": true,
	"length": true, "sqrt": true, "read": true, "limits": true, "warranty": true}

// statement parses one statement; nil for an empty one.
func (p *bcParser) statement() bcStmt {
	switch {
	case p.tok.kind == 's':
		s := p.tok.text
		p.advance()
		return bcStr{s: s}
	case p.is("{"):
		p.advance()
		var body []bcStmt
		for {
			for p.tok.kind == '\n' || p.is(";") {
				p.advance()
			}
			if p.is("}") {
				p.advance()
				return bcBlock{body: body}
			}
			if p.tok.kind == 0 {
				p.fail()
			}
			if s := p.statement(); s != nil {
				body = append(body, s)
			}
		}
	case p.tok.kind == 'i':
		switch p.tok.text {
		case "quit":
			panic(bcQuit{})
		case "halt", "break", "continue":
			w := p.tok.text
			p.advance()
			return bcJump{what: w}
		case "limits", "warranty":
			p.advance()
			return nil
		case "return":
			p.advance()
			if p.is("(") {
				p.advance()
				if p.is(")") {
					p.advance()
					return bcReturn{}
				}
				e := p.expr()
				p.expect(")")
				return bcReturn{e: e}
			}
			if p.tok.kind == '\n' || p.is(";") || p.is("}") || p.tok.kind == 0 {
				return bcReturn{}
			}
			return bcReturn{e: p.expr()}
		case "print":
			p.advance()
			var items []bcExpr
			for {
				if p.tok.kind == 's' {
					items = append(items, bcStr{s: p.tok.text})
					p.advance()
				} else {
					items = append(items, p.expr())
				}
				if !p.is(",") {
					return bcPrint{items: items}
				}
				p.advance()
			}
		case "if":
			p.advance()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.skipNewlines()
			s := bcIf{cond: c, then: p.statement()}
			save, saveTok := p.lx, p.tok
			p.skipNewlines()
			if p.isWord("else") {
				p.advance()
				p.skipNewlines()
				s.els = p.statement()
			} else {
				p.lx, p.tok = save, saveTok
			}
			return s
		case "while":
			p.advance()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.skipNewlines()
			return bcWhile{cond: c, body: p.statement()}
		case "for":
			p.advance()
			p.expect("(")
			var w bcWhile
			if !p.is(";") {
				w.init = p.expr()
			}
			p.expect(";")
			if !p.is(";") {
				w.cond = p.expr()
			}
			p.expect(";")
			if !p.is(")") {
				w.post = p.expr()
			}
			p.expect(")")
			p.skipNewlines()
			w.body = p.statement()
			return w
		case "define":
			p.define()
			return nil
		}
	case p.tok.kind == '\n' || p.is(";"):
		return nil
	}
	return bcExprStmt{e: p.expr()}
}

func (p *bcParser) define() {
	p.advance()
	if p.tok.kind != 'i' || bcKeywords[p.tok.text] {
		p.fail()
	}
	f := &bcFunc{name: p.tok.text}
	p.advance()
	p.expect("(")
	for !p.is(")") {
		if p.is("*") {
			p.advance()
		}
		if p.tok.kind != 'i' {
			p.fail()
		}
		name := p.tok.text
		p.advance()
		if p.is("[") {
			p.advance()
			p.expect("]")
			name += "[]"
		}
		f.params = append(f.params, name)
		if p.is(",") {
			p.advance()
		} else if !p.is(")") {
			p.fail()
		}
	}
	p.advance()
	p.skipNewlines()
	p.expect("{")
	for p.tok.kind == '\n' {
		p.advance()
	}
	if p.isWord("auto") {
		p.advance()
		for {
			if p.tok.kind != 'i' {
				p.fail()
			}
			name := p.tok.text
			p.advance()
			if p.is("[") {
				p.advance()
				p.expect("]")
				name += "[]"
			}
			f.autos = append(f.autos, name)
			if !p.is(",") {
				break
			}
			p.advance()
		}
	}
	for {
		for p.tok.kind == '\n' || p.is(";") {
			p.advance()
		}
		if p.is("}") {
			p.advance()
			break
		}
		if p.tok.kind == 0 {
			p.fail()
		}
		if s := p.statement(); s != nil {
			f.body = append(f.body, s)
		}
	}
	p.in.funcs[f.name] = f
}

// Expressions, lowest precedence first: || && ! relational assignment
// + - * / % ^ unary minus ++ --.
func (p *bcParser) expr() bcExpr {
	l := p.and()
	for p.is("||") {
		p.advance()
		l = &bcBin{op: "||", l: l, r: p.and()}
	}
	return l
}

func (p *bcParser) and() bcExpr {
	l := p.not()
	for p.is("&&") {
		p.advance()
		l = &bcBin{op: "&&", l: l, r: p.not()}
	}
	return l
}

func (p *bcParser) not() bcExpr {
	if p.is("!") {
		p.advance()
		return &bcNot{e: p.not()}
	}
	return p.rel()
}

func (p *bcParser) rel() bcExpr {
	l := p.assign()
	for p.tok.kind == 'o' {
		switch op := p.tok.text; op {
		case "<", "<=", ">", ">=", "==", "!=":
			p.advance()
			l = &bcBin{op: op, l: l, r: p.assign()}
			continue
		}
		break
	}
	return l
}

func (p *bcParser) assign() bcExpr {
	l := p.additive()
	if p.tok.kind == 'o' {
		switch op := p.tok.text; op {
		case "=", "+=", "-=", "*=", "/=", "%=", "^=":
			switch l.(type) {
			case *bcVar, *bcElem:
			default:
				p.fail()
			}
			p.advance()
			return &bcAssign{op: op, lv: l, rv: p.assign()}
		}
	}
	return l
}

func (p *bcParser) additive() bcExpr {
	l := p.multiplicative()
	for p.is("+") || p.is("-") {
		op := p.tok.text
		p.advance()
		l = &bcBin{op: op, l: l, r: p.multiplicative()}
	}
	return l
}

func (p *bcParser) multiplicative() bcExpr {
	l := p.power()
	for p.is("*") || p.is("/") || p.is("%") {
		op := p.tok.text
		p.advance()
		l = &bcBin{op: op, l: l, r: p.power()}
	}
	return l
}

func (p *bcParser) power() bcExpr {
	l := p.unary()
	if p.is("^") {
		p.advance()
		return &bcBin{op: "^", l: l, r: p.power()}
	}
	return l
}

func (p *bcParser) unary() bcExpr {
	if p.is("-") {
		p.advance()
		return &bcNeg{e: p.unary()}
	}
	if p.is("++") || p.is("--") {
		op := p.tok.text
		p.advance()
		lv := p.primary()
		switch lv.(type) {
		case *bcVar, *bcElem:
		default:
			p.fail()
		}
		return &bcIncDec{op: op, pre: true, lv: lv}
	}
	e := p.primary()
	if p.is("++") || p.is("--") {
		switch e.(type) {
		case *bcVar, *bcElem:
			op := p.tok.text
			p.advance()
			return &bcIncDec{op: op, lv: e}
		}
	}
	return e
}

func (p *bcParser) primary() bcExpr {
	t := p.tok
	switch t.kind {
	case 'n':
		p.advance()
		return &bcLit{text: t.text}
	case 'o':
		if t.text == "(" {
			p.advance()
			e := p.expr()
			p.expect(")")
			return &bcParen{e: e}
		}
	case 'i':
		if bcKeywords[t.text] && t.text != "length" && t.text != "sqrt" && t.text != "read" {
			p.fail()
		}
		p.advance()
		if p.is("(") {
			p.advance()
			var args []bcExpr
			for !p.is(")") {
				if p.tok.kind == 'i' {
					// An array argument: name[]
					save, saveTok := p.lx, p.tok
					name := p.tok.text
					p.advance()
					if p.is("[") {
						p.advance()
						if p.is("]") {
							p.advance()
							args = append(args, &bcVar{name: name + "[]"})
							goto sep
						}
					}
					p.lx, p.tok = save, saveTok
				}
				args = append(args, p.expr())
			sep:
				if p.is(",") {
					p.advance()
				} else if !p.is(")") {
					p.fail()
				}
			}
			p.advance()
			return &bcCall{name: t.text, args: args}
		}
		if p.is("[") {
			p.advance()
			idx := p.expr()
			p.expect("]")
			return &bcElem{name: t.text, idx: idx}
		}
		if t.text == "length" || t.text == "sqrt" || t.text == "read" {
			p.fail()
		}
		return &bcVar{name: t.text}
	}
	p.fail()
	return nil
}

// Interpreter.

type bcInterp struct {
	ctx    *Context
	out    strings.Builder
	vars   map[string]bcNum
	arrays map[string]map[int64]bcNum
	funcs  map[string]*bcFunc
	scale  int
	ibase  int
	obase  int
	last   bcNum
	fname  string
	adr    int
	steps  int
	// maxSteps bounds statements and loop iterations (5 million at the
	// shell's default budget).
	maxSteps int
	depth    int
	lineLn   int
	col      int
	lib      bool // -l: the math library is loaded
}

type bcRuntime struct{ msg string }

type bcFlow int

const (
	bcNormal bcFlow = iota
	bcBreak
	bcContinue
	bcReturnFlow
	bcHalt
)

const bcMaxDigits = 100000

func (in *bcInterp) fail(msg string) { panic(&bcRuntime{msg: msg}) }

func bcCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "lqswv", long: map[string]longOpt{
		"mathlib": {short: "l"}, "quiet": {short: "q"}, "standard": {short: "s"}, "warn": {short: "w"}, "version": {short: "v"},
	}})
	if !ok {
		return 1
	}
	in := &bcInterp{ctx: ctx, maxSteps: ctx.toolSteps(25), vars: map[string]bcNum{}, arrays: map[string]map[int64]bcNum{},
		funcs: map[string]*bcFunc{}, ibase: 10, obase: 10, last: bcInt(0), fname: "(main)", lineLn: 70}
	if v, ok := ctx.LookupEnv("BC_LINE_LENGTH"); ok {
		if n, err := strconv.Atoi(v); err == nil && (n == 0 || n > 1) {
			in.lineLn = n
		}
	}
	for _, o := range opts {
		switch o.name {
		case "l":
			in.scale, in.lib = 20, true
		case "v":
			io.WriteString(ctx.Stdout, "bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n")
			return 0
		}
	}
	code := 0
	for _, f := range files {
		data, err := ctx.ReadFile(f)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "File %s is unavailable.\n", f)
			return 1
		}
		if in.run(string(data), f) {
			return code
		}
	}
	data, _ := io.ReadAll(ctx.Stdin)
	in.run(string(data), "(standard_in)")
	return code
}

// run reads and runs statements; it reports whether quit or halt ended bc.
func (in *bcInterp) run(src, name string) (stop bool) {
	p := &bcParser{lx: bcLexer{src: src, line: 1}, in: in}
	defer func() {
		io.WriteString(in.ctx.Stdout, in.out.String())
		in.out.Reset()
	}()
	p.advance()
	for {
		if p.tok.kind == 0 {
			return false
		}
		st, quit := in.parseOne(p, name)
		if quit {
			return true
		}
		if st == nil {
			continue
		}
		if in.exec1(st) == bcHalt {
			return true
		}
		if in.out.Len() > 1<<16 {
			io.WriteString(in.ctx.Stdout, in.out.String())
			in.out.Reset()
		}
	}
}

// parseOne parses the next statement, reporting a syntax error and
// skipping to the next line.
func (in *bcInterp) parseOne(p *bcParser, name string) (st bcStmt, quit bool) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case bcQuit:
				quit = true
			case *bcSyntax:
				io.WriteString(in.ctx.Stdout, in.out.String())
				in.out.Reset()
				fmt.Fprintf(in.ctx.Stderr, "%s %d: syntax error\n", name, e.line)
				for p.tok.kind != '\n' && p.tok.kind != 0 {
					p.advance()
				}
				st = nil
			default:
				panic(r)
			}
		}
	}()
	if p.tok.kind == 'E' {
		p.fail()
	}
	st = p.statement()
	switch {
	case p.tok.kind == '\n' || p.is(";"):
		p.advance()
	case p.tok.kind == 0:
	default:
		p.fail()
	}
	return st, false
}

func (in *bcInterp) exec1(st bcStmt) (flow bcFlow) {
	in.adr = 0
	in.fname = "(main)"
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*bcRuntime)
			if !ok {
				panic(r)
			}
			io.WriteString(in.ctx.Stdout, in.out.String())
			in.out.Reset()
			in.col = 0
			fmt.Fprintf(in.ctx.Stderr, "Runtime error (func=%s, adr=%d): %s\n", in.fname, in.adr, e.msg)
			flow = bcNormal
		}
	}()
	return in.exec(st)
}

func (in *bcInterp) exec(st bcStmt) bcFlow {
	in.steps++
	if in.steps > in.maxSteps {
		in.fail("too many steps: program stopped")
	}
	switch s := st.(type) {
	case nil:
	case bcStr:
		in.printString(s.s)
	case bcExprStmt:
		v := in.eval(s.e)
		if _, isAssign := s.e.(*bcAssign); !isAssign {
			in.printNum(v)
			in.out.WriteByte('\n')
			in.col = 0
			in.last = v
		}
	case bcPrint:
		for _, it := range s.items {
			if str, ok := it.(bcStr); ok {
				in.printString(unbackslashBC(str.s))
				continue
			}
			v := in.eval(it)
			in.printNum(v)
			in.last = v
		}
	case bcBlock:
		for _, b := range s.body {
			if f := in.exec(b); f != bcNormal {
				return f
			}
		}
	case bcIf:
		if !in.eval(s.cond).isZero() {
			return in.exec(s.then)
		} else if s.els != nil {
			return in.exec(s.els)
		}
	case bcWhile:
		if s.init != nil {
			in.eval(s.init)
		}
		for s.cond == nil || !in.eval(s.cond).isZero() {
			in.steps++
			if in.steps > in.maxSteps {
				in.fail("too many steps: program stopped")
			}
			f := in.exec(s.body)
			if f == bcBreak {
				break
			}
			if f == bcReturnFlow || f == bcHalt {
				return f
			}
			if s.post != nil {
				in.eval(s.post)
			}
		}
	case bcJump:
		switch s.what {
		case "break":
			return bcBreak
		case "continue":
			return bcContinue
		}
		return bcHalt
	case bcReturn:
		if s.e != nil {
			in.last = in.eval(s.e)
		} else {
			in.last = bcInt(0)
		}
		return bcReturnFlow
	}
	return bcNormal
}

// unbackslashBC handles print's escapes: \n \t \a \b \f \r \q (") \\.
func unbackslashBC(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'q':
				b.WriteByte('"')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func (in *bcInterp) printString(s string) {
	in.out.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		in.col = len(s) - i - 1
	} else {
		in.col += len(s)
	}
}

// printNum writes a number, breaking lines with a backslash before the
// line length, as bc does.
func (in *bcInterp) printNum(v bcNum) {
	s := v.format(in.obase)
	for i := 0; i < len(s); i++ {
		if in.lineLn > 0 && in.col >= in.lineLn-2 {
			in.out.WriteString("\\\n")
			in.col = 0
		}
		in.out.WriteByte(s[i])
		in.col++
	}
}

func (in *bcInterp) lit(text string) bcNum {
	if in.ibase == 10 || len(text) == 1 && text[0] >= 'A' {
		if len(text) == 1 && text[0] >= 'A' && text[0] <= 'F' {
			return bcInt(int64(text[0]-'A') + 10)
		}
		if !strings.ContainsAny(text, "ABCDEF") {
			ip, fp, _ := strings.Cut(text, ".")
			v, _ := new(big.Int).SetString("0"+ip+fp, 10)
			return bcNum{v: v, scale: len(fp)}
		}
	}
	digit := func(c byte) int64 {
		if c >= 'A' {
			return int64(c-'A') + 10
		}
		return int64(c - '0')
	}
	ip, fp, _ := strings.Cut(text, ".")
	base := big.NewInt(int64(in.ibase))
	v := new(big.Int)
	for i := 0; i < len(ip); i++ {
		v.Mul(v, base)
		v.Add(v, big.NewInt(digit(ip[i])))
	}
	n := bcNum{v: v}
	if fp != "" {
		num, den := new(big.Int), big.NewInt(1)
		for i := 0; i < len(fp); i++ {
			num.Mul(num, base)
			num.Add(num, big.NewInt(digit(fp[i])))
			den.Mul(den, base)
		}
		frac := bcDiv(bcNum{v: num}, bcNum{v: den}, len(fp))
		n = bcAdd(n, frac, false)
	}
	return n
}

func (in *bcInterp) get(name string) bcNum {
	switch name {
	case "scale":
		return bcInt(int64(in.scale))
	case "ibase":
		return bcInt(int64(in.ibase))
	case "obase":
		return bcInt(int64(in.obase))
	case "last":
		return in.last
	}
	if v, ok := in.vars[name]; ok {
		return v
	}
	return bcInt(0)
}

func (in *bcInterp) set(name string, v bcNum) {
	switch name {
	case "scale", "ibase", "obase":
		n := v.rescale(0).v
		if !n.IsInt64() || n.Int64() > 1<<31-1 {
			in.fail(name + " too large")
		}
		x := int(n.Int64())
		switch name {
		case "scale":
			if x < 0 {
				in.fail("negative scale")
			}
			in.scale = min(x, bcMaxDigits)
		case "ibase":
			in.ibase = min(max(x, 2), 16)
		case "obase":
			if x < 2 {
				in.fail("Invalid output base")
			}
			in.obase = min(x, 1<<16)
		}
		return
	case "last":
		in.last = v
		return
	}
	in.vars[name] = v
}

func (in *bcInterp) index(e bcExpr) int64 {
	v := in.eval(e).rescale(0).v
	if v.Sign() < 0 || !v.IsInt64() || v.Int64() > 16777215 {
		in.fail("Array index out of range")
	}
	return v.Int64()
}

func (in *bcInterp) load(lv bcExpr) bcNum {
	switch lv := lv.(type) {
	case *bcVar:
		return in.get(lv.name)
	case *bcElem:
		i := in.index(lv.idx)
		if v, ok := in.arrays[lv.name][i]; ok {
			return v
		}
		return bcInt(0)
	}
	return bcInt(0)
}

func (in *bcInterp) store(lv bcExpr, v bcNum) {
	switch lv := lv.(type) {
	case *bcVar:
		in.set(lv.name, v)
	case *bcElem:
		i := in.index(lv.idx)
		a := in.arrays[lv.name]
		if a == nil {
			a = map[int64]bcNum{}
			in.arrays[lv.name] = a
		}
		a[i] = v
	}
}

func (in *bcInterp) check(v bcNum) bcNum {
	if v.scale > bcMaxDigits || len(v.v.Bits()) > bcMaxDigits/19 {
		in.fail("number too large")
	}
	return v
}

func (in *bcInterp) eval(e bcExpr) bcNum {
	in.adr++
	switch e := e.(type) {
	case *bcLit:
		return in.lit(e.text)
	case *bcParen:
		return in.eval(e.e)
	case *bcVar, *bcElem:
		return in.load(e)
	case *bcNeg:
		v := in.eval(e.e)
		return bcNum{v: new(big.Int).Neg(v.v), scale: v.scale}
	case *bcNot:
		return bcBool(in.eval(e.e).isZero())
	case *bcAssign:
		var v bcNum
		if e.op == "=" {
			v = in.eval(e.rv)
		} else {
			v = in.arith(e.op[:1], in.load(e.lv), in.eval(e.rv))
		}
		in.store(e.lv, v)
		return v
	case *bcIncDec:
		old := in.load(e.lv)
		nv := bcAdd(old, bcInt(1), e.op == "--")
		in.store(e.lv, nv)
		if e.pre {
			return nv
		}
		return old
	case *bcBin:
		switch e.op {
		case "&&":
			return bcBool(!in.eval(e.l).isZero() && !in.eval(e.r).isZero())
		case "||":
			return bcBool(!in.eval(e.l).isZero() || !in.eval(e.r).isZero())
		}
		l, r := in.eval(e.l), in.eval(e.r)
		switch e.op {
		case "<":
			return bcBool(bcCmp(l, r) < 0)
		case "<=":
			return bcBool(bcCmp(l, r) <= 0)
		case ">":
			return bcBool(bcCmp(l, r) > 0)
		case ">=":
			return bcBool(bcCmp(l, r) >= 0)
		case "==":
			return bcBool(bcCmp(l, r) == 0)
		case "!=":
			return bcBool(bcCmp(l, r) != 0)
		}
		return in.arith(e.op, l, r)
	case *bcCall:
		return in.call(e)
	}
	return bcInt(0)
}

func bcBool(b bool) bcNum {
	if b {
		return bcInt(1)
	}
	return bcInt(0)
}

func (in *bcInterp) arith(op string, a, b bcNum) bcNum {
	switch op {
	case "+":
		return bcAdd(a, b, false)
	case "-":
		return bcAdd(a, b, true)
	case "*":
		return in.check(bcMul(a, b, in.scale))
	case "/":
		if b.isZero() {
			in.fail("Divide by zero")
		}
		return bcDiv(a, b, in.scale)
	case "%":
		if b.isZero() {
			in.fail("Modulo by zero")
		}
		return bcMod(a, b, in.scale)
	case "^":
		if b.scale > 0 && b.rescale(0).rescale(b.scale).v.Cmp(b.v) != 0 {
			fmt.Fprintf(in.ctx.Stderr, "Runtime warning (func=%s, adr=%d): non zero scale in exponent\n", in.fname, in.adr)
		}
		ex := b.rescale(0).v
		if !ex.IsInt64() {
			in.fail("exponent too large in raise")
		}
		n := ex.Int64()
		neg := n < 0
		if neg {
			n = -n
		}
		if n == 0 {
			return bcInt(1)
		}
		digits := int64(len(new(big.Int).Abs(a.v).String()))
		if digits*n > bcMaxDigits && !(a.v.CmpAbs(big.NewInt(1)) == 0 && a.scale == 0) {
			in.fail("exponent too large in raise")
		}
		p := bcNum{v: new(big.Int).Exp(a.v, big.NewInt(n), nil), scale: a.scale * int(n)}
		if neg {
			if p.isZero() {
				in.fail("Divide by zero")
			}
			return bcDiv(bcInt(1), p, in.scale)
		}
		return p.rescale(min(a.scale*int(n), max(in.scale, a.scale)))
	}
	return bcInt(0)
}

func (in *bcInterp) call(c *bcCall) bcNum {
	arg := func(i int) bcNum {
		if i >= len(c.args) {
			in.fail("Parameter number mismatch")
		}
		return in.eval(c.args[i])
	}
	switch c.name {
	case "length":
		v := arg(0)
		if v.isZero() {
			return bcInt(1)
		}
		digits := new(big.Int).Abs(v.v).String()
		return bcInt(int64(max(len(digits), v.scale)))
	case "scale":
		return bcInt(int64(arg(0).scale))
	case "sqrt":
		v := arg(0)
		if v.v.Sign() < 0 {
			in.fail("Square root of a negative number")
		}
		return bcSqrt(v, in.scale)
	case "read":
		return bcInt(0)
	}
	f := in.funcs[c.name]
	if f == nil {
		if v, ok := in.mathlib(c); ok {
			return v
		}
		in.fail("Function " + c.name + " not defined.")
	}
	if len(c.args) != len(f.params) {
		in.fail("Parameter number mismatch")
	}
	if in.depth > 1000 {
		in.fail("function call nesting too deep")
	}
	// bc scopes parameters and autos dynamically: save, bind, restore.
	type saved struct {
		name  string
		v     bcNum
		had   bool
		arr   map[int64]bcNum
		isArr bool
	}
	var save []saved
	bind := func(name string, v bcNum, arr map[int64]bcNum) {
		if base, ok := strings.CutSuffix(name, "[]"); ok {
			save = append(save, saved{name: base, arr: in.arrays[base], isArr: true})
			in.arrays[base] = arr
			return
		}
		old, had := in.vars[name]
		save = append(save, saved{name: name, v: old, had: had})
		in.vars[name] = v
	}
	vals := make([]bcNum, len(c.args))
	arrs := make([]map[int64]bcNum, len(c.args))
	for i, a := range c.args {
		if strings.HasSuffix(f.params[i], "[]") {
			v, ok := a.(*bcVar)
			if !ok || !strings.HasSuffix(v.name, "[]") {
				in.fail("Parameter number mismatch")
			}
			cp := map[int64]bcNum{}
			for k, x := range in.arrays[strings.TrimSuffix(v.name, "[]")] {
				cp[k] = x
			}
			arrs[i] = cp
			continue
		}
		vals[i] = in.eval(a)
	}
	for i, p := range f.params {
		bind(p, vals[i], arrs[i])
	}
	for _, a := range f.autos {
		bind(a, bcInt(0), map[int64]bcNum{})
	}
	in.depth++
	savedName, savedAdr := in.fname, in.adr
	in.fname, in.adr = c.name, 0
	in.last = bcInt(0)
	ret := bcInt(0)
	for _, s := range f.body {
		fl := in.exec(s)
		if fl == bcReturnFlow {
			ret = in.last
			break
		}
		if fl == bcHalt {
			panic(bcQuit{})
		}
	}
	in.fname, in.adr = savedName, savedAdr
	in.depth--
	for i := len(save) - 1; i >= 0; i-- {
		s := save[i]
		switch {
		case s.isArr:
			in.arrays[s.name] = s.arr
		case s.had:
			in.vars[s.name] = s.v
		default:
			delete(in.vars, s.name)
		}
	}
	return ret
}

// mathlib computes -l's functions with guard digits, truncated to scale.
func (in *bcInterp) mathlib(c *bcCall) (bcNum, bool) {
	switch c.name {
	case "s", "c", "a", "l", "e":
		if len(c.args) != 1 {
			in.fail("Parameter number mismatch")
		}
	case "j":
		if len(c.args) != 2 {
			in.fail("Parameter number mismatch")
		}
	default:
		return bcNum{}, false
	}
	if !in.lib {
		return bcNum{}, false
	}
	x := in.eval(c.args[len(c.args)-1])
	s := in.scale
	f := newFixed(s + 20 + len(new(big.Int).Abs(x.v).String())/2)
	fx := f.from(x)
	var r *big.Int
	switch c.name {
	case "s":
		r = f.sin(fx)
	case "c":
		r = f.cos(fx)
	case "a":
		r = f.atan(fx)
	case "l":
		if x.v.Sign() <= 0 {
			// GNU's l() of a non-positive number is 1-10^scale's negation.
			return bcNum{v: new(big.Int).Neg(new(big.Int).Sub(pow10(s), big.NewInt(1))), scale: s}, true
		}
		r = f.ln(fx)
	case "e":
		if x.v.Sign() > 0 && bcCmp(x, bcInt(100000)) > 0 {
			in.fail("exponent too large in raise")
		}
		r = f.exp(fx)
	case "j":
		n := in.eval(c.args[0]).rescale(0).v
		if !n.IsInt64() || n.Int64() > 10000 || n.Int64() < -10000 {
			in.fail("exponent too large in raise")
		}
		r = f.besselJ(n.Int64(), fx)
		if n.Int64() < 0 && n.Int64()%2 != 0 {
			r.Neg(r)
		}
	}
	return bcNum{v: r, scale: f.p}.rescale(s), true
}
