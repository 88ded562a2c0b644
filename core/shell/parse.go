package shell

import (
	"fmt"
	"strings"
)

// maxNesting bounds how deeply constructs may nest ($( $( ... ) ), if in
// if, "${x:-${y}}"), so hostile input cannot exhaust the stack.
const maxNesting = 100

// ParseError is a syntax error, worded as bash words it.
type ParseError struct {
	Line int
	Msg  string // "syntax error near unexpected token `|'"
	// Incomplete: the input ended inside a construct (an open quote, a
	// trailing |, an if without fi, a here-document without its end), so a
	// terminal may read another line instead of reporting the error.
	Incomplete bool
	// Text is the offending line, which bash echoes in non-interactive mode.
	Text string
}

func (e *ParseError) Error() string { return e.Msg }

type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tOp
	tWord
	tIONum // digits right before a redirection operator: 2>
)

type token struct {
	kind tokKind
	op   string
	w    *word
	num  int
	pos  int
	line int
}

type parser struct {
	src     string
	pos     int
	line    int
	tok     token
	depth   int
	pending []*redir // here-documents whose bodies follow the next newline
	warns   []string
	started bool
}

// bail aborts parsing by panicking with the error; Parse recovers it. Only
// *ParseError values travel this way.
func (p *parser) bail(e *ParseError) {
	if e.Text == "" {
		e.Text = p.lineText(e.Line)
	}
	panic(e)
}

func (p *parser) lineText(n int) string {
	lines := strings.Split(p.src, "\n")
	if n >= 1 && n <= len(lines) {
		return lines[n-1]
	}
	return ""
}

func (p *parser) unexpected() {
	t := p.tok
	switch t.kind {
	case tEOF:
		p.bail(&ParseError{Line: t.line, Msg: "syntax error: unexpected end of file", Incomplete: true})
	case tNewline:
		p.bail(&ParseError{Line: t.line, Msg: "syntax error near unexpected token `newline'"})
	case tOp:
		p.bail(&ParseError{Line: t.line, Msg: "syntax error near unexpected token `" + t.op + "'"})
	case tIONum:
		p.bail(&ParseError{Line: t.line, Msg: fmt.Sprintf("syntax error near unexpected token `%d'", t.num)})
	default:
		p.bail(&ParseError{Line: t.line, Msg: "syntax error near unexpected token `" + t.w.raw + "'"})
	}
}

func (p *parser) eofIn(what string, line int) {
	p.bail(&ParseError{Line: line, Msg: "unexpected EOF while looking for matching `" + what + "'", Incomplete: true})
}

func (p *parser) enter() {
	if p.depth++; p.depth > maxNesting {
		p.bail(&ParseError{Line: p.line, Msg: "syntax error: nesting too deep"})
	}
}

func (p *parser) leave() { p.depth-- }

// Parse parses a script. Errors are *ParseError.
func Parse(src string) (s *Script, err error) {
	return parse(src, 0)
}

func parse(src string, depth int) (s *Script, err error) {
	p := &parser{src: src, line: 1, depth: depth}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			s, err = nil, pe
		}
	}()
	p.next()
	l := p.parseList(nil)
	if p.tok.kind != tEOF {
		p.unexpected()
	}
	return &Script{list: l, src: src, warnings: p.warns}, nil
}

// nextLine parses the next top-level line (commands up to a newline) for
// a shell that runs each line before reading the next, as bash does: an
// alias defined on one line applies on the next, and a syntax error stops
// only what follows it.
func (p *parser) nextLine() (l *list, eof bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*ParseError)
			if !ok {
				panic(r)
			}
			l, eof, err = nil, false, pe
		}
	}()
	if !p.started {
		p.started = true
		p.next()
	}
	p.skipNewlines()
	if p.tok.kind == tEOF {
		return nil, true, nil
	}
	l = &list{}
	for {
		if p.atListEnd() {
			if p.tok.kind == tEOF && len(l.items) > 0 {
				return l, false, nil
			}
			p.unexpected()
		}
		ao := p.parseAndOr()
		l.items = append(l.items, ao)
		switch {
		case p.isOp(";"):
			p.next()
		case p.isOp("&"):
			ao.bg = true
			p.next()
		case p.tok.kind == tNewline || p.tok.kind == tEOF:
			return l, false, nil
		default:
			p.unexpected()
		}
		if p.tok.kind == tNewline || p.tok.kind == tEOF {
			return l, false, nil
		}
	}
}

