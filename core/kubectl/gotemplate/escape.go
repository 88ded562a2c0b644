package gotemplate

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// html, js and urlquery: their arguments printed together, then escaped
// as text/template escapes them.

func escaper(escape func(string) string) func(a []value) (value, error) {
	return func(a []value) (value, error) { return of(escape(joinArgs(a))), nil }
}

// joinArgs is fmt.Sprint of the arguments, with <no value> for nil.
func joinArgs(a []value) string {
	if len(a) == 1 {
		if s, ok := a[0].x.(string); ok {
			return s
		}
	}
	xs := anys(a)
	for i, x := range xs {
		if x == nil {
			xs[i] = "<no value>"
		}
	}
	return fmt.Sprint(xs...)
}

func htmlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch c {
		case 0:
			b.WriteString("\uFFFD")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func jsEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsPrint(r) {
				b.WriteString(s[i : i+size])
			} else {
				fmt.Fprintf(&b, "\\u%04X", r)
			}
			i += size - 1
			continue
		}
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '"':
			b.WriteString(`\"`)
		case '<':
			b.WriteString(`\u003C`)
		case '>':
			b.WriteString(`\u003E`)
		case '&':
			b.WriteString(`\u0026`)
		case '=':
			b.WriteString(`\u003D`)
		default:
			if c < ' ' {
				fmt.Fprintf(&b, `\u00%02X`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
