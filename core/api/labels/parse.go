package labels

import (
	"fmt"
)

// token kinds of the -l syntax.
type token int

const (
	tokError token = iota
	tokEnd
	tokIdentifier
	tokDoesNotExist // !
	tokEquals       // =
	tokDoubleEquals // ==
	tokNotEquals    // !=
	tokComma
	tokOpenParen
	tokCloseParen
	tokIn
	tokNotIn
	tokGreaterThan
	tokLessThan
)

var tokenNames = map[token]string{
	tokError: "ErrorToken", tokEnd: "EndOfStringToken", tokIdentifier: "IdentifierToken",
	tokDoesNotExist: "DoesNotExistToken", tokEquals: "EqualsToken", tokDoubleEquals: "DoubleEqualsToken",
	tokNotEquals: "NotEqualsToken", tokComma: "CommaToken", tokOpenParen: "OpenParToken",
	tokCloseParen: "ClosedParToken", tokIn: "InToken", tokNotIn: "NotInToken",
	tokGreaterThan: "GreaterThanToken", tokLessThan: "LessThanToken",
}

func isSpecial(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

func isWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

type item struct {
	tok token
	lit string
}

// lex splits s into tokens.
func lex(s string) []item {
	var out []item
	i := 0
	for {
		for i < len(s) && isWhitespace(s[i]) {
			i++
		}
		if i >= len(s) {
			return append(out, item{tokEnd, ""})
		}
		c := s[i]
		switch {
		case isSpecial(c):
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch {
			case two == "==":
				out, i = append(out, item{tokDoubleEquals, two}), i+2
			case two == "!=":
				out, i = append(out, item{tokNotEquals, two}), i+2
			default:
				t := map[byte]token{'=': tokEquals, '!': tokDoesNotExist, '(': tokOpenParen, ')': tokCloseParen, ',': tokComma, '>': tokGreaterThan, '<': tokLessThan}[c]
				out, i = append(out, item{t, string(c)}), i+1
			}
		default:
			j := i
			for j < len(s) && !isSpecial(s[j]) && !isWhitespace(s[j]) {
				j++
			}
			lit := s[i:j]
			switch lit {
			case "in":
				out = append(out, item{tokIn, lit})
			case "notin":
				out = append(out, item{tokNotIn, lit})
			default:
				out = append(out, item{tokIdentifier, lit})
			}
			i = j
		}
	}
}

type parser struct {
	items []item
	pos   int
}

func (p *parser) peek() item { return p.items[p.pos] }

func (p *parser) next() item {
	it := p.items[p.pos]
	if p.pos < len(p.items)-1 {
		p.pos++
	}
	return it
}

// Parse reads kubectl's -l syntax. The empty string selects everything.
func Parse(selector string) (Selector, error) {
	p := &parser{items: lex(selector)}
	var s internalSelector
	if p.peek().tok == tokEnd {
		return s, nil
	}
	for {
		r, err := p.requirement()
		if err != nil {
			return nil, err
		}
		s = append(s, *r)
		switch it := p.next(); it.tok {
		case tokEnd:
			sortRequirements(s)
			return s, nil
		case tokComma:
			if t := p.peek().tok; t == tokEnd || t == tokComma {
				return nil, fmt.Errorf("found '%s', expected: identifier after ','", p.peek().lit)
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", it.lit)
		}
	}
}

func (p *parser) requirement() (*Requirement, error) {
	op := Exists
	if p.peek().tok == tokDoesNotExist {
		p.next()
		op = DoesNotExist
	}
	key := p.next()
	if key.tok != tokIdentifier {
		return nil, fmt.Errorf("found '%s', expected: identifier", key.lit)
	}
	if err := validateLabelKey(key.lit); err != nil {
		return nil, fmt.Errorf("unable to parse requirement: %v", err)
	}
	if t := p.peek().tok; t == tokEnd || t == tokComma {
		r, err := NewRequirement(key.lit, op, nil)
		if err != nil {
			return nil, fmt.Errorf("unable to parse requirement: %v", err)
		}
		return r, nil
	}
	if op == DoesNotExist {
		return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", p.peek().lit)
	}
	opTok := p.next()
	var vals []string
	switch opTok.tok {
	case tokEquals, tokDoubleEquals, tokNotEquals, tokGreaterThan, tokLessThan:
		op = map[token]Operator{tokEquals: Equals, tokDoubleEquals: DoubleEquals, tokNotEquals: NotEquals, tokGreaterThan: GreaterThan, tokLessThan: LessThan}[opTok.tok]
		switch v := p.peek(); v.tok {
		case tokIdentifier:
			p.next()
			vals = []string{v.lit}
		case tokEnd, tokComma:
			vals = []string{""}
		default:
			return nil, fmt.Errorf("found '%s', expected: identifier", v.lit)
		}
	case tokIn, tokNotIn:
		op = In
		if opTok.tok == tokNotIn {
			op = NotIn
		}
		if it := p.next(); it.tok != tokOpenParen {
			return nil, fmt.Errorf("found '%s', expected: '('", it.lit)
		}
		set, err := p.values()
		if err != nil {
			return nil, err
		}
		vals = set
	default:
		return nil, fmt.Errorf("found '%s', expected: %s", opTok.lit, "in, notin, =, ==, !=, gt, lt")
	}
	r, err := NewRequirement(key.lit, op, vals)
	if err != nil {
		return nil, fmt.Errorf("unable to parse requirement: %v", err)
	}
	return r, nil
}

// values reads "a, b, c)" after an opening parenthesis; empty entries are
// empty strings, as upstream reads "(a,)".
func (p *parser) values() ([]string, error) {
	var vals []string
	expectValue := true
	for {
		it := p.next()
		switch it.tok {
		case tokIdentifier:
			if !expectValue {
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", it.lit)
			}
			vals = append(vals, it.lit)
			expectValue = false
		case tokComma:
			if expectValue {
				vals = append(vals, "")
			}
			expectValue = true
		case tokCloseParen:
			if expectValue && len(vals) > 0 {
				vals = append(vals, "")
			}
			return dedupe(vals), nil
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", it.lit)
		}
	}
}

func dedupe(vals []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// MustParse is Parse for literals in code.
func MustParse(s string) Selector {
	sel, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return sel
}