// resync skips the rest of the line after a syntax error.
func (p *parser) resync() {
	if i := strings.IndexByte(p.src[min(p.pos, len(p.src)):], '\n'); i >= 0 {
		p.pos += i + 1
		p.line++
	} else {
		p.pos = len(p.src)
	}
	p.pending = nil
	p.depth = 0
	p.started = false
}

// Incomplete reports whether src ends inside an unfinished construct, so a
// terminal should read another line before running it.
func Incomplete(src string) bool {
	s, err := Parse(src)
	if err != nil {
		pe, ok := err.(*ParseError)
		return ok && pe.Incomplete
	}
	return len(s.warnings) > 0 || strings.HasSuffix(src, "\\") && !strings.HasSuffix(src, "\\\\")
}

// ---- tokens ----

func (p *parser) peekc(off int) byte {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '<', '>', '(', ')':
		return true
	}
	return false
}

var operators = []string{
	"&>>", ";;&", "<<<", "<<-",
	"&&", "||", ";;", ";&", "|&", "&>", "<<", "<&", "<>", ">>", ">&", ">|",
	"&", "|", ";", "<", ">", "(", ")",
}

// next reads the next token into p.tok.
func (p *parser) next() {
	for {
		for p.pos < len(p.src) && isBlank(p.src[p.pos]) {
			p.pos++
		}
		if p.peekc(0) == '\\' && p.peekc(1) == '\n' {
			p.pos += 2
			p.line++
			continue
		}
		if p.peekc(0) == '#' {
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		}
		break
	}
	start, line := p.pos, p.line
	if p.pos >= len(p.src) {
		p.tok = token{kind: tEOF, pos: start, line: line}
		return
	}
	c := p.src[p.pos]
	if c == '\n' {
		p.pos++
		p.line++
		p.tok = token{kind: tNewline, pos: start, line: line}
		p.readHeredocs()
		return
	}
	if isMeta(c) {
		for _, op := range operators {
			if strings.HasPrefix(p.src[p.pos:], op) {
				p.pos += len(op)
				p.tok = token{kind: tOp, op: op, pos: start, line: line}
				return
			}
		}
	}
	w := p.readWord(false)
	if s, ok := w.litText(); ok && isDigits(s) && (p.peekc(0) == '<' || p.peekc(0) == '>') && len(s) < 4 {
		n := 0
		for _, d := range s {
			n = n*10 + int(d-'0')
		}
		p.tok = token{kind: tIONum, num: n, pos: start, line: line}
		return
	}
	p.tok = token{kind: tWord, w: w, pos: start, line: line}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (p *parser) isOp(op string) bool { return p.tok.kind == tOp && p.tok.op == op }

// isWord reports whether the token is the unquoted reserved word s.
func (p *parser) isWord(s string) bool {
	if p.tok.kind != tWord {
		return false
	}
	t, ok := p.tok.w.litText()
	return ok && t == s
}

func (p *parser) expectWord(s string) {
	if !p.isWord(s) {
		p.unexpected()
	}
	p.next()
}

func (p *parser) skipNewlines() {
	for p.tok.kind == tNewline {
		p.next()
	}
}

// ---- here-documents ----

func (p *parser) readHeredocs() {
	pend := p.pending
	p.pending = nil
	for _, r := range pend {
		startLine := p.line
		var body strings.Builder
		found := false
		for p.pos < len(p.src) {
			end := strings.IndexByte(p.src[p.pos:], '\n')
			var ln string
			if end < 0 {
				ln = p.src[p.pos:]
				p.pos = len(p.src)
			} else {
				ln = p.src[p.pos : p.pos+end]
				p.pos += end + 1
				p.line++
			}
			if r.op == "<<-" {
				ln = strings.TrimLeft(ln, "\t")
			}
			if ln == r.hdocDelim {
				found = true
				break
			}
			body.WriteString(ln)
			body.WriteByte('\n')
		}
		if !found {
			p.warns = append(p.warns, fmt.Sprintf("warning: here-document at line %d delimited by end-of-file (wanted `%s')", startLine-1, r.hdocDelim))
		}
		text := body.String()
		if r.hdocQuoted {
			r.hdoc = &word{parts: []wpart{{kind: pQuoted, text: text}}, raw: text}
		} else {
			r.hdoc = p.subWord(text, startLine, modeHeredoc)
		}
	}
}

// subWord parses text (a here-document body, an arithmetic expression) as
// the inside of double quotes, with its own position.
func (p *parser) subWord(text string, line int, mode wordMode) *word {
	q := &parser{src: text, line: line, depth: p.depth}
	w := &word{raw: text}
	w.parts = q.readParts(mode, 0)
	p.warns = append(p.warns, q.warns...)
	return w
}

// ---- lists and commands ----

// stopWords end a list: the reserved words that close or continue a compound.
var stopWords = map[string]bool{
	"then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "esac": true, "}": true,
}

