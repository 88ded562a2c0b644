package shell

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"kubeplay/core/shell/internal/posixre"
)

// The awk interpreter: a tree walker over awkparse's program. Runtime
// errors panic with *awkFatal and are reported by awkCmd, worded as gawk's.

type awkFatal struct{ msg string }

// awkExit unwinds the program for `exit`.
type awkExit struct{}

type awkCell struct {
	v    awkValue
	arr  *awkArray
	link *awkCell // an untyped argument: the caller's variable, which
	// becomes an array if the function uses its parameter as one
}

type awkElem struct {
	v   awkValue
	seq int
}

// awkArray keeps insertion order so `for (k in a)` is deterministic.
type awkArray struct {
	m   map[string]*awkElem
	seq int
}

func newAwkArray() *awkArray { return &awkArray{m: map[string]*awkElem{}} }

func (a *awkArray) get(k string) *awkElem {
	e := a.m[k]
	if e == nil {
		a.seq++
		e = &awkElem{seq: a.seq}
		a.m[k] = e
	}
	return e
}

func (a *awkArray) set(k string, v awkValue) { a.get(k).v = v }

func (a *awkArray) keys() []string {
	ks := make([]string, 0, len(a.m))
	for k := range a.m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return a.m[ks[i]].seq < a.m[ks[j]].seq })
	return ks
}

type awkFlow int

const (
	afNormal awkFlow = iota
	afNext
	afNextFile
	afBreak
	afContinue
	afReturn
)

// awkMaxString bounds one string value.
const awkMaxString = 16 << 20

type awkReader struct {
	data string
	pos  int
	eof  bool
}

type awkOutput struct {
	pipe bool
	buf  strings.Builder
}

type awkInterp struct {
	ctx     *Context
	prog    *awkProgram
	globals []*awkCell
	frames  [][]*awkCell
	retVal  awkValue

	record    string
	fields    []string
	splitDone bool

	// main input: the ARGV operand being read
	argi     int
	cur      *awkReader
	noMore   bool
	readAny  bool
	inputs   map[string]*awkReader // getline < file, cmd | getline
	outputs  map[string]*awkOutput
	outOrder []string

	regexes map[string]*regexp.Regexp
	fsCache string
	fsRegex *regexp.Regexp
	ranges  []bool
	steps   int
	// maxSteps bounds statements and loop iterations, so that a runaway
	// loop stops instead of freezing the page (20 million at the shell's
	// default budget).
	maxSteps int
	line     int
	exitCode int
	depth    int
	seed     float64
	prevSeed float64
	rnd      uint64
	inEnd    bool
	usedFile bool
}

func (in *awkInterp) fatal(format string, a ...any) {
	panic(&awkFatal{msg: sprintf(format, a...)})
}

func (in *awkInterp) step() {
	in.steps++
	if in.steps > in.maxSteps {
		in.fatal("too many steps (more than %d): program stopped", in.maxSteps)
	}
}

// ---- variables ----

func (in *awkInterp) cell(v *aVar) *awkCell {
	if v.local {
		return in.frames[len(in.frames)-1][v.idx]
	}
	return in.globals[v.idx]
}

func (in *awkInterp) arrayOf(v *aVar) *awkArray {
	return in.cellArray(in.cell(v), v.name)
}

func (in *awkInterp) cellArray(c *awkCell, name string) *awkArray {
	if c.arr != nil {
		return c.arr
	}
	if c.v.kind != akUninit {
		in.fatal("attempt to use scalar `%s' as an array", name)
	}
	if c.link != nil {
		c.arr = in.cellArray(c.link, name)
	} else {
		c.arr = newAwkArray()
	}
	return c.arr
}

func (in *awkInterp) readVar(v *aVar) awkValue {
	c := in.cell(v)
	if c.arr != nil {
		in.fatal("attempt to use array `%s' in a scalar context", v.name)
	}
	if !v.local && v.idx == avNF {
		in.splitRecord()
	}
	return c.v
}

func (in *awkInterp) setVar(v *aVar, val awkValue) {
	c := in.cell(v)
	if c.arr != nil {
		in.fatal("attempt to use array `%s' in a scalar context", v.name)
	}
	c.v = val
	if !v.local && v.idx == avNF {
		in.setNF(int(val.num()))
	}
}

func (in *awkInterp) subscript(keys []awkExpr) string {
	if len(keys) == 1 {
		return in.str(in.eval(keys[0]))
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = in.str(in.eval(k))
	}
	return strings.Join(parts, in.str(in.globals[avSUBSEP].v))
}

// ---- records and fields ----

func (in *awkInterp) setRecord(s string) {
	in.record = s
	in.splitDone = false
}

