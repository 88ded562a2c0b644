package shell

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxWordBytes bounds one expanded word (x=$x$x doubles fast).
const maxWordBytes = 16 << 20

// maxBraceWords bounds what one brace expansion produces.
const maxBraceWords = 10000

// expandError is an expansion failure ("bad substitution"); fatal marks
// the ones that end a non-interactive shell (${x:?}, set -u).
type expandError struct {
	msg   string
	fatal bool
}

func (e *expandError) Error() string { return e.msg }

// expandFailed reports an expansion error; like bash, a non-interactive
// shell stops there.
func (s *Shell) expandFailed(err error, st streams) int {
	var ee *expandError
	if errors.As(err, &ee) {
		s.errorf(st, "%s", ee.msg)
		if !s.Interactive || ee.fatal && !s.Interactive {
			s.status = 1
			s.flow = flowExit
		}
	} else {
		s.errorf(st, "%v", err)
	}
	s.status = 1
	return 1
}

// field is one expanded word: its text, and a glob pattern of it in which
// quoted characters are escaped.
type field struct {
	text string
	pat  string
	glob bool
}

// fieldBuf builds fields while parts expand.
type fieldBuf struct {
	fields []field
	text   strings.Builder
	pat    strings.Builder
	glob   bool
	has    bool
	ifs    string
	err    error
}

func (b *fieldBuf) check() {
	if b.text.Len() > maxWordBytes && b.err == nil {
		b.err = &expandError{msg: "expansion too large", fatal: true}
	}
}

func (b *fieldBuf) quoted(s string) {
	b.text.WriteString(s)
	b.pat.WriteString(escapeGlob(s))
	b.has = true
	b.check()
}

func (b *fieldBuf) literal(s string) {
	b.text.WriteString(s)
	b.pat.WriteString(s)
	if hasGlobMeta(s) {
		b.glob = true
	}
	b.has = true
	b.check()
}

func (b *fieldBuf) end() {
	if b.has {
		b.fields = append(b.fields, field{text: b.text.String(), pat: b.pat.String(), glob: b.glob})
	}
	b.text.Reset()
	b.pat.Reset()
	b.glob, b.has = false, false
}

// split adds an unquoted expansion result, splitting it at IFS characters.
func (b *fieldBuf) split(s string) {
	ifs := b.ifs
	if ifs == "" {
		if s != "" {
			b.literal(s)
		}
		return
	}
	white := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	isIFS := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	i := 0
	for i < len(s) {
		if !isIFS(s[i]) {
			j := i
			for j < len(s) && !isIFS(s[j]) {
				j++
			}
			b.literal(s[i:j])
			i = j
			continue
		}
		j := i
		for j < len(s) && white(s[j]) {
			j++
		}
		hard := false
		if j < len(s) && isIFS(s[j]) && !white(s[j]) {
			hard = true
			j++
			for j < len(s) && white(s[j]) {
				j++
			}
		}
		if hard {
			b.has = true
		}
		b.end()
		i = j
	}
}

func (s *Shell) ifs() string {
	if v, ok := s.Env["IFS"]; ok {
		return v
	}
	return " \t\n"
}

// expandWords expands command words: brace expansion, parameters,
// command substitution, arithmetic, field splitting, pathname expansion.
func (s *Shell) expandWords(words []*word, st streams) ([]string, error) {
	var out []string
	for _, w := range words {
		for _, bw := range braceExpand(w) {
			fields, err := s.expandFields(bw, st)
			if err != nil {
				return nil, err
			}
			for _, f := range fields {
				if f.glob && !s.opts.noglob {
					if m := s.glob(f.pat); len(m) > 0 {
						out = append(out, m...)
						continue
					}
				}
				out = append(out, f.text)
			}
		}
	}
	return out, nil
}

