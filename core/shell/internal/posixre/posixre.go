// Package posixre translates POSIX regular expressions, basic (grep, sed)
// and extended (grep -E, sed -E, awk), with GNU's extensions, into Go's
// RE2 syntax, and compiles them for leftmost-longest matching as POSIX
// requires. Errors are worded as GNU's regex library words them.
package posixre

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Error is a translation or compile error ("Unmatched ( or \(").
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

var (
	errBracket  = &Error{"Unmatched [, [^, [:, [., or [="}
	errOpen     = &Error{"Unmatched ( or \\("}
	errClose    = &Error{"Unmatched ) or \\)"}
	errTrailing = &Error{"Trailing backslash"}
	errInterval = &Error{"Invalid content of \\{\\}"}
	errBrace    = &Error{"Unmatched \\{"}
	errBackref  = &Error{"Invalid back reference"}
	errClass    = &Error{"Invalid character class name"}
	errRange    = &Error{"Invalid range end"}
	errPreceed  = &Error{"Invalid preceding regular expression"}
)

// maxPattern bounds the pattern size accepted (RE2 has its own limits too).
const maxPattern = 1 << 16

// Compile translates and compiles a pattern. ere selects extended syntax.
func Compile(pattern string, ere, icase bool) (*regexp.Regexp, error) {
	t, err := Translate(pattern, ere)
	if err != nil {
		return nil, err
	}
	if icase {
		t = "(?i)" + t
	}
	re, err := regexp.Compile(t)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			switch se.Code {
			case syntax.ErrInvalidCharRange:
				return nil, errRange
			case syntax.ErrMissingParen:
				return nil, errOpen
			case syntax.ErrUnexpectedParen:
				return nil, errClose
			case syntax.ErrMissingBracket:
				return nil, errBracket
			case syntax.ErrInvalidRepeatSize, syntax.ErrInvalidRepeatOp, syntax.ErrMissingRepeatArgument:
				return nil, errPreceed
			case syntax.ErrLarge, syntax.ErrNestingDepth:
				return nil, &Error{"Regular expression too big"}
			}
		}
		return nil, &Error{"Invalid regular expression"}
	}
	re.Longest()
	return re, nil
}