func (p *parser) atListEnd() bool {
	switch p.tok.kind {
	case tEOF:
		return true
	case tOp:
		switch p.tok.op {
		case ")", ";;", ";&", ";;&":
			return true
		}
	case tWord:
		if t, ok := p.tok.w.litText(); ok && stopWords[t] {
			return true
		}
	}
	return false
}

func (p *parser) parseList(_ []string) *list {
	l := &list{}
	p.skipNewlines()
	for !p.atListEnd() {
		ao := p.parseAndOr()
		l.items = append(l.items, ao)
		switch {
		case p.isOp(";"):
			p.next()
		case p.isOp("&"):
			ao.bg = true
			p.next()
		case p.tok.kind == tNewline:
		default:
			if !p.atListEnd() {
				p.unexpected()
			}
		}
		p.skipNewlines()
	}
	return l
}

// parseBody parses a list that must not be empty (bash rejects `then fi`).
func (p *parser) parseBody() *list {
	l := p.parseList(nil)
	if l.empty() {
		p.unexpected()
	}
	return l
}

func (p *parser) parseAndOr() *andOr {
	ao := &andOr{pipes: []*pipeline{p.parsePipeline()}}
	for p.isOp("&&") || p.isOp("||") {
		ao.ops = append(ao.ops, p.tok.op)
		p.next()
		p.skipNewlines()
		ao.pipes = append(ao.pipes, p.parsePipeline())
	}
	return ao
}

func (p *parser) parsePipeline() *pipeline {
	pl := &pipeline{}
	if p.isWord("!") {
		pl.negate = true
		p.next()
	}
	for {
		pl.cmds = append(pl.cmds, p.parseCommand())
		if p.isOp("|") || p.isOp("|&") {
			pl.stderr = append(pl.stderr, p.tok.op == "|&")
			p.next()
			p.skipNewlines()
			continue
		}
		pl.stderr = append(pl.stderr, false)
		return pl
	}
}

