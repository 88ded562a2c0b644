package shell

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"kubeplay/core/vfs"
)

// Glob patterns: * ? [...] with ! or ^ negation, ranges and [:classes:],
// backslash quoting the next character. Unlike path.Match, * matches '/',
// as case patterns, [[ == ]] and ${x#pat} need; pathname expansion matches
// one component at a time so it never sees a '/'.

// hasGlobMeta reports whether p has an unquoted * ? or [.
func hasGlobMeta(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// escapeGlob quotes every pattern character of s.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, "*?[]\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("*?[]\\", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeGlob removes pattern quoting: the literal text a pattern stands for.
func unescapeGlob(p string) string {
	if !strings.Contains(p, "\\") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// globMatch reports whether s matches the whole pattern. It backtracks
// only to the last *, so it runs in O(len(p)*len(s)).
func globMatch(p, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, -1
	for sx < len(s) || px < len(p) {
		if px < len(p) {
			switch p[px] {
			case '*':
				starP, starS = px, sx
				px++
				continue
			case '?':
				if sx < len(s) {
					_, n := utf8.DecodeRuneInString(s[sx:])
					px++
					sx += n
					continue
				}
			case '[':
				if sx < len(s) {
					r, n := utf8.DecodeRuneInString(s[sx:])
					if ok, end := matchClass(p, px, r); end > 0 {
						if ok {
							px = end
							sx += n
							continue
						}
					} else if s[sx] == '[' { // an unclosed [ is literal
						px++
						sx++
						continue
					}
				}
			case '\\':
				if px+1 < len(p) && sx < len(s) && p[px+1] == s[sx] {
					px += 2
					sx++
					continue
				}
				if px+1 == len(p) && sx < len(s) && s[sx] == '\\' {
					px++
					sx++
					continue
				}
			default:
				if sx < len(s) && p[px] == s[sx] {
					px++
					sx++
					continue
				}
			}
		}
		if starP >= 0 && starS < len(s) {
			_, n := utf8.DecodeRuneInString(s[starS:])
			starS += n
			px, sx = starP+1, starS
			continue
		}
		return false
	}
	return true
}

// matchClass matches r against the bracket expression at p[i] ('[').
// end is the index after ']' or 0 if the bracket is not closed.
func matchClass(p string, i int, r rune) (ok bool, end int) {
	j := i + 1
	neg := false
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		neg = true
		j++
	}
	matched := false
	first := true
	for j < len(p) {
		if p[j] == ']' && !first {
			return matched != neg, j + 1
		}
		first = false
		if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
			if k := strings.Index(p[j+2:], ":]"); k >= 0 {
				if classMatch(p[j+2:j+2+k], r) {
					matched = true
				}
				j += k + 4
				continue
			}
		}
		lo, n := utf8.DecodeRuneInString(p[j:])
		if lo == '\\' && j+1 < len(p) {
			lo, n = utf8.DecodeRuneInString(p[j+1:])
			n++
		}
		j += n
		hi := lo
		if j+1 < len(p) && p[j] == '-' && p[j+1] != ']' {
			h, m := utf8.DecodeRuneInString(p[j+1:])
			if h == '\\' && j+2 < len(p) {
				h, m = utf8.DecodeRuneInString(p[j+2:])
				m++
			}
			hi = h
			j += 1 + m
		}
		if lo <= r && r <= hi {
			matched = true
		}
	}
	return false, 0
}

func classMatch(name string, r rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r)
	case "xdigit":
		return strings.ContainsRune("0123456789abcdefABCDEF", r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsPrint(r) && r != ' '
	case "cntrl":
		return unicode.IsControl(r)
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// maxGlobMatches bounds one pathname expansion.
const maxGlobMatches = 10000

// glob expands a pathname pattern against the filesystem, sorted; nil when
// nothing matches (the caller then keeps the word as it was).
func (s *Shell) glob(pattern string) []string {
	abs := strings.HasPrefix(pattern, "/")
	comps := strings.Split(strings.Trim(pattern, "/"), "/")
	dirOnly := strings.HasSuffix(pattern, "/")
	type cand struct{ shown, real string }
	base := cand{shown: "", real: s.Cwd}
	if abs {
		base = cand{shown: "/", real: "/"}
	}
	cur := []cand{base}
	for ci, c := range comps {
		if c == "" {
			continue
		}
		last := ci == len(comps)-1
		var next []cand
		for _, d := range cur {
			if !hasGlobMeta(c) {
				lit := unescapeGlob(c)
				real := vfs.Clean(d.real, lit)
				if (last && !dirOnly && s.FS.Exists(real)) || s.FS.IsDir(real) {
					next = append(next, cand{shown: d.shown + lit, real: real})
				}
				continue
			}
			entries, err := s.FS.ReadDir(d.real)
			if err != nil {
				continue
			}
			for _, e := range entries {
				n := e.Name()
				if strings.HasPrefix(n, ".") && !strings.HasPrefix(c, ".") && !strings.HasPrefix(c, "\\.") {
					continue
				}
				if !globMatch(c, n) {
					continue
				}
				if (!last || dirOnly) && !e.IsDir() {
					continue
				}
				next = append(next, cand{shown: d.shown + n, real: vfs.Clean(d.real, n)})
				if len(next) > maxGlobMatches {
					break
				}
			}
		}
		if !last {
			for i := range next {
				next[i].shown += "/"
			}
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	out := make([]string, 0, len(cur))
	for _, c := range cur {
		shown := c.shown
		if dirOnly {
			shown += "/"
		}
		out = append(out, shown)
	}
	sort.Strings(out)
	return out
}