func (in *awkInterp) splitRecord() {
	if in.splitDone {
		return
	}
	in.splitDone = true
	in.fields = in.splitFS(in.record, in.str(in.globals[avFS].v), in.str(in.globals[avRS].v) == "")
	in.globals[avNF].v = awkNum(float64(len(in.fields)))
}

// splitFS splits text as FS fs would (paragraph mode adds newline as a separator).
func (in *awkInterp) splitFS(text, fs string, paragraph bool) []string {
	if text == "" {
		return nil
	}
	switch {
	case fs == " ":
		return strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
	case fs == "":
		out := make([]string, 0, len(text))
		for _, r := range text {
			out = append(out, string(r))
		}
		return out
	case utf8.RuneCountInString(fs) == 1 && !paragraph:
		// A single character other than space separates literally, even
		// a regular expression metacharacter such as '|'.
		return strings.Split(text, fs)
	}
	re := in.fsRegexFor(fs, paragraph)
	return re.Split(text, -1)
}

func (in *awkInterp) fsRegexFor(fs string, paragraph bool) *regexp.Regexp {
	key := fs
	if paragraph {
		key = "\x00" + fs
	}
	if in.fsCache == key && in.fsRegex != nil {
		return in.fsRegex
	}
	var re *regexp.Regexp
	if utf8.RuneCountInString(fs) == 1 {
		re = regexp.MustCompile(regexp.QuoteMeta(fs) + "|\n")
	} else {
		t, err := posixre.Translate(fs, true)
		if err != nil {
			in.fatal("%s: /%s/", err.Error(), fs)
		}
		if paragraph {
			t = "(?:" + t + ")|\n"
		}
		re, err = regexp.Compile(t)
		if err != nil {
			in.fatal("Invalid regular expression: /%s/", fs)
		}
		re.Longest()
	}
	in.fsCache, in.fsRegex = key, re
	return re
}

func (in *awkInterp) field(i int) awkValue {
	if i < 0 {
		in.fatal("attempt to access field %d", i)
	}
	if i == 0 {
		return awkInput(in.record)
	}
	in.splitRecord()
	if i > len(in.fields) {
		return awkValue{}
	}
	return awkInput(in.fields[i-1])
}

func (in *awkInterp) setField(i int, s string) {
	if i < 0 {
		in.fatal("attempt to access field %d", i)
	}
	if i == 0 {
		in.setRecord(s)
		return
	}
	if i > 1<<20 {
		in.fatal("field number %d too large", i)
	}
	in.splitRecord()
	for len(in.fields) < i {
		in.fields = append(in.fields, "")
	}
	in.fields[i-1] = s
	in.globals[avNF].v = awkNum(float64(len(in.fields)))
	in.rebuild()
}

func (in *awkInterp) setNF(n int) {
	if n < 0 {
		in.fatal("NF set to negative value")
	}
	if n > 1<<20 {
		in.fatal("NF value %d too large", n)
	}
	in.splitRecord()
	for len(in.fields) < n {
		in.fields = append(in.fields, "")
	}
	in.fields = in.fields[:n]
	in.globals[avNF].v = awkNum(float64(n))
	in.rebuild()
}

func (in *awkInterp) rebuild() {
	in.record = strings.Join(in.fields, in.str(in.globals[avOFS].v))
}

// ---- regular expressions ----

// awkRegexText turns a regex literal's awk escapes (\t, \/, \052) into
// characters, leaving the regular expression's own escapes alone.
func awkRegexText(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case strings.IndexByte("ntrfvab\"/", n) >= 0 || n >= '0' && n <= '7':
			v, k := awkEscape(s[i+1:])
			if len(v) == 1 && strings.IndexByte(`\^$.[]|()*+?{}`, v[0]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteString(v)
			i += k
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
			i++
		}
	}
	return b.String()
}

func (in *awkInterp) regex(src string) *regexp.Regexp {
	if re, ok := in.regexes[src]; ok {
		return re
	}
	re, err := posixre.Compile(src, true, false)
	if err != nil {
		in.fatal("%s: /%s/", err.Error(), src)
	}
	if len(in.regexes) > 500 {
		in.regexes = map[string]*regexp.Regexp{}
	}
	in.regexes[src] = re
	return re
}

// regexOf is the regular expression an operand denotes: a /literal/ or
// the string value of any other expression.
func (in *awkInterp) regexOf(e awkExpr) *regexp.Regexp {
	if r, ok := e.(*aRegex); ok {
		return in.regex(awkRegexText(r.re))
	}
	return in.regex(in.str(in.eval(e)))
}

// ---- expressions ----