func (p *parser) parseCommand() command {
	p.enter()
	defer p.leave()
	line := p.tok.line
	var c command
	switch {
	case p.isOp("("):
		if p.peekc(0) == '(' {
			c = p.parseArithCmd(line)
			break
		}
		p.next()
		body := p.parseBody()
		if !p.isOp(")") {
			p.unexpected()
		}
		p.next()
		c = &subshellCmd{base: base{line: line}, body: body}
	case p.tok.kind == tWord:
		t, _ := p.tok.w.litText()
		switch t {
		case "if":
			c = p.parseIf(line)
		case "for":
			c = p.parseFor(line)
		case "while", "until":
			c = p.parseWhile(line, t == "until")
		case "case":
			c = p.parseCase(line)
		case "{":
			p.next()
			body := p.parseBody()
			p.expectWord("}")
			c = &groupCmd{base: base{line: line}, body: body}
		case "[[":
			c = p.parseCond(line)
		case "function":
			p.next()
			if p.tok.kind != tWord {
				p.unexpected()
			}
			name := p.tok.w.raw
			p.next()
			if p.isOp("(") {
				p.next()
				if !p.isOp(")") {
					p.unexpected()
				}
				p.next()
			}
			return p.parseFuncBody(name, line)
		case "then", "else", "elif", "fi", "do", "done", "esac", "}", "in", "!":
			p.unexpected()
		default:
			return p.parseSimple(line)
		}
	case p.tok.kind == tIONum || p.tok.kind == tOp && isRedirOp(p.tok.op):
		return p.parseSimple(line)
	default:
		p.unexpected()
	}
	// Redirections after a compound command apply to all of it.
	b := baseOf(c)
	for p.tok.kind == tIONum || p.tok.kind == tOp && isRedirOp(p.tok.op) {
		b.redirs = append(b.redirs, p.parseRedir())
	}
	return c
}

func baseOf(c command) *base {
	switch c := c.(type) {
	case *simpleCmd:
		return &c.base
	case *ifCmd:
		return &c.base
	case *forCmd:
		return &c.base
	case *arithForCmd:
		return &c.base
	case *whileCmd:
		return &c.base
	case *caseCmd:
		return &c.base
	case *groupCmd:
		return &c.base
	case *subshellCmd:
		return &c.base
	case *funcDef:
		return &c.base
	case *condCmd:
		return &c.base
	case *arithCmd:
		return &c.base
	}
	return &base{}
}

func isRedirOp(op string) bool {
	switch op {
	case "<", ">", ">>", "<>", ">|", ">&", "<&", "&>", "&>>", "<<", "<<-", "<<<":
		return true
	}
	return false
}

func (p *parser) parseRedir() *redir {
	r := &redir{fd: -1}
	if p.tok.kind == tIONum {
		r.fd = p.tok.num
		p.next()
		if p.tok.kind != tOp || !isRedirOp(p.tok.op) || strings.HasPrefix(p.tok.op, "&") {
			p.unexpected()
		}
	}
	r.op = p.tok.op
	p.next()
	if p.tok.kind != tWord {
		p.unexpected()
	}
	r.target = p.tok.w
	if r.op == "<<" || r.op == "<<-" {
		r.hdocDelim = unquoteDelim(r.target)
		r.hdocQuoted = r.target.quoted()
		p.pending = append(p.pending, r)
	}
	p.next()
	return r
}

// unquoteDelim is a here-document delimiter after quote removal.
func unquoteDelim(w *word) string {
	var b strings.Builder
	var walk func(parts []wpart)
	walk = func(parts []wpart) {
		for _, pt := range parts {
			switch pt.kind {
			case pLit, pQuoted:
				b.WriteString(pt.text)
			case pDQ:
				walk(pt.parts)
			default:
				b.WriteString(pt.text)
			}
		}
	}
	walk(w.parts)
	return b.String()
}

func (p *parser) parseSimple(line int) command {
	c := &simpleCmd{base: base{line: line}}
	for {
		switch {
		case p.tok.kind == tIONum || p.tok.kind == tOp && isRedirOp(p.tok.op):
			c.redirs = append(c.redirs, p.parseRedir())
			continue
		case p.tok.kind == tWord:
			if len(c.words) == 0 {
				if a := asAssign(p.tok.w); a != nil {
					c.assigns = append(c.assigns, a)
					p.next()
					continue
				}
			}
			c.words = append(c.words, p.tok.w)
			p.next()
			// name ( ) compound: a function definition.
			if len(c.words) == 1 && len(c.assigns) == 0 && len(c.redirs) == 0 && p.isOp("(") {
				name, ok := c.words[0].litText()
				if !ok {
					p.unexpected()
				}
				p.next()
				if !p.isOp(")") {
					p.unexpected()
				}
				p.next()
				return p.parseFuncBody(name, line)
			}
			continue
		}
		break
	}
	if len(c.words) == 0 && len(c.assigns) == 0 && len(c.redirs) == 0 {
		p.unexpected()
	}
	return c
}

