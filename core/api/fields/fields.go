// Package fields is field selectors: kubectl's --field-selector syntax
// (metadata.name=x, status.phase!=Running, spec.nodeName=) and matching.
package fields

import (
	"fmt"
	"sort"
	"strings"
)

// Set maps field paths to values ("metadata.name" → "web-0").
type Set map[string]string

// requirement is one field=value or field!=value.
type requirement struct {
	field, value string
	not          bool
}

// Selector matches field sets.
type Selector struct {
	reqs []requirement
}

// Everything selects all objects.
func Everything() Selector { return Selector{} }

// Empty reports whether the selector has no requirements.
func (s Selector) Empty() bool { return len(s.reqs) == 0 }

// Matches reports whether every requirement holds; a field the set lacks
// reads as "".
func (s Selector) Matches(f Set) bool {
	for _, r := range s.reqs {
		if (f[r.field] == r.value) == r.not {
			return false
		}
	}
	return true
}

// RequiresExactMatch returns the value field must equal, if the selector says.
func (s Selector) RequiresExactMatch(field string) (string, bool) {
	for _, r := range s.reqs {
		if r.field == field && !r.not {
			return r.value, true
		}
	}
	return "", false
}

// Fields lists the field paths the selector reads.
func (s Selector) Fields() []string {
	var out []string
	for _, r := range s.reqs {
		out = append(out, r.field)
	}
	return out
}

// String prints the selector, requirements sorted by field.
func (s Selector) String() string {
	parts := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		op := "="
		if r.not {
			op = "!="
		}
		parts[i] = r.field + op + escape(r.value)
	}
	return strings.Join(parts, ",")
}

func escape(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)
	return r.Replace(v)
}

// Parse reads a --field-selector string. Values may escape ',', '=' and '\'
// with a backslash.
func Parse(selector string) (Selector, error) {
	var s Selector
	if strings.TrimSpace(selector) == "" {
		return s, nil
	}
	for _, part := range splitTerms(selector) {
		r, ok := parseTerm(part)
		if !ok {
			return Selector{}, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", selector, part)
		}
		s.reqs = append(s.reqs, r)
	}
	sort.SliceStable(s.reqs, func(i, j int) bool { return s.reqs[i].field < s.reqs[j].field })
	return s, nil
}

// splitTerms splits on unescaped commas.
func splitTerms(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func parseTerm(t string) (requirement, bool) {
	for i := 0; i < len(t); i++ {
		var r requirement
		switch {
		case t[i] == '\\':
			i++
			continue
		case strings.HasPrefix(t[i:], "!="):
			r = requirement{value: unescape(t[i+2:]), not: true}
		case strings.HasPrefix(t[i:], "=="):
			r = requirement{value: unescape(t[i+2:])}
		case t[i] == '=':
			r = requirement{value: unescape(t[i+1:])}
		default:
			continue
		}
		r.field = strings.TrimSpace(t[:i])
		return r, isFieldPath(r.field)
	}
	return requirement{}, false
}

func unescape(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// isFieldPath accepts the dotted paths field selectors use (status.phase).
func isFieldPath(f string) bool {
	if f == "" {
		return false
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '/') {
			return false
		}
	}
	return true
}
