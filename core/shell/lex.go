package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// wordMode says where a word is being read, which decides what ends it
// and which characters are special.
type wordMode int

const (
	modeWord    wordMode = iota // a command word: ends at a metacharacter
	modeDQ                      // inside "...": ends at the closing quote
	modeHeredoc                 // a here-document body: only $, ` and \ are special
	modeArith                   // inside $(( )): like a here-document
	modeParam                   // the argument of ${x:-...}: ends at }
	modePattern                 // the pattern of ${x/pat/rep}: ends at / or }
)

// readWord reads one command word at p.pos.
func (p *parser) readWord(_ bool) *word {
	start := p.pos
	parts := p.readParts(modeWord, 0)
	return &word{parts: parts, raw: p.src[start:p.pos]}
}

// readParts reads word parts until the mode's terminator (not consumed).
func (p *parser) readParts(mode wordMode, line int) []wpart {
	p.enter()
	defer p.leave()
	if line == 0 {
		line = p.line
	}
	var parts []wpart
	var lit strings.Builder
	litKind := pLit
	if mode == modeDQ || mode == modeHeredoc || mode == modeArith {
		litKind = pQuoted
	}
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, wpart{kind: litKind, text: lit.String()})
			lit.Reset()
		}
	}
	add := func(pt wpart) {
		flush()
		parts = append(parts, pt)
	}
	braceDepth := 0 // unquoted { } inside ${x:-{a}} stay literal
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch mode {
		case modeWord:
			if isMeta(c) {
				flush()
				return parts
			}
		case modeDQ:
			if c == '"' {
				flush()
				return parts
			}
		case modeParam, modePattern:
			if c == '}' && braceDepth == 0 || mode == modePattern && c == '/' {
				flush()
				return parts
			}
			if c == '{' {
				braceDepth++
			} else if c == '}' {
				braceDepth--
			}
		}
		switch {
		case c == '\n':
			p.line++
			lit.WriteByte(c)
			p.pos++
		case c == '\\':
			n := p.peekc(1)
			if p.pos+1 >= len(p.src) {
				lit.WriteByte('\\')
				p.pos++
				continue
			}
			if n == '\n' {
				p.pos += 2
				p.line++
				continue
			}
			quotedCtx := mode == modeDQ || mode == modeHeredoc || mode == modeArith
			if quotedCtx && !strings.ContainsRune("$`\"\\", rune(n)) || (mode == modeHeredoc || mode == modeArith) && n == '"' {
				lit.WriteByte('\\')
				p.pos++
				continue
			}
			_, size := utf8.DecodeRuneInString(p.src[p.pos+1:])
			esc := p.src[p.pos+1 : p.pos+1+size]
			p.pos += 1 + size
			if quotedCtx {
				lit.WriteString(esc)
			} else {
				add(wpart{kind: pQuoted, text: esc})
			}
		case c == '\'' && (mode == modeWord || mode == modeParam || mode == modePattern):
			p.pos++
			end := strings.IndexByte(p.src[p.pos:], '\'')
			if end < 0 {
				p.eofIn("'", line)
			}
			text := p.src[p.pos : p.pos+end]
			p.line += strings.Count(text, "\n")
			p.pos += end + 1
			add(wpart{kind: pQuoted, text: text})
		case c == '"' && (mode == modeWord || mode == modeParam || mode == modePattern):
			startLine := p.line
			p.pos++
			inner := p.readParts(modeDQ, startLine)
			if p.pos >= len(p.src) {
				p.eofIn("\"", startLine)
			}
			p.pos++
			add(wpart{kind: pDQ, parts: inner})
		case c == '`':
			add(p.readBackquote())
		case c == '$':
			if mode != modeDQ && mode != modeHeredoc && mode != modeArith && p.peekc(1) == '\'' {
				p.pos += 2
				add(wpart{kind: pQuoted, text: p.readANSIC(line)})
				continue
			}
			if mode == modeWord && p.peekc(1) == '"' {
				p.pos++ // $"..." is "..." without translation
				continue
			}
			pt, ok := p.readDollar()
			if !ok {
				lit.WriteByte('$')
				p.pos++
				continue
			}
			add(pt)
		default:
			lit.WriteByte(c)
			p.pos++
		}
	}
	flush()
	return parts
}

// readDollar reads an expansion starting at '$'; ok is false for a lone '$'.
func (p *parser) readDollar() (wpart, bool) {
	n := p.peekc(1)
	switch {
	case n == '(' && p.peekc(2) == '(':
		line := p.line
		p.pos += 3 // past "$(("
		text := p.readArithText(line)
		return wpart{kind: pArith, arith: p.subWord(text, line, modeArith)}, true
	case n == '(':
		line := p.line
		p.pos += 2
		saved := p.tok
		p.enter()
		p.next()
		l := p.parseList(nil)
		if p.tok.kind == tEOF {
			p.eofIn(")", line)
		}
		if !p.isOp(")") {
			p.unexpected()
		}
		p.leave()
		p.tok = saved
		return wpart{kind: pCmdSub, sub: l}, true
	case n == '{':
		return p.readBraceParam(), true
	case n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z':
		j := p.pos + 1
		for j < len(p.src) && (p.src[j] == '_' || p.src[j] >= 'a' && p.src[j] <= 'z' || p.src[j] >= 'A' && p.src[j] <= 'Z' || p.src[j] >= '0' && p.src[j] <= '9') {
			j++
		}
		name := p.src[p.pos+1 : j]
		p.pos = j
		return wpart{kind: pParam, param: &paramExp{name: name}}, true
	case n >= '0' && n <= '9' || strings.IndexByte("?$#@*!-", n) >= 0 && n != 0:
		p.pos += 2
		return wpart{kind: pParam, param: &paramExp{name: string(n)}}, true
	}
	return wpart{}, false
}

