package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parsePath parses the inside of one action, {...}, by upstream's grammar
// (client-go's util/jsonpath parser): fields, recursive descent, brackets
// (indexes, slices, 'keys', unions, filters), quoted text, numbers,
// booleans and bare identifiers; '@', '$' and spaces are skipped.
func parsePath(s string) ([]step, error) {
	a := &actionParser{src: s}
	if err := a.parse(); err != nil {
		return nil, err
	}
	return a.steps, nil
}

type actionParser struct {
	src   string
	pos   int
	steps []step
}

func (a *actionParser) rest() string { return a.src[a.pos:] }

func (a *actionParser) peek() rune {
	if a.pos >= len(a.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(a.rest())
	return r
}

func (a *actionParser) parse() error {
	for a.pos < len(a.src) {
		switch rest := a.rest(); {
		case strings.HasPrefix(rest, "[?("):
			if err := a.parseFilter(); err != nil {
				return err
			}
			continue
		case strings.HasPrefix(rest, ".."):
			if n := len(a.steps); n > 0 && a.steps[n-1].kind == stepRecursive {
				return fmt.Errorf("invalid multiple recursive descent")
			}
			a.pos += 2
			a.steps = append(a.steps, step{kind: stepRecursive})
			if isAlphaNumeric(a.peek()) {
				a.parseField()
			}
			continue
		}
		r, w := utf8.DecodeRuneInString(a.rest())
		switch {
		case r == ' ' || r == '@' || r == '$':
			a.pos += w
		case r == '[':
			if err := a.parseArray(); err != nil {
				return err
			}
		case r == '"' || r == '\'':
			if err := a.parseQuote(r); err != nil {
				return err
			}
		case r == '.':
			a.pos++
			a.parseField()
		case r == '+' || r == '-' || unicode.IsDigit(r):
			if err := a.parseNumber(); err != nil {
				return err
			}
		case isAlphaNumeric(r):
			a.parseIdentifier()
		case r == '\r' || r == '\n':
			return fmt.Errorf("unclosed action")
		default:
			return fmt.Errorf("unrecognized character in action: %#U", r)
		}
	}
	return nil
}

// parseField reads a name up to a terminator; a backslash takes the next
// character into it, and the backslashes are dropped. An empty name is a
// field no object has ({.} prints nothing).
func (a *actionParser) parseField() {
	name := a.scanWord(true)
	if name == "*" {
		a.steps = append(a.steps, step{kind: stepWildcard})
		return
	}
	a.steps = append(a.steps, step{kind: stepField, name: strings.ReplaceAll(name, `\`, "")})
}

func (a *actionParser) parseIdentifier() {
	word := a.scanWord(false)
	if word == "true" || word == "false" {
		a.steps = append(a.steps, step{kind: stepConstant, lit: word == "true"})
		return
	}
	a.steps = append(a.steps, step{kind: stepIdentifier, name: word})
}

// scanWord reads up to the next terminator. In a field name (escapes) a
// backslash takes the character after it into the word, terminator or not.
func (a *actionParser) scanWord(escapes bool) string {
	start := a.pos
	for a.pos < len(a.src) {
		r, w := utf8.DecodeRuneInString(a.rest())
		if escapes && r == '\\' {
			a.pos += w
			if a.pos < len(a.src) {
				_, w = utf8.DecodeRuneInString(a.rest())
				a.pos += w
			}
			continue
		}
		if isTerminator(r) {
			break
		}
		a.pos += w
	}
	return a.src[start:a.pos]
}

func (a *actionParser) parseNumber() error {
	start := a.pos
	if c := a.src[a.pos]; c == '+' || c == '-' {
		a.pos++
	}
	for a.pos < len(a.src) && (a.src[a.pos] == '.' || a.src[a.pos] >= '0' && a.src[a.pos] <= '9') {
		a.pos++
	}
	text := a.src[start:a.pos]
	if n, err := strconv.Atoi(text); err == nil {
		a.steps = append(a.steps, step{kind: stepConstant, lit: n})
		return nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		a.steps = append(a.steps, step{kind: stepConstant, lit: f})
		return nil
	}
	return fmt.Errorf("cannot parse number %s", text)
}

// parseQuote reads quoted text up to its unescaped closing quote.
func (a *actionParser) parseQuote(quote rune) error {
	start := a.pos
	a.pos++
	for {
		if a.pos >= len(a.src) || a.src[a.pos] == '\n' {
			return fmt.Errorf("unterminated quoted string")
		}
		c := a.src[a.pos]
		a.pos++
		if rune(c) == quote && a.src[a.pos-2] != '\\' {
			break
		}
	}
	text := a.src[start:a.pos]
	s, err := unquoteExtend(text)
	if err != nil {
		return fmt.Errorf("unquote string %s error %v", text, err)
	}
	a.steps = append(a.steps, step{kind: stepLiteral, lit: s})
	return nil
}

// unquoteExtend is strconv.Unquote that also takes single quotes.
func unquoteExtend(s string) (string, error) {
	if len(s) < 2 || s[0] != s[len(s)-1] || s[0] != '"' && s[0] != '\'' {
		return "", strconv.ErrSyntax
	}
	quote := s[0]
	body := s[1 : len(s)-1]
	var b strings.Builder
	for len(body) > 0 {
		r, multibyte, tail, err := strconv.UnquoteChar(body, quote)
		if err != nil {
			return "", err
		}
		if r < utf8.RuneSelf || !multibyte {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
		body = tail
	}
	return b.String(), nil
}

// parseArray reads [...]: * (every element), an index or a slice, a
// 'key', or a comma-separated union of those.
func (a *actionParser) parseArray() error {
	end := strings.IndexAny(a.rest(), "]\n")
	if end < 0 || a.rest()[end] == '\n' {
		return fmt.Errorf("unterminated array")
	}
	text := a.src[a.pos+1 : a.pos+end]
	a.pos += end + 1
	if text == "*" {
		text = ":"
	}
	if parts := strings.Split(text, ","); len(parts) > 1 {
		var union [][]step
		for _, part := range parts {
			alt, err := parsePath("[" + strings.Trim(part, " ") + "]")
			if err != nil {
				return err
			}
			union = append(union, alt)
		}
		a.steps = append(a.steps, step{kind: stepUnion, union: union})
		return nil
	}
	if len(text) >= 2 && text[0] == '\'' && text[len(text)-1] == '\'' && !strings.Contains(text[1:len(text)-1], "'") {
		key, err := parsePath("." + text[1:len(text)-1])
		if err != nil {
			return err
		}
		a.steps = append(a.steps, key...)
		return nil
	}
	st, err := parseSlice(text)
	if err != nil {
		return err
	}
	a.steps = append(a.steps, st)
	return nil
}

// parseSlice reads start[:end[:step]], each part an optional integer; an
// index alone, [i], is the slice [i:i+1].
func parseSlice(text string) (step, error) {
	parts := strings.Split(text, ":")
	if len(parts) > 3 {
		return step{}, fmt.Errorf("invalid array index %s", text)
	}
	st := step{kind: stepSlice}
	for i, p := range parts {
		if p == "" {
			continue
		}
		if strings.Trim(strings.TrimPrefix(p, "-"), "0123456789") != "" {
			return step{}, fmt.Errorf("invalid array index %s", text)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return step{}, fmt.Errorf("array index %s is not a number", p)
		}
		st.slice[i] = &n
	}
	if len(parts) == 1 {
		// Without a colon the end is one past the start ([] is [0]).
		end := 1
		if st.slice[0] != nil {
			end = *st.slice[0] + 1
		}
		st.slice[1], st.derive = &end, true
	}
	return st, nil
}

// parseFilter reads [?(left op right)] or [?(path)], an existence test.
func (a *actionParser) parseFilter() error {
	a.pos += len("[?(")
	start := a.pos
	var quote byte
	closed := false
	for a.pos < len(a.src) && a.src[a.pos] != '\n' {
		c := a.src[a.pos]
		a.pos++
		if quote != 0 {
			if c == quote && a.src[a.pos-2] != '\\' {
				quote = 0
			}
			continue
		}
		if c == '"' || c == '\'' {
			quote = c
		} else if c == ')' {
			closed = true
			break
		}
	}
	if !closed {
		return fmt.Errorf("unterminated filter")
	}
	if a.pos >= len(a.src) || a.src[a.pos] != ']' {
		return fmt.Errorf("unclosed array expect ]")
	}
	text := a.src[start : a.pos-1]
	a.pos++
	f := &filter{op: "exists"}
	left, op, right, ok := splitComparison(text)
	if !ok {
		path, err := parsePath(text)
		if err != nil {
			return err
		}
		f.left = path
	} else {
		var err error
		if f.left, err = parsePath(left); err != nil {
			return err
		}
		if f.right, err = parsePath(right); err != nil {
			return err
		}
		f.op = op
	}
	a.steps = append(a.steps, step{kind: stepFilter, filter: f})
	return nil
}

// splitComparison splits a filter as upstream's pattern
// ^([^!<>=]+)([!<>=]+)(.+?)$ does: the left side up to the first of
// !<>=, the run of those as the operator, the rest (at least one
// character) as the right side.
func splitComparison(text string) (left, op, right string, ok bool) {
	i := strings.IndexAny(text, "!<>=")
	if i <= 0 {
		return "", "", "", false
	}
	j := i
	for j < len(text) && strings.IndexByte("!<>=", text[j]) >= 0 {
		j++
	}
	if j == len(text) {
		return "", "", "", false
	}
	return text[:i], text[i:j], text[j:], true
}

// isTerminator reports whether r ends a field name or an identifier.
func isTerminator(r rune) bool {
	switch r {
	case -1, ' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

func isAlphaNumeric(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