func (s *Shell) expandFields(w *word, st streams) ([]field, error) {
	b := &fieldBuf{ifs: s.ifs()}
	parts := s.tilde(w.parts)
	if err := s.expandParts(parts, b, false, st); err != nil {
		return nil, err
	}
	b.end()
	return b.fields, b.err
}

// expandString expands a word without splitting or globbing (assignments,
// here-documents, case subjects, redirection targets).
func (s *Shell) expandString(w *word, st streams) (string, error) {
	if w == nil {
		return "", nil
	}
	b := &fieldBuf{ifs: ""}
	if err := s.expandParts(s.tilde(w.parts), b, true, st); err != nil {
		return "", err
	}
	return b.text.String(), b.err
}

// expandPattern expands a word into a glob pattern: quoted parts match
// literally, unquoted ones keep their pattern characters.
func (s *Shell) expandPattern(w *word, st streams) (string, error) {
	if w == nil {
		return "", nil
	}
	b := &fieldBuf{ifs: ""}
	if err := s.expandParts(s.tilde(w.parts), b, false, st); err != nil {
		return "", err
	}
	return b.pat.String(), b.err
}

// tilde replaces a leading unquoted ~ or ~/... with $HOME.
func (s *Shell) tilde(parts []wpart) []wpart {
	if len(parts) == 0 || parts[0].kind != pLit || !strings.HasPrefix(parts[0].text, "~") {
		return parts
	}
	t := parts[0].text
	end := strings.IndexByte(t, '/')
	if end < 0 {
		if len(parts) > 1 {
			return parts
		}
		end = len(t)
	}
	var home string
	switch t[1:end] {
	case "":
		home = s.Env["HOME"]
	case "root":
		home = "/root"
	case "+":
		home = s.Cwd
	case "-":
		home = s.Env["OLDPWD"]
	default:
		return parts
	}
	out := append([]wpart{{kind: pQuoted, text: home}, {kind: pLit, text: t[end:]}}, parts[1:]...)
	return out
}

func (s *Shell) expandParts(parts []wpart, b *fieldBuf, inDQ bool, st streams) error {
	for _, pt := range parts {
		if b.err != nil {
			return b.err
		}
		switch pt.kind {
		case pLit:
			if inDQ {
				b.quoted(pt.text)
			} else {
				b.literal(pt.text)
			}
		case pQuoted:
			b.quoted(pt.text)
		case pDQ:
			// "" is an (empty) word, but "$@" with no arguments is none.
			if !(len(pt.parts) == 1 && pt.parts[0].kind == pParam && pt.parts[0].param.name == "@" && pt.parts[0].param.op == "") {
				b.has = true
			}
			if err := s.expandParts(pt.parts, b, true, st); err != nil {
				return err
			}
		case pParam:
			if err := s.expandParam(pt.param, b, inDQ, st); err != nil {
				return err
			}
		case pCmdSub:
			out := s.cmdSubst(pt.sub, st)
			if inDQ {
				b.quoted(out)
			} else {
				b.split(out)
			}
		case pArith:
			v, err := s.arithWord(pt.arith, st)
			if err != nil {
				return &expandError{msg: err.Error()}
			}
			if inDQ {
				b.quoted(strconv.FormatInt(v, 10))
			} else {
				b.split(strconv.FormatInt(v, 10))
			}
		}
	}
	return b.err
}

// cmdSubst runs $(...) in a subshell and returns its output without the
// trailing newlines.
func (s *Shell) cmdSubst(l *list, st streams) string {
	sub := s.Subshell()
	if sub.depth > maxDepth {
		s.errorf(st, "maximum nesting level exceeded (%d)", maxDepth)
		s.lastSub = 1
		return ""
	}
	var buf bytes.Buffer
	sst := streams{in: st.in, out: &limitWriter{w: &buf, n: maxWordBytes}, err: st.err}
	code := sub.execList(l, sst)
	if sub.flow == flowExit {
		code = sub.status
	}
	if sub.run != nil && sub.run.aborted {
		s.flow = flowExit
	}
	s.lastSub = code
	s.status = code
	return strings.TrimRight(buf.String(), "\n")
}