// readArithText reads up to the "))" closing $(( with p.pos after "((".
func (p *parser) readArithText(line int) string {
	depth := 0
	start := p.pos
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
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

// readBackquote reads `...`: inside, \` \\ and \$ lose their backslash,
// and the text is parsed as a script of its own.
func (p *parser) readBackquote() wpart {
	line := p.line
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.eofIn("`", line)
		}
		c := p.src[p.pos]
		if c == '`' {
			p.pos++
			break
		}
		if c == '\\' && p.pos+1 < len(p.src) && strings.IndexByte("`\\$", p.src[p.pos+1]) >= 0 {
			b.WriteByte(p.src[p.pos+1])
			p.pos += 2
			continue
		}
		if c == '\n' {
			p.line++
		}
		b.WriteByte(c)
		p.pos++
	}
	q := &parser{src: b.String(), line: line, depth: p.depth + 1}
	if q.depth > maxNesting {
		p.bail(&ParseError{Line: line, Msg: "syntax error: nesting too deep"})
	}
	q.next()
	l := q.parseList(nil)
	if q.tok.kind != tEOF {
		q.unexpected()
	}
	return wpart{kind: pCmdSub, sub: l}
}

// readANSIC reads the body of $'...' (after the quote) with C escapes.
func (p *parser) readANSIC(line int) string {
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.eofIn("'", line)
		}
		c := p.src[p.pos]
		if c == '\'' {
			p.pos++
			return b.String()
		}
		if c != '\\' || p.pos+1 >= len(p.src) {
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
			p.pos++
			continue
		}
		e := p.src[p.pos+1]
		p.pos += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x':
			v, n := hexDigits(p.src[p.pos:], 2)
			if n == 0 {
				b.WriteString("\\x")
				continue
			}
			p.pos += n
			b.WriteByte(byte(v))
		case 'u', 'U':
			max := 4
			if e == 'U' {
				max = 8
			}
			v, n := hexDigits(p.src[p.pos:], max)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			p.pos += n
			b.WriteRune(rune(v))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := int(e-'0'), 0
			for n < 2 && p.pos+n < len(p.src) && p.src[p.pos+n] >= '0' && p.src[p.pos+n] <= '7' {
				v = v*8 + int(p.src[p.pos+n]-'0')
				n++
			}
			p.pos += n
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}

func hexDigits(s string, max int) (int, int) {
	n := 0
	for n < max && n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
		n++
	}
	if n == 0 {
		return 0, 0
	}
	v, _ := strconv.ParseUint(s[:n], 16, 32)
	return int(v), n
}

// readBraceParam reads ${...}.
func (p *parser) readBraceParam() wpart {
	line := p.line
	start := p.pos
	p.pos += 2
	pe := &paramExp{}
	bad := func() wpart {
		// Skip to the closing brace; the error is reported when expanded.
		depth := 0
		for p.pos < len(p.src) {
			c := p.src[p.pos]
			p.pos++
			if c == '{' {
				depth++
			} else if c == '}' {
				if depth == 0 {
					pe.bad = p.src[start:p.pos]
					return wpart{kind: pParam, param: pe}
				}
				depth--
			}
		}
		p.eofIn("}", line)
		return wpart{}
	}
	if p.peekc(0) == '#' && p.peekc(1) != '}' {
		pe.length = true
		p.pos++
	}
	c := p.peekc(0)
	switch {
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := p.pos
		for j < len(p.src) && (p.src[j] == '_' || p.src[j] >= 'a' && p.src[j] <= 'z' || p.src[j] >= 'A' && p.src[j] <= 'Z' || p.src[j] >= '0' && p.src[j] <= '9') {
			j++
		}
		pe.name = p.src[p.pos:j]
		p.pos = j
	case c >= '0' && c <= '9':
		j := p.pos
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		pe.name = p.src[p.pos:j]
		p.pos = j
	case c != 0 && strings.IndexByte("?$#@*!-", c) >= 0:
		pe.name = string(c)
		p.pos++
	default:
		return bad()
	}
	if p.peekc(0) == '}' {
		p.pos++
		return wpart{kind: pParam, param: pe}
	}
	if pe.length {
		return bad()
	}
	rest := p.src[p.pos:]
	for _, op := range []string{":-", ":=", ":?", ":+", "##", "%%", "//", "/#", "/%", "^^", ",,", "-", "=", "?", "+", "#", "%", "/", "^", ",", ":"} {
		if strings.HasPrefix(rest, op) {
			pe.op = op
			p.pos += len(op)
			break
		}
	}
	if pe.op == "" {
		return bad()
	}
	argMode := modeParam
	if pe.op[0] == '/' || pe.op == ":" {
		argMode = modePattern
	}
	if pe.op == ":" {
		// ${x:offset:length}: offset ends at ':' or '}'.
		pe.arg = p.readUntilAny(":}", line)
		if p.peekc(0) == ':' {
			p.pos++
			pe.arg2 = p.readUntilAny("}", line)
		}
	} else {
		pe.arg = &word{parts: p.readParts(argMode, line)}
		if argMode == modePattern && p.peekc(0) == '/' {
			p.pos++
			pe.arg2 = &word{parts: p.readParts(modeParam, line)}
		}
	}
	if p.peekc(0) != '}' {
		p.eofIn("}", line)
	}
	p.pos++
	return wpart{kind: pParam, param: pe}
}

// readUntilAny reads raw text up to one of the stop bytes (for the
// arithmetic offsets of ${x:o:l}), parsed for expansions.
func (p *parser) readUntilAny(stops string, line int) *word {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte(stops, p.src[p.pos]) < 0 {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.eofIn("}", line)
	}
	return p.subWord(p.src[start:p.pos], line, modeArith)
}