func (p *parser) parseFuncBody(name string, line int) command {
	p.skipNewlines()
	if !(p.isWord("{") || p.isOp("(") || p.isWord("if") || p.isWord("for") || p.isWord("while") || p.isWord("until") || p.isWord("case") || p.isWord("[[")) {
		p.unexpected()
	}
	body := p.parseCommand()
	return &funcDef{base: base{line: line}, name: name, body: body}
}

// asAssign recognises NAME=value and NAME+=value at the start of a word.
func asAssign(w *word) *assign {
	if len(w.parts) == 0 || w.parts[0].kind != pLit {
		return nil
	}
	first := w.parts[0].text
	eq := strings.IndexByte(first, '=')
	if eq <= 0 {
		return nil
	}
	name := first[:eq]
	app := false
	if strings.HasSuffix(name, "+") {
		name, app = name[:len(name)-1], true
	}
	if !isName(name) {
		return nil
	}
	val := &word{raw: w.raw[min(len(w.raw), eq+1):]}
	if rest := first[eq+1:]; rest != "" {
		val.parts = append(val.parts, wpart{kind: pLit, text: rest})
	}
	val.parts = append(val.parts, w.parts[1:]...)
	return &assign{name: name, append: app, value: val}
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (p *parser) parseIf(line int) command {
	c := &ifCmd{base: base{line: line}}
	p.next()
	c.conds = append(c.conds, p.parseBody())
	p.expectWord("then")
	c.bodies = append(c.bodies, p.parseBody())
	for {
		switch {
		case p.isWord("elif"):
			p.next()
			c.conds = append(c.conds, p.parseBody())
			p.expectWord("then")
			c.bodies = append(c.bodies, p.parseBody())
			continue
		case p.isWord("else"):
			p.next()
			c.els = p.parseBody()
		}
		break
	}
	p.expectWord("fi")
	return c
}

func (p *parser) parseFor(line int) command {
	p.next()
	if p.isOp("(") && p.peekc(0) == '(' {
		return p.parseArithFor(line)
	}
	if p.tok.kind != tWord {
		p.unexpected()
	}
	name, ok := p.tok.w.litText()
	if !ok || !isName(name) {
		p.bail(&ParseError{Line: p.tok.line, Msg: "`" + p.tok.w.raw + "': not a valid identifier"})
	}
	c := &forCmd{base: base{line: line}, name: name}
	p.next()
	p.skipNewlines()
	if p.isWord("in") {
		c.hasIn = true
		p.next()
		for p.tok.kind == tWord {
			c.items = append(c.items, p.tok.w)
			p.next()
		}
		if p.isOp(";") {
			p.next()
		} else if p.tok.kind != tNewline {
			p.unexpected()
		}
	} else if p.isOp(";") {
		p.next()
	}
	p.skipNewlines()
	c.body = p.parseDoGroup()
	return c
}

func (p *parser) parseDoGroup() *list {
	if p.isWord("{") {
		p.next()
		body := p.parseBody()
		p.expectWord("}")
		return body
	}
	p.expectWord("do")
	body := p.parseBody()
	p.expectWord("done")
	return body
}

// readArith reads the text of (( ... )) after the first "(" token, up to
// the matching "))".
func (p *parser) readArith(line int) string {
	p.pos++ // the second "("
	depth := 0
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case '\n':
			p.line++
		case '(':
			depth++
		case ')':
			if depth == 0 {
				if p.peekc(1) == ')' {
					text := p.src[start:p.pos]
					p.pos += 2
					return text
				}
				p.bail(&ParseError{Line: line, Msg: "syntax error near unexpected token `)'"})
			}
			depth--
		}
		p.pos++
	}
	p.eofIn("))", line)
	return ""
}