func (in *awkInterp) eval(e awkExpr) awkValue {
	switch e := e.(type) {
	case *aNum:
		return awkNum(e.v)
	case *aStr:
		return awkStr(e.s)
	case *aRegex:
		return awkBool(in.regexOf(e).MatchString(in.record))
	case *aGroup:
		return in.eval(e.e)
	case *aVar:
		return in.readVar(e)
	case *aField:
		return in.field(in.fieldIndex(e))
	case *aIndex:
		k := in.subscript(e.keys)
		return in.arrayOf(e.arr).get(k).v
	case *aIn:
		k := in.subscript(e.keys)
		_, ok := in.arrayOf(e.arr).m[k]
		return awkBool(ok)
	case *aAssign:
		return in.assign(e)
	case *aCond:
		if in.eval(e.c).truth() {
			return in.eval(e.a)
		}
		return in.eval(e.b)
	case *aBinary:
		return in.binary(e)
	case *aMatch:
		s := in.str(in.eval(e.l))
		m := in.regexOf(e.r).MatchString(s)
		return awkBool(m != e.neg)
	case *aUnary:
		v := in.eval(e.e)
		switch e.op {
		case "!":
			return awkBool(!v.truth())
		case "-":
			return awkNum(-v.num())
		}
		return awkNum(v.num())
	case *aIncDec:
		old := in.eval(e.lv).num()
		nv := old + 1
		if e.op == "--" {
			nv = old - 1
		}
		in.store(e.lv, awkNum(nv))
		if e.pre {
			return awkNum(nv)
		}
		return awkNum(old)
	case *aCall:
		return in.call(e)
	case *aBuiltin:
		return in.builtin(e)
	case *aGetline:
		return in.getline(e)
	}
	in.fatal("internal error: unknown expression")
	return awkValue{}
}

func (in *awkInterp) fieldIndex(f *aField) int {
	n := in.eval(f.e).num()
	if math.IsNaN(n) || n > 1<<30 {
		in.fatal("attempt to access field %s", in.numString(n, "%.6g"))
	}
	return int(n)
}

// store assigns to an lvalue.
func (in *awkInterp) store(lv awkExpr, v awkValue) {
	switch lv := lv.(type) {
	case *aVar:
		in.setVar(lv, v)
	case *aField:
		in.setField(in.fieldIndex(lv), in.str(v))
	case *aIndex:
		k := in.subscript(lv.keys)
		in.arrayOf(lv.arr).set(k, v)
	case *aGroup:
		in.store(lv.e, v)
	}
}

func (in *awkInterp) assign(e *aAssign) awkValue {
	var v awkValue
	if e.op == "=" {
		v = in.eval(e.rv)
		if v.kind == akUninit {
			v = awkValue{}
		}
	} else {
		// The target is evaluated first, as gawk does for x[i++] += 1.
		cur := in.eval(e.lv).num()
		r := in.eval(e.rv).num()
		v = awkNum(in.arith(e.op[:1], cur, r))
	}
	in.store(e.lv, v)
	return v
}

func (in *awkInterp) arith(op string, x, y float64) float64 {
	switch op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	case "/":
		if y == 0 {
			in.fatal("division by zero attempted")
		}
		return x / y
	case "%":
		if y == 0 {
			in.fatal("division by zero attempted in `%%'")
		}
		return math.Mod(x, y)
	case "^":
		return awkPow(x, y)
	}
	return 0
}

// awkPow computes x^y; integer exponents multiply exactly, as gawk does.
func awkPow(x, y float64) float64 {
	if y == math.Trunc(y) && math.Abs(y) < 1<<31 {
		n := int64(y)
		neg := n < 0
		if neg {
			n = -n
		}
		r, b := 1.0, x
		for n > 0 {
			if n&1 == 1 {
				r *= b
			}
			b *= b
			n >>= 1
		}
		if neg {
			return 1 / r
		}
		return r
	}
	return math.Pow(x, y)
}

func (in *awkInterp) binary(e *aBinary) awkValue {
	switch e.op {
	case "&&":
		return awkBool(in.eval(e.l).truth() && in.eval(e.r).truth())
	case "||":
		return awkBool(in.eval(e.l).truth() || in.eval(e.r).truth())
	case " ":
		l := in.str(in.eval(e.l))
		r := in.str(in.eval(e.r))
		if len(l)+len(r) > awkMaxString {
			in.fatal("string too long")
		}
		return awkStr(l + r)
	case "<", "<=", ">", ">=", "==", "!=":
		c := in.compare(in.eval(e.l), in.eval(e.r))
		switch e.op {
		case "<":
			return awkBool(c < 0)
		case "<=":
			return awkBool(c <= 0)
		case ">":
			return awkBool(c > 0)
		case ">=":
			return awkBool(c >= 0)
		case "==":
			return awkBool(c == 0)
		}
		return awkBool(c != 0)
	}
	x := in.eval(e.l).num()
	y := in.eval(e.r).num()
	return awkNum(in.arith(e.op, x, y))
}

