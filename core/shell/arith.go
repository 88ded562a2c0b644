package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// Arithmetic expansion $(( )), (( )), let and for (( )): 64-bit integers
// with C's operators and precedence, variables by name, assignments.

type arithError struct{ msg string }

func (e *arithError) Error() string { return e.msg }

// arithWord expands w (parameters, command substitutions) and evaluates it.
func (s *Shell) arithWord(w *word, st streams) (int64, error) {
	text, err := s.expandString(w, st)
	if err != nil {
		return 0, err
	}
	return s.arith(text, 0)
}

// arith evaluates an expression; depth guards variables whose values are
// expressions naming each other.
func (s *Shell) arith(text string, depth int) (int64, error) {
	if depth > 20 {
		return 0, &arithError{msg: text + ": expression recursion level exceeded"}
	}
	a := &arithParser{s: s, src: text, depth: depth}
	a.skip()
	if a.pos >= len(a.src) {
		return 0, nil
	}
	v, err := a.comma(true)
	if err == nil && a.pos < len(a.src) {
		err = a.fail("syntax error in expression")
	}
	return v, err
}

type arithParser struct {
	s     *Shell
	src   string
	pos   int
	depth int
	nest  int
}

func (a *arithParser) fail(what string) error {
	tok := strings.TrimSpace(a.src[min(a.pos, len(a.src)):])
	return &arithError{msg: fmt.Sprintf("%s: %s (error token is \"%s\")", strings.TrimSpace(a.src), what, tok)}
}

func (a *arithParser) skip() {
	for a.pos < len(a.src) && strings.IndexByte(" \t\n\r", a.src[a.pos]) >= 0 {
		a.pos++
	}
}

func (a *arithParser) peek(op string) bool {
	return strings.HasPrefix(a.src[a.pos:], op)
}

// accept consumes op unless it is the prefix of a longer operator in not.
func (a *arithParser) accept(op string, not ...string) bool {
	if !a.peek(op) {
		return false
	}
	for _, n := range not {
		if a.peek(n) {
			return false
		}
	}
	a.pos += len(op)
	a.skip()
	return true
}

func (a *arithParser) comma(ev bool) (int64, error) {
	v, err := a.assign(ev)
	for err == nil && a.accept(",") {
		v, err = a.assign(ev)
	}
	return v, err
}