func (p *parser) parseArithCmd(line int) command {
	text := p.readArith(line)
	c := &arithCmd{base: base{line: line}, expr: p.subWord(text, line, modeArith)}
	p.next()
	return c
}

func (p *parser) parseArithFor(line int) command {
	text := p.readArith(line)
	parts := strings.Split(text, ";")
	if len(parts) != 3 {
		p.bail(&ParseError{Line: line, Msg: "syntax error: arithmetic expression required"})
	}
	c := &arithForCmd{base: base{line: line},
		init: p.subWord(parts[0], line, modeArith),
		cond: p.subWord(parts[1], line, modeArith),
		post: p.subWord(parts[2], line, modeArith)}
	p.next()
	if p.isOp(";") {
		p.next()
	}
	p.skipNewlines()
	c.body = p.parseDoGroup()
	return c
}

func (p *parser) parseWhile(line int, until bool) command {
	p.next()
	c := &whileCmd{base: base{line: line}, until: until}
	c.cond = p.parseBody()
	c.body = p.parseDoGroup()
	return c
}

func (p *parser) parseCase(line int) command {
	p.next()
	if p.tok.kind != tWord {
		p.unexpected()
	}
	c := &caseCmd{base: base{line: line}, subject: p.tok.w}
	p.next()
	p.skipNewlines()
	p.expectWord("in")
	p.skipNewlines()
	for !p.isWord("esac") {
		var it caseItem
		if p.isOp("(") {
			p.next()
		}
		for {
			if p.tok.kind != tWord {
				p.unexpected()
			}
			it.patterns = append(it.patterns, p.tok.w)
			p.next()
			if p.isOp("|") {
				p.next()
				continue
			}
			break
		}
		if !p.isOp(")") {
			p.unexpected()
		}
		p.next()
		it.body = p.parseList(nil)
		it.fall = ";;"
		if p.isOp(";;") || p.isOp(";&") || p.isOp(";;&") {
			it.fall = p.tok.op
			p.next()
		} else if !p.isWord("esac") {
			p.unexpected()
		}
		c.items = append(c.items, it)
		p.skipNewlines()
	}
	p.next()
	return c
}

// parseCond parses [[ ... ]]: words and the operators && || ! ( ).
func (p *parser) parseCond(line int) command {
	p.next()
	e := p.condOr()
	if !p.isWord("]]") {
		p.unexpected()
	}
	p.next()
	return &condCmd{base: base{line: line}, expr: e}
}

func (p *parser) condOr() *condExpr {
	l := p.condAnd()
	for p.isOp("||") {
		p.next()
		p.skipNewlines()
		l = &condExpr{op: "||", left: l, right: p.condAnd()}
	}
	return l
}

func (p *parser) condAnd() *condExpr {
	l := p.condNot()
	for p.isOp("&&") {
		p.next()
		p.skipNewlines()
		l = &condExpr{op: "&&", left: l, right: p.condNot()}
	}
	return l
}

func (p *parser) condNot() *condExpr {
	p.enter()
	defer p.leave()
	if p.isWord("!") {
		p.next()
		return &condExpr{op: "!", left: p.condNot()}
	}
	if p.isOp("(") {
		p.next()
		e := p.condOr()
		if !p.isOp(")") {
			p.unexpected()
		}
		p.next()
		return &condExpr{op: "()", left: e}
	}
	return p.condTest()
}

func (p *parser) condTest() *condExpr {
	e := &condExpr{}
	for {
		switch {
		case p.tok.kind == tWord && !p.isWord("]]"):
			e.words = append(e.words, p.tok.w)
			e.ops = append(e.ops, "")
		case p.isOp("<") || p.isOp(">"):
			// Inside [[ ]], < and > compare strings.
			e.words = append(e.words, &word{parts: []wpart{{kind: pQuoted, text: p.tok.op}}, raw: p.tok.op})
			e.ops = append(e.ops, p.tok.op)
		default:
			if len(e.words) == 0 {
				p.unexpected()
			}
			return e
		}
		p.next()
		if len(e.words) > 3 {
			p.unexpected()
		}
	}
}