func (in *awkInterp) call(c *aCall) awkValue {
	f := in.prog.funcs[c.name]
	if in.depth >= 2000 {
		in.fatal("function `%s': call nesting too deep", c.name)
	}
	frame := make([]*awkCell, len(f.params))
	for i := range frame {
		if i >= len(c.args) {
			frame[i] = &awkCell{}
			continue
		}
		a := c.args[i]
		if g, ok := a.(*aGroup); ok {
			a = g.e
		}
		if v, ok := a.(*aVar); ok {
			src := in.cell(v)
			switch {
			case src.arr != nil:
				frame[i] = &awkCell{arr: src.arr}
			case src.v.kind == akUninit && !(!v.local && v.idx < avSpecials):
				frame[i] = &awkCell{link: src}
			default:
				frame[i] = &awkCell{v: in.readVar(v)}
			}
			continue
		}
		frame[i] = &awkCell{v: in.eval(a)}
	}
	in.frames = append(in.frames, frame)
	in.depth++
	saved := in.line
	in.retVal = awkValue{}
	flow := in.execBlock(f.body)
	in.line = saved
	in.depth--
	in.frames = in.frames[:len(in.frames)-1]
	if flow == afNext || flow == afNextFile {
		// next inside a function ends the record, as in gawk.
		panic(flow)
	}
	v := in.retVal
	in.retVal = awkValue{}
	return v
}

// ---- statements ----

func (in *awkInterp) execBlock(b []stmtAt) awkFlow {
	for _, s := range b {
		if f := in.exec(s); f != afNormal {
			return f
		}
	}
	return afNormal
}

func (in *awkInterp) exec(sa stmtAt) awkFlow {
	in.step()
	in.line = sa.line
	switch s := sa.s.(type) {
	case sExpr:
		in.eval(s.e)
	case sPrint:
		in.print(s)
	case sBlock:
		return in.execBlock(s.body)
	case sIf:
		if in.eval(s.cond).truth() {
			return in.execBlock(s.then)
		}
		return in.execBlock(s.els)
	case sWhile:
		first := s.do
		for first || in.eval(s.cond).truth() {
			first = false
			in.step()
			switch f := in.execBlock(s.body); f {
			case afBreak:
				return afNormal
			case afContinue, afNormal:
			default:
				return f
			}
		}
	case sFor:
		if s.init != nil {
			in.exec(stmtAt{line: sa.line, s: s.init})
		}
		for s.cond == nil || in.eval(s.cond).truth() {
			in.step()
			switch f := in.execBlock(s.body); f {
			case afBreak:
				return afNormal
			case afContinue, afNormal:
			default:
				return f
			}
			if s.post != nil {
				in.exec(stmtAt{line: sa.line, s: s.post})
			}
		}
	case sForIn:
		arr := in.arrayOf(s.arr)
		for _, k := range arr.keys() {
			if _, ok := arr.m[k]; !ok {
				continue
			}
			in.step()
			in.store(s.v, awkInput(k))
			switch f := in.execBlock(s.body); f {
			case afBreak:
				return afNormal
			case afContinue, afNormal:
			default:
				return f
			}
		}
	case sSimple:
		switch s.what {
		case "next":
			if in.inEnd || in.cur == nil && !in.readAny {
				in.fatal("`next' used in BEGIN or END action")
			}
			return afNext
		case "nextfile":
			return afNextFile
		case "break":
			return afBreak
		case "continue":
			return afContinue
		}
	case sExit:
		if s.e != nil {
			in.exitCode = int(in.eval(s.e).num())
		}
		panic(awkExit{})
	case sReturn:
		if s.e != nil {
			in.retVal = in.eval(s.e)
		}
		return afReturn
	case sDelete:
		arr := in.arrayOf(s.arr)
		if s.keys == nil {
			arr.m = map[string]*awkElem{}
		} else {
			delete(arr.m, in.subscript(s.keys))
		}
	}
	return afNormal
}

func (in *awkInterp) print(s sPrint) {
	var out string
	if s.printf {
		vals := make([]awkValue, len(s.args)-1)
		for i, a := range s.args[1:] {
			vals[i] = in.eval(a)
		}
		out = in.sprintf(in.str(in.eval(s.args[0])), vals)
	} else {
		var b strings.Builder
		if len(s.args) == 0 {
			b.WriteString(in.record)
		}
		ofs := in.str(in.globals[avOFS].v)
		for i, a := range s.args {
			if i > 0 {
				b.WriteString(ofs)
			}
			b.WriteString(in.outStr(in.eval(a)))
		}
		b.WriteString(in.str(in.globals[avORS].v))
		out = b.String()
	}
	if s.redir == "" {
		in.write(out)
		return
	}
	dest := in.str(in.eval(s.dest))
	in.redirect(s.redir, dest, out)
}

func (in *awkInterp) write(s string) {
	if _, err := in.ctx.Stdout.Write([]byte(s)); err != nil {
		in.fatal("print to \"standard output\" failed (%s)", err.Error())
	}
}