// Translate rewrites a POSIX pattern in RE2 syntax.
func Translate(p string, ere bool) (string, error) {
	if len(p) > maxPattern {
		return "", &Error{"Regular expression too big"}
	}
	var b strings.Builder
	depth := 0
	atStart := true // where * is literal and ^ anchors (BRE)
	lastRep := false
	emit := func(s string, start, rep bool) {
		b.WriteString(s)
		atStart, lastRep = start, rep
	}
	repeat := func(op string) {
		// POSIX allows a** and a*?; RE2 rejects or reads them as lazy,
		// and a repeated repetition matches the same, so drop it.
		if lastRep {
			return
		}
		emit(op, false, true)
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", errTrailing
			}
			n := p[i+1]
			i += 2
			if !ere {
				switch n {
				case '(':
					depth++
					emit("(", true, false)
					continue
				case ')':
					if depth == 0 {
						return "", errClose
					}
					depth--
					emit(")", false, false)
					continue
				case '|':
					emit("|", true, false)
					continue
				case '{':
					end := strings.Index(p[i:], "\\}")
					if end < 0 {
						return "", errBrace
					}
					iv := p[i : i+end]
					if !validInterval(iv) {
						return "", errInterval
					}
					i += end + 2
					if atStart {
						return "", errPreceed
					}
					repeat("{" + iv + "}")
					continue
				case '+', '?':
					if atStart {
						emit(regexp.QuoteMeta(string(n)), false, false)
					} else {
						repeat(string(n))
					}
					continue
				}
			}
			switch n {
			case '<', '>':
				emit(`\b`, false, false)
			case 'b', 'B', 'w', 'W', 's', 'S':
				emit(`\`+string(n), false, false)
			case '`':
				emit(`\A`, false, false)
			case '\'':
				emit(`\z`, false, false)
			case 'n':
				emit(`\n`, false, false)
			case 't':
				emit(`\t`, false, false)
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return "", errBackref
			default:
				emit(regexp.QuoteMeta(string(n)), false, false)
			}
		case c == '[':
			cls, n, err := bracket(p[i:])
			if err != nil {
				return "", err
			}
			i += n
			emit(cls, false, false)
		case c == '*':
			i++
			if atStart {
				emit(`\*`, false, false)
			} else {
				repeat("*")
			}
		case c == '^':
			i++
			if ere || atStart {
				emit("^", true, false)
			} else {
				emit(`\^`, false, false)
			}
		case c == '$':
			i++
			rest := p[i:]
			if ere || rest == "" || strings.HasPrefix(rest, `\)`) || strings.HasPrefix(rest, `\|`) {
				emit("$", false, false)
			} else {
				emit(`\$`, false, false)
			}
		case c == '.':
			i++
			emit(".", false, false)
		case ere && c == '(':
			i++
			depth++
			emit("(", true, false)
		case ere && c == ')':
			i++
			if depth == 0 {
				emit(`\)`, false, false)
				continue
			}
			depth--
			emit(")", false, false)
		case ere && c == '|':
			i++
			emit("|", true, false)
		case ere && (c == '+' || c == '?'):
			i++
			if atStart {
				emit(`\`+string(c), false, false)
			} else {
				repeat(string(c))
			}
		case ere && c == '{':
			end := strings.IndexByte(p[i:], '}')
			if end > 0 && validInterval(p[i+1:i+end]) && !atStart {
				repeat(p[i : i+end+1])
				i += end + 1
				continue
			}
			i++
			emit(`\{`, false, false)
		default:
			// Copy one character (a whole UTF-8 sequence) literally.
			j := i + 1
			for j < len(p) && p[j]&0xC0 == 0x80 {
				j++
			}
			emit(regexp.QuoteMeta(p[i:j]), false, false)
			i = j
		}
	}
	if depth > 0 {
		return "", errOpen
	}
	return b.String(), nil
}

// validInterval checks the inside of {m,n}.
func validInterval(s string) bool {
	lo, hi, comma := strings.Cut(s, ",")
	digits := func(t string) bool {
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return false
			}
		}
		return len(t) <= 4
	}
	if !digits(lo) || !digits(hi) || lo == "" && (!comma || hi == "") {
		return false
	}
	if lo == "" {
		return true
	}
	return true
}

var classes = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true, "space": true,
	"blank": true, "punct": true, "print": true, "graph": true, "cntrl": true, "xdigit": true,
}

// bracket translates a bracket expression starting at s[0] == '['.
func bracket(s string) (string, int, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && s[i] == '^' {
		b.WriteByte('^')
		i++
	}
	if i < len(s) && s[i] == ']' {
		b.WriteString(`\]`)
		i++
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ']':
			b.WriteByte(']')
			return b.String(), i + 1, nil
		case c == '[' && i+1 < len(s) && s[i+1] == ':':
			end := strings.Index(s[i+2:], ":]")
			if end < 0 {
				return "", 0, errBracket
			}
			name := s[i+2 : i+2+end]
			if !classes[name] {
				return "", 0, errClass
			}
			b.WriteString("[:" + name + ":]")
			i += end + 4
		case c == '[' && i+1 < len(s) && (s[i+1] == '=' || s[i+1] == '.'):
			closer := string(s[i+1]) + "]"
			end := strings.Index(s[i+2:], closer)
			if end < 0 {
				return "", 0, errBracket
			}
			b.WriteString(regexp.QuoteMeta(s[i+2 : i+2+end]))
			i += end + 4
		case c == '\\' || c == '[':
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		default:
			j := i + 1
			for j < len(s) && s[j]&0xC0 == 0x80 {
				j++
			}
			b.WriteString(s[i:j])
			i = j
		}
	}
	return "", 0, errBracket
}