// lookupParam returns a parameter's value and whether it is set.
func (s *Shell) lookupParam(name string) (string, bool) {
	switch name {
	case "?":
		return itoa(s.status), true
	case "$":
		return itoa(s.pid()), true
	case "#":
		return itoa(len(s.args)), true
	case "0":
		return s.arg0, true
	case "!":
		if s.lastBg == 0 {
			return "", false
		}
		return itoa(s.lastBg), true
	case "-":
		f := "hB"
		if s.opts.errexit {
			f = "e" + f
		}
		if s.opts.xtrace {
			f += "x"
		}
		if s.Interactive {
			f += "i"
		}
		return f, true
	case "@", "*":
		return strings.Join(s.args, " "), len(s.args) > 0
	case "LINENO":
		return itoa(s.lineno), true
	case "RANDOM":
		return itoa(s.random()), true
	case "PWD":
		if v, ok := s.Env["PWD"]; ok {
			return v, true
		}
		return s.Cwd, true
	}
	if name[0] >= '0' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil || n < 1 || n > len(s.args) {
			return "", false
		}
		return s.args[n-1], true
	}
	v, ok := s.Env[name]
	return v, ok
}

func (s *Shell) pid() int {
	if s.Pid > 0 {
		return s.Pid
	}
	return 1
}

// random is $RANDOM from a per-shell generator (deterministic, no global source).
func (s *Shell) random() int {
	s.rnd = s.rnd*1103515245 + 12345
	return int((s.rnd >> 16) & 0x7fff)
}

func (s *Shell) expandParam(pe *paramExp, b *fieldBuf, inDQ bool, st streams) error {
	if pe.bad != "" {
		return &expandError{msg: pe.bad + ": bad substitution"}
	}
	emit := func(v string) {
		if inDQ {
			b.quoted(v)
		} else {
			b.split(v)
		}
	}
	if (pe.name == "@" || pe.name == "*") && !pe.length && pe.op == "" {
		switch {
		case inDQ && pe.name == "*":
			sep := ""
			if ifs := s.ifs(); ifs != "" {
				sep = ifs[:1]
			}
			b.quoted(strings.Join(s.args, sep))
		case inDQ:
			for i, a := range s.args {
				if i > 0 {
					b.end()
				}
				b.quoted(a)
			}
		default:
			for i, a := range s.args {
				if i > 0 {
					b.end()
				}
				b.split(a)
			}
		}
		return nil
	}
	val, set := s.lookupParam(pe.name)
	if pe.length {
		if pe.name == "@" || pe.name == "*" {
			emit(itoa(len(s.args)))
		} else {
			emit(itoa(utf8.RuneCountInString(val)))
		}
		return nil
	}
	colon := strings.HasPrefix(pe.op, ":") && len(pe.op) == 2
	unset := !set || colon && val == ""
	switch pe.op {
	case "":
		if !set && s.opts.nounset && pe.name != "@" && pe.name != "*" {
			return &expandError{msg: pe.name + ": unbound variable", fatal: true}
		}
		emit(val)
	case "-", ":-":
		if unset {
			return s.expandParts(pe.arg.parts, b, inDQ, st)
		}
		emit(val)
	case "+", ":+":
		if !unset {
			return s.expandParts(pe.arg.parts, b, inDQ, st)
		}
	case "=", ":=":
		if unset {
			v, err := s.expandString(pe.arg, st)
			if err != nil {
				return err
			}
			if !isName(pe.name) {
				return &expandError{msg: "$" + pe.name + ": cannot assign in this way"}
			}
			s.setVar(pe.name, v)
			val = v
		}
		emit(val)
	case "?", ":?":
		if unset {
			msg, err := s.expandString(pe.arg, st)
			if err != nil {
				return err
			}
			if msg == "" {
				msg = "parameter null or not set"
			}
			return &expandError{msg: pe.name + ": " + msg, fatal: true}
		}
		emit(val)
	case "#", "##", "%", "%%":
		pat, err := s.expandPattern(pe.arg, st)
		if err != nil {
			return err
		}
		emit(trimPattern(val, pat, pe.op))
	case "/", "//", "/#", "/%":
		pat, err := s.expandPattern(pe.arg, st)
		if err != nil {
			return err
		}
		rep, err := s.expandString(pe.arg2, st)
		if err != nil {
			return err
		}
		emit(replacePattern(val, pat, rep, pe.op))
	case "^^", "^":
		if pe.op == "^" {
			emit(upperFirst(val))
		} else {
			emit(strings.ToUpper(val))
		}
	case ",,", ",":
		if pe.op == "," {
			r, n := utf8.DecodeRuneInString(val)
			emit(string(unicode.ToLower(r)) + val[n:])
		} else {
			emit(strings.ToLower(val))
		}
	case ":":
		off, err := s.arithWord(pe.arg, st)
		if err != nil {
			return &expandError{msg: err.Error()}
		}
		runes := []rune(val)
		n := int64(len(runes))
		if off < 0 {
			off += n
			if off < 0 {
				off = 0
			}
		}
		if off > n {
			off = n
		}
		end := n
		if pe.arg2 != nil {
			l, err := s.arithWord(pe.arg2, st)
			if err != nil {
				return &expandError{msg: err.Error()}
			}
			if l < 0 {
				end = n + l
				if end < off {
					return &expandError{msg: strconv.FormatInt(l, 10) + ": substring expression < 0"}
				}
			} else if off+l < n {
				end = off + l
			}
		}
		emit(string(runes[off:end]))
	}
	return nil
}

