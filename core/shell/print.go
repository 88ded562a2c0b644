package shell

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// echo and printf, as bash's builtins.

// maxPrintWidth bounds printf's field widths and precisions.
const maxPrintWidth = 1 << 16

func echoCmd(ctx *Context, args []string) int {
	newline, escapes := true, false
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			text, stop := expandEscapes(a, true)
			b.WriteString(text)
			if stop {
				io.WriteString(ctx.Stdout, b.String())
				return 0
			}
		} else {
			b.WriteString(a)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(ctx.Stdout, b.String()); err != nil {
		berr(ctx, "write error: %s", err.Error())
		return 1
	}
	return 0
}

// expandEscapes interprets backslash escapes as echo -e and printf's %b
// do (echoStyle: octal is \0NNN); stop is set by \c.
func expandEscapes(s string, echoStyle bool) (string, bool) {
	if !strings.Contains(s, "\\") {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'c':
			return b.String(), true
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\':
			b.WriteByte('\\')
		case '"', '\'', '?':
			if echoStyle {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		case 'x':
			v, n := hexDigits(s[i+1:], 2)
			if n == 0 {
				b.WriteString("\\x")
				continue
			}
			b.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			m := 4
			if e == 'U' {
				m = 8
			}
			v, n := hexDigits(s[i+1:], m)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			b.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			maxDigits := 3
			start := i
			if echoStyle {
				if e != '0' {
					b.WriteByte('\\')
					b.WriteByte(e)
					continue
				}
				start = i + 1
			}
			v, n := 0, 0
			for n < maxDigits && start+n < len(s) && s[start+n] >= '0' && s[start+n] <= '7' {
				v = v*8 + int(s[start+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i = start + n - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), false
}

func printfCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	varName := ""
	if len(args) >= 2 && args[0] == "-v" {
		varName = args[1]
		args = args[2:]
		if !isName(varName) {
			berr(ctx, "`%s': not a valid identifier", varName)
			return 2
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(ctx.Stderr, "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	format, rest := args[0], args[1:]
	var out strings.Builder
	p := &printer{ctx: ctx}
	for {
		consumed, stop := p.format(&out, format, rest)
		if stop || consumed == 0 || consumed >= len(rest) || out.Len() > maxWordBytes {
			break
		}
		rest = rest[consumed:]
	}
	if varName != "" {
		s.setVar(varName, out.String())
	} else if _, err := io.WriteString(ctx.Stdout, out.String()); err != nil {
		berr(ctx, "write error: %s", err.Error())
		return 1
	}
	return p.status
}

type printer struct {
	ctx    *Context
	status int
}

// format writes one pass of the format, returning how many arguments it
// used; stop is set by \c or %b's \c.
func (p *printer) format(out *strings.Builder, f string, args []string) (consumed int, stop bool) {
	next := func() (string, bool) {
		if consumed < len(args) {
			consumed++
			return args[consumed-1], true
		}
		return "", false
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '\\' {
			j := i + 1
			if j < len(f) && f[j] == 'c' {
				return consumed, true
			}
			// One escape at a time: find its extent.
			end := j + 1
			if j < len(f) {
				switch {
				case f[j] >= '0' && f[j] <= '7':
					for end < len(f) && end < j+3 && f[end] >= '0' && f[end] <= '7' {
						end++
					}
				case f[j] == 'x':
					_, n := hexDigits(f[j+1:], 2)
					end = j + 1 + n
				case f[j] == 'u':
					_, n := hexDigits(f[j+1:], 4)
					end = j + 1 + n
				case f[j] == 'U':
					_, n := hexDigits(f[j+1:], 8)
					end = j + 1 + n
				}
			}
			end = min(end, len(f))
			text, _ := expandEscapes(f[i:end], false)
			out.WriteString(text)
			i = end - 1
			continue
		}
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			out.WriteByte('%')
			i++
			continue
		}
		// %[flags][width][.precision]verb
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0", f[j]) >= 0 {
			j++
		}
		flags := f[i+1 : j]
		width, prec := "", ""
		if j < len(f) && f[j] == '*' {
			a, _ := next()
			n, _ := strconv.Atoi(a)
			width = strconv.Itoa(clampWidth(n))
			j++
		} else {
			k := j
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			width = f[k:j]
		}
		hasPrec := false
		if j < len(f) && f[j] == '.' {
			hasPrec = true
			j++
			if j < len(f) && f[j] == '*' {
				a, _ := next()
				n, _ := strconv.Atoi(a)
				prec = strconv.Itoa(clampWidth(n))
				j++
			} else {
				k := j
				for j < len(f) && f[j] >= '0' && f[j] <= '9' {
					j++
				}
				prec = f[k:j]
			}
		}
		for j < len(f) && strings.IndexByte("hlLjzt", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			berr(p.ctx, "`%s': missing format character", f[i:])
			p.status = 1
			return consumed, true
		}
		verb := f[j]
		if w, err := strconv.Atoi(width); err == nil && w > maxPrintWidth {
			width = strconv.Itoa(maxPrintWidth)
		}
		if pr, err := strconv.Atoi(prec); err == nil && pr > maxPrintWidth {
			prec = strconv.Itoa(maxPrintWidth)
		}
		spec := "%" + flags + width
		if hasPrec {
			spec += "." + prec
		}
		arg, _ := next()
		switch verb {
		case 's':
			fmt.Fprintf(out, spec+"s", arg)
		case 'b':
			text, st := expandEscapes(arg, true)
			fmt.Fprintf(out, spec+"s", text)
			if st {
				return consumed, true
			}
		case 'q':
			fmt.Fprintf(out, spec+"s", printfQuote(arg))
		case 'c':
			r, _ := utf8.DecodeRuneInString(arg)
			if arg == "" {
				fmt.Fprintf(out, spec+"s", "")
			} else {
				fmt.Fprintf(out, spec+"c", r)
			}
		case 'd', 'i':
			fmt.Fprintf(out, spec+"d", p.integer(arg))
		case 'u':
			fmt.Fprintf(out, spec+"d", uint64(p.integer(arg)))
		case 'o', 'x', 'X':
			fmt.Fprintf(out, spec+string(verb), uint64(p.integer(arg)))
		case 'e', 'E', 'f', 'F', 'g', 'G':
			v := p.float(arg)
			vb := verb
			if vb == 'F' {
				vb = 'f'
			}
			text := fmt.Sprintf(spec+string(vb), v)
			if math.IsInf(v, 0) || math.IsNaN(v) {
				text = strings.ToLower(text)
				if verb >= 'A' && verb <= 'Z' {
					text = strings.ToUpper(text)
				}
			}
			out.WriteString(text)
		default:
			berr(p.ctx, "%%%c: invalid format character", verb)
			p.status = 1
			return consumed, true
		}
		i = j
	}
	return consumed, false
}

func clampWidth(n int) int {
	if n > maxPrintWidth {
		return maxPrintWidth
	}
	if n < -maxPrintWidth {
		return -maxPrintWidth
	}
	return n
}

// integer reads a printf numeric argument: decimal, 0x, 0 octal, 'c.
func (p *printer) integer(a string) int64 {
	t := strings.TrimSpace(a)
	if t == "" {
		return 0
	}
	if t[0] == '\'' || t[0] == '"' {
		r, _ := utf8.DecodeRuneInString(t[1:])
		if len(t) == 1 {
			return 0
		}
		return int64(r)
	}
	v, err := strconv.ParseInt(t, 0, 64)
	if err == nil {
		return v
	}
	if u, err := strconv.ParseUint(t, 0, 64); err == nil {
		return int64(u)
	}
	// Use the numeric prefix, as bash does, and report the rest.
	k := 0
	if k < len(t) && (t[k] == '-' || t[k] == '+') {
		k++
	}
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	v, _ = strconv.ParseInt(t[:k], 10, 64)
	berr(p.ctx, "%s: invalid number", a)
	p.status = 1
	return v
}

func (p *printer) float(a string) float64 {
	t := strings.TrimSpace(a)
	if t == "" {
		return 0
	}
	if t[0] == '\'' || t[0] == '"' {
		r, _ := utf8.DecodeRuneInString(t[1:])
		return float64(r)
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if iv, err := strconv.ParseInt(t, 0, 64); err == nil {
			return float64(iv)
		}
		berr(p.ctx, "%s: invalid number", a)
		p.status = 1
		return 0
	}
	return v
}

// printfQuote is %q: the argument quoted for reuse as shell input.
func printfQuote(s string) string {
	if s == "" {
		return "''"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%^", c) >= 0 || c >= 0x80 {
			b.WriteByte(c)
			continue
		}
		if c == '\n' || c == '\t' || c < 0x20 {
			return "$'" + strings.NewReplacer("\\", "\\\\", "'", "\\'", "\n", "\\n", "\t", "\\t").Replace(s) + "'"
		}
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return b.String()
}