var assignOps = []string{"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "="}

func (a *arithParser) assign(ev bool) (int64, error) {
	save := a.pos
	if name := a.name(); name != "" {
		for _, op := range assignOps {
			if a.peek(op) && !(op == "=" && a.peek("==")) {
				a.pos += len(op)
				a.skip()
				rhs, err := a.assign(ev)
				if err != nil {
					return 0, err
				}
				if !ev {
					return rhs, nil
				}
				v := rhs
				if op != "=" {
					cur, err := a.variable(name)
					if err != nil {
						return 0, err
					}
					v, err = a.binary(op[:len(op)-1], cur, rhs)
					if err != nil {
						return 0, err
					}
				}
				a.s.setVar(name, strconv.FormatInt(v, 10))
				return v, nil
			}
		}
		a.pos = save
	}
	return a.ternary(ev)
}

func (a *arithParser) name() string {
	start := a.pos
	for a.pos < len(a.src) {
		c := a.src[a.pos]
		if c == '_' || isLetter(c) || a.pos > start && c >= '0' && c <= '9' {
			a.pos++
			continue
		}
		break
	}
	n := a.src[start:a.pos]
	a.skip()
	return n
}

func (a *arithParser) ternary(ev bool) (int64, error) {
	c, err := a.binLevel(0, ev)
	if err != nil || !a.accept("?") {
		return c, err
	}
	x, err := a.assign(ev && c != 0)
	if err != nil {
		return 0, err
	}
	if !a.accept(":") {
		return 0, a.fail("`:' expected for conditional expression")
	}
	y, err := a.ternary(ev && c == 0)
	if err != nil {
		return 0, err
	}
	if c != 0 {
		return x, nil
	}
	return y, nil
}

// levels of binary operators, loosest first; each entry lists an operator
// and the longer operators it must not be mistaken for.
var levels = [][][]string{
	{{"||"}},
	{{"&&"}},
	{{"|", "||", "|="}},
	{{"^", "^="}},
	{{"&", "&&", "&="}},
	{{"=="}, {"!="}},
	{{"<=", "<<"}, {">=", ">>"}, {"<", "<<", "<="}, {">", ">>", ">="}},
	{{"<<", "<<="}, {">>", ">>="}},
	{{"+", "++", "+="}, {"-", "--", "-="}},
	{{"*", "**", "*="}, {"/", "/="}, {"%", "%="}},
}

func (a *arithParser) binLevel(l int, ev bool) (int64, error) {
	if l == len(levels) {
		return a.power(ev)
	}
	v, err := a.binLevel(l+1, ev)
	if err != nil {
		return 0, err
	}
	for {
		matched := ""
		for _, op := range levels[l] {
			if a.accept(op[0], op[1:]...) {
				matched = op[0]
				break
			}
		}
		if matched == "" {
			return v, nil
		}
		// && and || do not evaluate their right side when decided.
		rev := ev
		if matched == "&&" && v == 0 || matched == "||" && v != 0 {
			rev = false
		}
		r, err := a.binLevel(l+1, rev)
		if err != nil {
			return 0, err
		}
		if !ev {
			continue
		}
		switch matched {
		case "&&":
			v = b2i(v != 0 && r != 0)
		case "||":
			v = b2i(v != 0 || r != 0)
		default:
			if v, err = a.binary(matched, v, r); err != nil {
				return 0, err
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (a *arithParser) binary(op string, x, y int64) (int64, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/", "%":
		if y == 0 {
			return 0, a.fail("division by 0")
		}
		if x == -1<<63 && y == -1 {
			if op == "/" {
				return x, nil
			}
			return 0, nil
		}
		if op == "/" {
			return x / y, nil
		}
		return x % y, nil
	case "<<":
		return x << (uint64(y) & 63), nil
	case ">>":
		return x >> (uint64(y) & 63), nil
	case "&":
		return x & y, nil
	case "|":
		return x | y, nil
	case "^":
		return x ^ y, nil
	case "==":
		return b2i(x == y), nil
	case "!=":
		return b2i(x != y), nil
	case "<":
		return b2i(x < y), nil
	case "<=":
		return b2i(x <= y), nil
	case ">":
		return b2i(x > y), nil
	case ">=":
		return b2i(x >= y), nil
	}
	return 0, a.fail("syntax error: invalid arithmetic operator")
}

func (a *arithParser) power(ev bool) (int64, error) {
	x, err := a.unary(ev)
	if err != nil || !a.accept("**") {
		return x, err
	}
	y, err := a.power(ev)
	if err != nil {
		return 0, err
	}
	if y < 0 {
		return 0, a.fail("exponent less than 0")
	}
	r := int64(1)
	for ; y > 0 && r != 0; y-- {
		r *= x
		if y > 64 && (x == 1 || x == 0 || x == -1) {
			continue
		}
		if y > 64 {
			break
		}
	}
	return r, nil
}

func (a *arithParser) unary(ev bool) (int64, error) {
	if a.nest++; a.nest > maxNesting {
		return 0, a.fail("expression nesting too deep")
	}
	defer func() { a.nest-- }()
	if a.peek("++") || a.peek("--") {
		save := a.pos
		inc := int64(1)
		if a.peek("--") {
			inc = -1
		}
		a.pos += 2
		a.skip()
		if name := a.name(); name != "" {
			v, err := a.variable(name)
			if err != nil || !ev {
				return v, err
			}
			v += inc
			a.s.setVar(name, strconv.FormatInt(v, 10))
			return v, nil
		}
		a.pos = save + 1 // --5 is -(-5)
		a.skip()
		v, err := a.unary(ev)
		if inc < 0 {
			return -v, err
		}
		return v, err
	}
	switch {
	case a.accept("-"):
		v, err := a.unary(ev)
		return -v, err
	case a.accept("+"):
		return a.unary(ev)
	case a.accept("!", "!="):
		v, err := a.unary(ev)
		return b2i(v == 0), err
	case a.accept("~"):
		v, err := a.unary(ev)
		return ^v, err
	}
	return a.postfix(ev)
}

func (a *arithParser) postfix(ev bool) (int64, error) {
	if a.pos >= len(a.src) {
		return 0, a.fail("syntax error: operand expected")
	}
	c := a.src[a.pos]
	switch {
	case c == '(':
		a.pos++
		a.skip()
		v, err := a.comma(ev)
		if err != nil {
			return 0, err
		}
		if !a.accept(")") {
			return 0, a.fail("missing `)'")
		}
		return v, nil
	case c >= '0' && c <= '9':
		return a.number()
	case c == '_' || isLetter(c):
		name := a.name()
		v, err := a.variable(name)
		if err != nil {
			return 0, err
		}
		if a.peek("++") || a.peek("--") {
			inc := int64(1)
			if a.peek("--") {
				inc = -1
			}
			a.pos += 2
			a.skip()
			if ev {
				a.s.setVar(name, strconv.FormatInt(v+inc, 10))
			}
		}
		return v, nil
	}
	return 0, a.fail("syntax error: operand expected")
}

func (a *arithParser) number() (int64, error) {
	start := a.pos
	for a.pos < len(a.src) && (a.src[a.pos] == '_' || a.src[a.pos] == '#' || a.src[a.pos] == 'x' || a.src[a.pos] == 'X' || isLetter(a.src[a.pos]) || a.src[a.pos] >= '0' && a.src[a.pos] <= '9' || a.src[a.pos] == '@') {
		a.pos++
	}
	lit := a.src[start:a.pos]
	a.skip()
	v, ok := parseArithNumber(lit)
	if !ok {
		a.pos = start
		return 0, a.fail("value too great for base")
	}
	return v, nil
}

// parseArithNumber reads 42, 0x2a, 052 and base#digits.
func parseArithNumber(lit string) (int64, bool) {
	base := 10
	digits := lit
	if i := strings.IndexByte(lit, '#'); i > 0 {
		b, err := strconv.Atoi(lit[:i])
		if err != nil || b < 2 || b > 64 {
			return 0, false
		}
		base, digits = b, lit[i+1:]
	} else if strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X") {
		base, digits = 16, lit[2:]
	} else if len(lit) > 1 && lit[0] == '0' {
		base, digits = 8, lit[1:]
	}
	if digits == "" {
		return 0, false
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c - 'A' + 10)
			if base > 36 {
				d += 26
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		v = v*int64(base) + int64(d)
	}
	return v, true
}

// variable reads a variable as a number; a value that is itself an
// expression is evaluated, an empty or unset one is 0.
func (a *arithParser) variable(name string) (int64, error) {
	v, _ := a.s.lookupParam(name)
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, nil
	}
	return a.s.arith(v, a.depth+1)
}
