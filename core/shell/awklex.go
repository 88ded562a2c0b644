package shell

import (
	"strconv"
	"strings"
)

// The awk program's tokens. Regular expression literals and division share
// '/', so the lexer asks whether the previous token ends an operand.

type awkTok int

const (
	atEOF awkTok = iota
	atNewline
	atNumber
	atString
	atRegex
	atName
	atFuncName // a name written right before '(' (a user function call)
	atBuiltin
	atKeyword
	atPunct
)

type awkToken struct {
	kind awkTok
	text string  // name, keyword, punctuation, string/regex value
	num  float64 // atNumber
	line int
	col  int // byte offset in its line, for the error caret
	pos  int // byte offset in the source
}

var awkKeywords = map[string]bool{
	"BEGIN": true, "END": true, "function": true, "func": true, "if": true, "else": true,
	"while": true, "for": true, "do": true, "break": true, "continue": true, "next": true,
	"nextfile": true, "exit": true, "return": true, "delete": true, "in": true,
	"getline": true, "print": true, "printf": true,
}

var awkBuiltins = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true, "gsub": true,
	"match": true, "sprintf": true, "toupper": true, "tolower": true, "int": true,
	"sqrt": true, "exp": true, "log": true, "sin": true, "cos": true, "atan2": true,
	"rand": true, "srand": true, "system": true, "close": true, "fflush": true,
	"gensub": true, "systime": true, "strftime": true,
}

// awkPuncts are the operators, longest first so "**=" wins over "*".
var awkPuncts = []string{
	"**=", "&&", "||", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=",
	"**", "!~", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<",
	"|", "?", ":", "~", "$", "=",
}

type awkLexer struct {
	src  string
	i    int
	line int
	bol  int // offset of the current line's start
	prev awkToken
	err  *awkSyntaxError
}

type awkSyntaxError struct {
	msg  string
	line int
	col  int
	src  string // the source line shown above the caret ("" to show none)
	show bool
}

func (e *awkSyntaxError) Error() string { return e.msg }

func (lx *awkLexer) lineText(start int) string {
	end := strings.IndexByte(lx.src[start:], '\n')
	if end < 0 {
		return lx.src[start:]
	}
	return lx.src[start : start+end]
}

// operandEnd reports whether the previous token ends an operand, so '/'
// after it divides instead of starting a regular expression.
func (lx *awkLexer) operandEnd() bool {
	p := lx.prev
	switch p.kind {
	case atNumber, atString, atRegex, atName, atBuiltin:
		return true
	case atPunct:
		return p.text == ")" || p.text == "]" || p.text == "$" || p.text == "++" || p.text == "--"
	}
	return false
}

func (lx *awkLexer) fail(msg string, pos int) awkToken {
	if lx.err == nil {
		bol := strings.LastIndexByte(lx.src[:pos], '\n') + 1
		lx.err = &awkSyntaxError{msg: msg, line: lx.line, col: pos - bol, src: lx.lineText(bol), show: true}
	}
	return awkToken{kind: atEOF, line: lx.line, pos: pos, col: pos - lx.bol}
}

func (lx *awkLexer) next() awkToken {
	t := lx.scan()
	lx.prev = t
	return t
}

func (lx *awkLexer) scan() awkToken {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c == ' ' || c == '\t' || c == '\r' {
			lx.i++
			continue
		}
		if c == '\\' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '\n' {
			lx.i += 2
			lx.line++
			lx.bol = lx.i
			continue
		}
		if c == '\\' && strings.HasPrefix(lx.src[lx.i+1:], "\r\n") {
			lx.i += 3
			lx.line++
			lx.bol = lx.i
			continue
		}
		if c == '#' {
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
			continue
		}
		break
	}
	start := lx.i
	tok := awkToken{line: lx.line, col: start - lx.bol, pos: start}
	if lx.i >= len(lx.src) {
		tok.kind = atEOF
		return tok
	}
	c := lx.src[lx.i]
	switch {
	case c == '\n':
		lx.i++
		lx.line++
		lx.bol = lx.i
		tok.kind = atNewline
		return tok
	case c == '"':
		s, ok := lx.readString()
		if !ok {
			return lx.fail("unterminated string", start)
		}
		tok.kind, tok.text = atString, s
		return tok
	case c == '/' && !lx.operandEnd():
		s, ok := lx.readRegex()
		if !ok {
			return lx.fail("unterminated regexp", start)
		}
		tok.kind, tok.text = atRegex, s
		return tok
	case c >= '0' && c <= '9' || c == '.' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] >= '0' && lx.src[lx.i+1] <= '9':
		tok.kind = atNumber
		tok.num, tok.text = lx.readNumber()
		return tok
	case c == '_' || isLetter(c):
		j := lx.i
		for j < len(lx.src) && (lx.src[j] == '_' || isLetter(lx.src[j]) || lx.src[j] >= '0' && lx.src[j] <= '9') {
			j++
		}
		name := lx.src[lx.i:j]
		lx.i = j
		tok.text = name
		switch {
		case awkKeywords[name]:
			tok.kind = atKeyword
			if name == "func" {
				tok.text = "function"
			}
		case awkBuiltins[name]:
			tok.kind = atBuiltin
		case j < len(lx.src) && lx.src[j] == '(':
			tok.kind = atFuncName
		default:
			tok.kind = atName
		}
		return tok
	}
	for _, p := range awkPuncts {
		if strings.HasPrefix(lx.src[lx.i:], p) {
			lx.i += len(p)
			tok.kind, tok.text = atPunct, p
			switch p {
			case "**":
				tok.text = "^"
			case "**=":
				tok.text = "^="
			}
			return tok
		}
	}
	lx.i++
	return lx.fail("invalid char '"+string(c)+"' in expression", start)
}