func upperFirst(v string) string {
	r, n := utf8.DecodeRuneInString(v)
	if n == 0 {
		return v
	}
	return string(unicode.ToUpper(r)) + v[n:]
}

// trimPattern implements ${v#p} ${v##p} ${v%p} ${v%%p}.
func trimPattern(v, pat, op string) string {
	switch op {
	case "#":
		for i := 0; i <= len(v); i++ {
			if globMatch(pat, v[:i]) {
				return v[i:]
			}
		}
	case "##":
		for i := len(v); i >= 0; i-- {
			if globMatch(pat, v[:i]) {
				return v[i:]
			}
		}
	case "%":
		for i := len(v); i >= 0; i-- {
			if globMatch(pat, v[i:]) {
				return v[:i]
			}
		}
	case "%%":
		for i := 0; i <= len(v); i++ {
			if globMatch(pat, v[i:]) {
				return v[:i]
			}
		}
	}
	return v
}

// replacePattern implements ${v/p/r} (first), ${v//p/r} (all), /# and /%.
func replacePattern(v, pat, rep, op string) string {
	if pat == "" {
		return v
	}
	if !hasGlobMeta(pat) && (op == "/" || op == "//") {
		lit := unescapeGlob(pat)
		if op == "/" {
			return strings.Replace(v, lit, rep, 1)
		}
		return strings.ReplaceAll(v, lit, rep)
	}
	switch op {
	case "/#":
		for i := len(v); i >= 0; i-- {
			if globMatch(pat, v[:i]) {
				return rep + v[i:]
			}
		}
		return v
	case "/%":
		for i := 0; i <= len(v); i++ {
			if globMatch(pat, v[i:]) {
				return v[:i] + rep
			}
		}
		return v
	}
	var b strings.Builder
	i := 0
	for i < len(v) {
		matched := -1
		for j := len(v); j > i; j-- { // longest match at i
			if globMatch(pat, v[i:j]) {
				matched = j
				break
			}
		}
		if matched < 0 {
			b.WriteByte(v[i])
			i++
			continue
		}
		b.WriteString(rep)
		i = matched
		if op == "/" {
			b.WriteString(v[i:])
			return b.String()
		}
	}
	return b.String()
}