func (lx *awkLexer) readNumber() (float64, string) {
	s := lx.src[lx.i:]
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]) {
		j := 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 64)
		lx.i += j
		return float64(v), s[:j]
	}
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	lx.i += j
	v, _ := strconv.ParseFloat(s[:j], 64)
	return v, s[:j]
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readString reads a "..." literal, processing its escape sequences.
func (lx *awkLexer) readString() (string, bool) {
	var b strings.Builder
	i := lx.i + 1
	for i < len(lx.src) {
		c := lx.src[i]
		switch c {
		case '"':
			lx.i = i + 1
			return b.String(), true
		case '\n':
			return "", false
		case '\\':
			if i+1 >= len(lx.src) {
				return "", false
			}
			if lx.src[i+1] == '\n' {
				i += 2
				lx.line++
				continue
			}
			s, n := awkEscape(lx.src[i+1:])
			b.WriteString(s)
			i += 1 + n
			continue
		}
		b.WriteByte(c)
		i++
	}
	return "", false
}

// awkEscape decodes the escape after a backslash: the text and the bytes used.
func awkEscape(s string) (string, int) {
	c := s[0]
	switch c {
	case 'n':
		return "\n", 1
	case 't':
		return "\t", 1
	case 'r':
		return "\r", 1
	case '\\':
		return "\\", 1
	case '"':
		return "\"", 1
	case '/':
		return "/", 1
	case 'a':
		return "\a", 1
	case 'b':
		return "\b", 1
	case 'f':
		return "\f", 1
	case 'v':
		return "\v", 1
	case 'x':
		v, n := hexDigits(s[1:], 2)
		if n == 0 {
			return "\\x", 1
		}
		return string([]byte{byte(v)}), 1 + n
	}
	if c >= '0' && c <= '7' {
		v, n := 0, 0
		for n < 3 && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			v = v*8 + int(s[n]-'0')
			n++
		}
		return string([]byte{byte(v)}), n
	}
	// gawk keeps the character and drops the backslash.
	return string(c), 1
}

// readRegex reads /.../: "\/" is a slash, other escapes stay for the
// regular expression compiler; a '/' inside brackets does not end it.
func (lx *awkLexer) readRegex() (string, bool) {
	var b strings.Builder
	i := lx.i + 1
	inBracket := false
	for i < len(lx.src) {
		c := lx.src[i]
		switch {
		case c == '\n':
			return "", false
		case c == '\\' && i+1 < len(lx.src):
			if lx.src[i+1] == '/' {
				b.WriteByte('/')
			} else {
				b.WriteString(lx.src[i : i+2])
			}
			i += 2
			continue
		case c == '[' && !inBracket:
			inBracket = true
			b.WriteByte(c)
			i++
			// A ']' first in the list (after an optional '^') is literal.
			if i < len(lx.src) && lx.src[i] == '^' {
				b.WriteByte('^')
				i++
			}
			if i < len(lx.src) && lx.src[i] == ']' {
				b.WriteByte(']')
				i++
			}
			continue
		case c == '[' && inBracket && i+1 < len(lx.src) && (lx.src[i+1] == ':' || lx.src[i+1] == '.' || lx.src[i+1] == '='):
			end := strings.Index(lx.src[i+2:], string(lx.src[i+1])+"]")
			if end >= 0 && !strings.Contains(lx.src[i:i+2+end], "\n") {
				b.WriteString(lx.src[i : i+end+4])
				i += end + 4
				continue
			}
		case c == ']' && inBracket:
			inBracket = false
		case c == '/' && !inBracket:
			lx.i = i + 1
			return b.String(), true
		}
		b.WriteByte(c)
		i++
	}
	return "", false
}