// braceExpand expands {a,b} and {1..5} found inside one unquoted literal.
func braceExpand(w *word) []*word {
	out := []*word{w}
	for round := 0; round < 64; round++ {
		changed := false
		var next []*word
		for _, cw := range out {
			ex := braceOnce(cw)
			if ex == nil {
				next = append(next, cw)
				continue
			}
			changed = true
			next = append(next, ex...)
			if len(next) > maxBraceWords {
				return out
			}
		}
		out = next
		if !changed {
			break
		}
	}
	return out
}

// braceOnce expands the first brace expression of w, or returns nil.
func braceOnce(w *word) []*word {
	for pi, pt := range w.parts {
		if pt.kind != pLit || !strings.Contains(pt.text, "{") {
			continue
		}
		t := pt.text
		for open := 0; open < len(t); open++ {
			if t[open] != '{' {
				continue
			}
			depth, closeAt := 0, -1
			var commas []int
			for j := open; j < len(t); j++ {
				switch t[j] {
				case '{':
					depth++
				case '}':
					depth--
				case ',':
					if depth == 1 {
						commas = append(commas, j)
					}
				}
				if depth == 0 {
					closeAt = j
					break
				}
			}
			if closeAt < 0 {
				break
			}
			inner := t[open+1 : closeAt]
			var alts []string
			if len(commas) > 0 {
				prev := open + 1
				for _, c := range commas {
					alts = append(alts, t[prev:c])
					prev = c + 1
				}
				alts = append(alts, t[prev:closeAt])
			} else if seq := braceSeq(inner); seq != nil {
				alts = seq
			} else {
				continue
			}
			var out []*word
			for _, a := range alts {
				parts := append([]wpart(nil), w.parts[:pi]...)
				parts = append(parts, wpart{kind: pLit, text: t[:open] + a + t[closeAt+1:]})
				parts = append(parts, w.parts[pi+1:]...)
				out = append(out, &word{parts: parts, raw: w.raw})
			}
			return out
		}
	}
	return nil
}

// braceSeq expands x..y[..step] for integers or single letters.
func braceSeq(s string) []string {
	f := strings.Split(s, "..")
	if len(f) != 2 && len(f) != 3 {
		return nil
	}
	step := int64(1)
	if len(f) == 3 {
		v, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil
		}
		if v < 0 {
			v = -v
		}
		if v == 0 {
			v = 1
		}
		step = v
	}
	a, errA := strconv.ParseInt(f[0], 10, 64)
	b, errB := strconv.ParseInt(f[1], 10, 64)
	var out []string
	if errA == nil && errB == nil {
		width := 0
		if (len(f[0]) > 1 && strings.TrimLeft(f[0], "-")[0] == '0') || (len(f[1]) > 1 && strings.TrimLeft(f[1], "-")[0] == '0') {
			width = max(len(f[0]), len(f[1]))
		}
		for i := a; ; {
			v := strconv.FormatInt(i, 10)
			for len(v) < width {
				v = "0" + v
			}
			out = append(out, v)
			if len(out) > maxBraceWords || i == b {
				break
			}
			if a < b {
				i += step
				if i > b {
					break
				}
			} else {
				i -= step
				if i < b {
					break
				}
			}
		}
		return out
	}
	if len(f[0]) == 1 && len(f[1]) == 1 && isLetter(f[0][0]) && isLetter(f[1][0]) {
		x, y := f[0][0], f[1][0]
		for i := int(x); ; {
			out = append(out, string(rune(i)))
			if i == int(y) {
				break
			}
			if x < y {
				i += int(step)
				if i > int(y) {
					break
				}
			} else {
				i -= int(step)
				if i < int(y) {
					break
				}
			}
		}
		return out
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// shellQuote quotes a word for reuse as shell input (set -x, alias args).
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%^", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
