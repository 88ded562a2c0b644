package shell

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// awk, as gawk: options -F -v -f, BEGIN/END, patterns and ranges, fields,
// arrays, user functions, getline, printf, output redirection and pipes.
// Messages read "awk: cmd. line:N: …" like gawk's.

const awkUsage = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:		GNU long options: (standard)
	-f progfile		--file=progfile
	-F fs			--field-separator=fs
	-v var=val		--assign=var=val
`

func awkCmd(ctx *Context, args []string) int {
	var fs *string
	var assigns []string
	var progFiles []string
	var progSrc []string
	i := 0
	optArg := func(a, flag string) (string, bool) {
		if len(a) > len(flag) {
			return a[len(flag):], true
		}
		if i+1 < len(args) {
			i++
			return args[i], true
		}
		fmt.Fprintf(ctx.Stderr, "%s: option requires an argument -- '%s'\n", ctx.Name, flag[1:])
		io.WriteString(ctx.Stderr, awkUsage)
		return "", false
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			need := func() bool {
				if hasVal {
					return true
				}
				if i+1 < len(args) {
					i++
					val = args[i]
					return true
				}
				fmt.Fprintf(ctx.Stderr, "%s: option '--%s' requires an argument\n", ctx.Name, name)
				io.WriteString(ctx.Stderr, awkUsage)
				return false
			}
			switch name {
			case "field-separator":
				if !need() {
					return 2
				}
				v := val
				fs = &v
			case "assign":
				if !need() {
					return 2
				}
				assigns = append(assigns, val)
			case "file":
				if !need() {
					return 2
				}
				progFiles = append(progFiles, val)
			case "source":
				if !need() {
					return 2
				}
				progSrc = append(progSrc, val)
			case "version":
				io.WriteString(ctx.Stdout, "GNU Awk 5.2.1, API 3.2\n")
				return 0
			case "help", "usage":
				io.WriteString(ctx.Stdout, awkUsage)
				return 0
			case "posix", "traditional", "re-interval", "characters-as-bytes", "sandbox", "lint", "non-decimal-data":
			default:
				fmt.Fprintf(ctx.Stderr, "%s: unrecognized option '%s'\n", ctx.Name, a)
				io.WriteString(ctx.Stderr, awkUsage)
				return 2
			}
			continue
		}
		switch a[1] {
		case 'F':
			v, ok := optArg(a, "-F")
			if !ok {
				return 2
			}
			fs = &v
		case 'v':
			v, ok := optArg(a, "-v")
			if !ok {
				return 2
			}
			assigns = append(assigns, v)
		case 'f':
			v, ok := optArg(a, "-f")
			if !ok {
				return 2
			}
			progFiles = append(progFiles, v)
		case 'e':
			v, ok := optArg(a, "-e")
			if !ok {
				return 2
			}
			progSrc = append(progSrc, v)
		case 'V':
			io.WriteString(ctx.Stdout, "GNU Awk 5.2.1, API 3.2\n")
			return 0
		case 'h':
			io.WriteString(ctx.Stdout, awkUsage)
			return 0
		case 'P', 'c', 'r', 'b', 'S', 'n', 'O', 's', 'N', 't':
		default:
			fmt.Fprintf(ctx.Stderr, "%s: invalid option -- '%c'\n", ctx.Name, a[1])
			io.WriteString(ctx.Stderr, awkUsage)
			return 2
		}
	}
	operands := args[i:]
	src := ""
	fromFile := false
	switch {
	case len(progFiles) > 0:
		fromFile = true
		for _, f := range progFiles {
			data, err := ctx.ReadFile(f)
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "%s: fatal: cannot open source file `%s' for reading: %s\n", ctx.Name, f, errReason(err))
				return 2
			}
			src += string(data) + "\n"
		}
		for _, s := range progSrc {
			src += s + "\n"
		}
	case len(progSrc) > 0:
		src = strings.Join(progSrc, "\n")
	default:
		if len(operands) == 0 {
			io.WriteString(ctx.Stderr, awkUsage)
			return 1
		}
		src, operands = operands[0], operands[1:]
	}
	where := "cmd. line"
	if fromFile {
		where = progFiles[0]
	}
	prog, err := parseAwk(src)
	if err != nil {
		se := err.(*awkSyntaxError)
		if se.show {
			fmt.Fprintf(ctx.Stderr, "%s: %s:%d: %s\n", ctx.Name, where, se.line, se.src)
			fmt.Fprintf(ctx.Stderr, "%s: %s:%d: %s^ %s\n", ctx.Name, where, se.line, strings.Repeat(" ", se.col), se.msg)
		} else {
			fmt.Fprintf(ctx.Stderr, "%s: %s:%d: %s\n", ctx.Name, where, se.line, se.msg)
		}
		if strings.HasPrefix(se.msg, "fatal:") {
			return 2
		}
		return 1
	}
	in := newAwkInterp(ctx, prog, operands)
	if fs != nil {
		v := *fs
		if v == "t" {
			v = "\t"
		} else {
			v = awkUnescape(v)
		}
		in.globals[avFS].v = awkStr(v)
	}
	return in.run(assigns, where)
}

// awkUnescape processes the escapes of a -v or command-line assignment.
func awkUnescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			v, n := awkEscape(s[i+1:])
			b.WriteString(v)
			i += n
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func newAwkInterp(ctx *Context, prog *awkProgram, operands []string) *awkInterp {
	in := &awkInterp{ctx: ctx, maxSteps: ctx.toolSteps(100), prog: prog, inputs: map[string]*awkReader{}, outputs: map[string]*awkOutput{},
		regexes: map[string]*regexp.Regexp{}, argi: 1}
	in.globals = make([]*awkCell, len(prog.globals))
	for i := range in.globals {
		in.globals[i] = &awkCell{}
	}
	set := func(i int, v awkValue) { in.globals[i].v = v }
	set(avNF, awkNum(0))
	set(avNR, awkNum(0))
	set(avFNR, awkNum(0))
	set(avFS, awkStr(" "))
	set(avOFS, awkStr(" "))
	set(avORS, awkStr("\n"))
	set(avRS, awkStr("\n"))
	set(avSUBSEP, awkStr("\x1c"))
	set(avRSTART, awkNum(0))
	set(avRLENGTH, awkNum(-1))
	set(avCONVFMT, awkStr("%.6g"))
	set(avOFMT, awkStr("%.6g"))
	set(avFILENAME, awkStr(""))
	env := newAwkArray()
	for _, kv := range ctx.EnvList() {
		k, v, _ := strings.Cut(kv, "=")
		env.set(k, awkInput(v))
	}
	in.globals[avENVIRON].arr = env
	argv := newAwkArray()
	argv.set("0", awkStr("awk"))
	for i, o := range operands {
		argv.set(strconv.Itoa(i+1), awkInput(o))
	}
	in.globals[avARGV].arr = argv
	set(avARGC, awkNum(float64(len(operands)+1)))
	in.ranges = make([]bool, len(prog.items))
	in.rnd = 0x2545F4914F6CDD1D
	return in
}

// assignOperand performs a `var=value` operand or -v assignment; ok is
// false when the text is not one.
func (in *awkInterp) assignOperand(a string) bool {
	name, val, ok := strings.Cut(a, "=")
	if !ok || !isName(name) || awkKeywords[name] || awkBuiltins[name] {
		return false
	}
	for i, g := range in.prog.globals {
		if g == name {
			if in.globals[i].arr != nil {
				in.fatal("cannot use array `%s' in a scalar context", name)
			}
			in.globals[i].v = awkInput(awkUnescape(val))
			if i == avNF {
				in.setNF(int(in.globals[i].v.num()))
			}
			return true
		}
	}
	return true // a variable the program never uses
}

func (in *awkInterp) run(assigns []string, where string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*awkFatal)
			if !ok {
				panic(r)
			}
			in.flushPipes()
			ctxInfo := ""
			if in.readAny {
				name := in.str(in.globals[avFILENAME].v)
				if name == "" {
					name = "-"
				}
				ctxInfo = fmt.Sprintf("(FILENAME=%s FNR=%s) ", name, in.str(in.globals[avFNR].v))
			}
			fmt.Fprintf(in.ctx.Stderr, "%s: %s:%d: %sfatal: %s\n", in.ctx.Name, where, in.line, ctxInfo, f.msg)
			code = 2
		}
	}()
	for _, a := range assigns {
		if !strings.Contains(a, "=") {
			fmt.Fprintf(in.ctx.Stderr, "%s: fatal: `%s' is not a legal variable name\n", in.ctx.Name, a)
			return 2
		}
		name, _, _ := strings.Cut(a, "=")
		if !in.assignOperand(a) {
			fmt.Fprintf(in.ctx.Stderr, "%s: fatal: `%s' is not a legal variable name\n", in.ctx.Name, name)
			return 2
		}
	}
	exited := in.runPhase(func() {
		for _, b := range in.prog.begins {
			in.execTop(b)
		}
	})
	if !exited && (len(in.prog.items) > 0 || len(in.prog.ends) > 0) {
		exited = in.runPhase(in.mainLoop)
	}
	if !exited || len(in.prog.ends) > 0 {
		in.inEnd = true
		in.runPhase(func() {
			if exited {
				// exit in BEGIN or a rule still runs END; exit in END stops.
			}
			for _, b := range in.prog.ends {
				in.execTop(b)
			}
		})
	}
	in.flushPipes()
	return in.exitCode
}

// runPhase runs f, reporting whether `exit` ended it.
func (in *awkInterp) runPhase(f func()) (exited bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(awkExit); ok {
				exited = true
				return
			}
			panic(r)
		}
	}()
	f()
	return false
}

func (in *awkInterp) execTop(b []stmtAt) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(awkFlow); ok {
				return
			}
			panic(r)
		}
	}()
	in.execBlock(b)
}

func (in *awkInterp) mainLoop() {
	for {
		rec, ok := in.nextMainRecord()
		if !ok {
			return
		}
		in.bumpNR(true)
		in.setRecord(rec)
		if in.record1() == afNextFile {
			in.cur = nil
		}
	}
}

func (in *awkInterp) bumpNR(fnr bool) {
	in.globals[avNR].v = awkNum(in.globals[avNR].v.num() + 1)
	if fnr {
		in.globals[avFNR].v = awkNum(in.globals[avFNR].v.num() + 1)
	}
}

// record1 runs the rules on the current record.
func (in *awkInterp) record1() (flow awkFlow) {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(awkFlow); ok {
				flow = f
				return
			}
			panic(r)
		}
	}()
	for i := range in.prog.items {
		it := &in.prog.items[i]
		matched := false
		switch {
		case it.pat1 == nil:
			matched = true
		case it.rng:
			if in.ranges[i] {
				matched = true
				if in.eval(it.pat2).truth() {
					in.ranges[i] = false
				}
			} else if in.eval(it.pat1).truth() {
				matched = true
				in.ranges[i] = !in.eval(it.pat2).truth()
			}
		default:
			matched = in.eval(it.pat1).truth()
		}
		if !matched {
			continue
		}
		if !it.hasBody {
			in.write(in.record + in.str(in.globals[avORS].v))
			continue
		}
		switch f := in.execBlock(it.body); f {
		case afNext:
			return afNormal
		case afNextFile:
			return afNextFile
		}
	}
	return afNormal
}

// ---- input ----

func (in *awkInterp) nextMainRecord() (string, bool) {
	for {
		if in.cur != nil {
			if rec, ok := in.readRecord(in.cur); ok {
				return rec, true
			}
			in.cur = nil
		}
		if !in.openNext() {
			return "", false
		}
	}
}

func (in *awkInterp) openNext() bool {
	if in.noMore {
		return false
	}
	argv := in.globals[avARGV].arr
	for in.argi < int(in.globals[avARGC].v.num()) {
		k := strconv.Itoa(in.argi)
		in.argi++
		e, ok := argv.m[k]
		if !ok {
			continue
		}
		a := in.str(e.v)
		if a == "" {
			continue
		}
		if strings.Contains(a, "=") && in.assignOperand(a) {
			continue
		}
		in.readAny = true
		in.globals[avFILENAME].v = awkStr(a)
		in.globals[avFNR].v = awkNum(0)
		if a != "-" && a != "/dev/stdin" && in.ctx.FS.IsDir(in.ctx.Abs(a)) {
			fmt.Fprintf(in.ctx.Stderr, "%s: warning: command line argument `%s' is a directory: skipped\n", in.ctx.Name, a)
			continue
		}
		data, err := in.ctx.ReadFile(a)
		if err != nil {
			in.readAny = false
			panic(&awkFatal{msg: fmt.Sprintf("cannot open file `%s' for reading: %s", a, errReason(err))})
		}
		in.cur = &awkReader{data: string(data)}
		in.usedFile = true
		return true
	}
	in.noMore = true
	if in.usedFile {
		return false
	}
	in.usedFile = true
	in.readAny = true
	data, _ := io.ReadAll(in.ctx.Stdin)
	in.cur = &awkReader{data: string(data)}
	return true
}

// readRecord reads the next record of r as RS separates them.
func (in *awkInterp) readRecord(r *awkReader) (string, bool) {
	rs := in.str(in.globals[avRS].v)
	data := r.data
	if rs == "" {
		for r.pos < len(data) && data[r.pos] == '\n' {
			r.pos++
		}
	}
	if r.pos >= len(data) {
		return "", false
	}
	rest := data[r.pos:]
	var rec, rt string
	switch {
	case rs == "":
		loc := paragraphSep().FindStringIndex(rest)
		if loc == nil {
			rec = strings.TrimRight(rest, "\n")
			rt = rest[len(rec):]
			r.pos = len(data)
		} else {
			rec, rt = rest[:loc[0]], rest[loc[0]:loc[1]]
			r.pos += loc[1]
		}
	case utf8.RuneCountInString(rs) == 1:
		i := strings.Index(rest, rs)
		if i < 0 {
			rec = rest
			r.pos = len(data)
		} else {
			rec, rt = rest[:i], rs
			r.pos += i + len(rs)
		}
	default:
		loc := in.regex(rs).FindStringIndex(rest)
		if loc == nil || loc[1] == loc[0] {
			rec = rest
			r.pos = len(data)
		} else {
			rec, rt = rest[:loc[0]], rest[loc[0]:loc[1]]
			r.pos += loc[1]
		}
	}
	in.globals[avRT].v = awkStr(rt)
	return rec, true
}

var paragraphSep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n\n+`) })

func (in *awkInterp) getline(g *aGetline) awkValue {
	var rec string
	switch g.from {
	case "":
		if in.inEnd && in.noMore && in.cur == nil {
			return awkNum(0)
		}
		r, ok := in.nextMainRecord()
		if !ok {
			return awkNum(0)
		}
		rec = r
		in.bumpNR(true)
	case "<":
		name := in.str(in.eval(g.src))
		r := in.inputs["<"+name]
		if r == nil {
			data, err := in.ctx.ReadFile(name)
			if err != nil || name != "-" && in.ctx.FS.IsDir(in.ctx.Abs(name)) {
				return awkNum(-1)
			}
			r = &awkReader{data: string(data)}
			in.inputs["<"+name] = r
		}
		s, ok := in.readRecord(r)
		if !ok {
			return awkNum(0)
		}
		rec = s
	case "|":
		cmd := in.str(in.eval(g.src))
		r := in.inputs["|"+cmd]
		if r == nil {
			var out bytes.Buffer
			in.runCommand(cmd, "", &limitWriter{w: &out, n: maxOutput})
			r = &awkReader{data: out.String()}
			in.inputs["|"+cmd] = r
		}
		s, ok := in.readRecord(r)
		if !ok {
			return awkNum(0)
		}
		rec = s
		in.bumpNR(false)
	}
	if g.lv == nil {
		in.setRecord(rec)
	} else {
		in.store(g.lv, awkInput(rec))
	}
	return awkNum(1)
}

// ---- output ----

func (in *awkInterp) runCommand(cmd, stdin string, stdout io.Writer) int {
	c := *in.ctx
	c.Stdin = strings.NewReader(stdin)
	c.Stdout = stdout
	return in.ctx.Shell.Call(&c, []string{"sh", "-c", cmd})
}

func (in *awkInterp) redirect(kind, dest, data string) {
	o := in.outputs[dest]
	if o == nil {
		o = &awkOutput{pipe: kind == "|"}
		if !o.pipe && kind == ">" {
			if err := in.ctx.WriteFile(dest, nil, false); err != nil {
				in.fatal("can't redirect to `%s' (%s)", dest, errReason(err))
			}
		}
		in.outputs[dest] = o
		in.outOrder = append(in.outOrder, dest)
	}
	if o.pipe {
		if o.buf.Len()+len(data) > maxOutput {
			in.fatal("print to \"%s\" failed (%s)", dest, errOutputFull)
		}
		o.buf.WriteString(data)
		return
	}
	if err := in.ctx.WriteFile(dest, []byte(data), true); err != nil {
		in.fatal("print to \"%s\" failed (%s)", dest, errReason(err))
	}
}

func (in *awkInterp) closeStream(name string) int {
	if o := in.outputs[name]; o != nil {
		delete(in.outputs, name)
		for i, n := range in.outOrder {
			if n == name {
				in.outOrder = append(in.outOrder[:i:i], in.outOrder[i+1:]...)
				break
			}
		}
		if o.pipe {
			return in.runCommand(name, o.buf.String(), in.ctx.Stdout)
		}
		return 0
	}
	found := false
	for _, k := range []string{"<" + name, "|" + name} {
		if _, ok := in.inputs[k]; ok {
			delete(in.inputs, k)
			found = true
		}
	}
	if found {
		return 0
	}
	return -1
}

// flushPipes runs the commands printed to with `print | "cmd"`, at exit.
func (in *awkInterp) flushPipes() {
	names := append([]string(nil), in.outOrder...)
	for _, n := range names {
		in.closeStream(n)
	}
}

// ---- built-in functions ----

func (in *awkInterp) builtin(b *aBuiltin) awkValue {
	arg := func(i int) awkValue { return in.eval(b.args[i]) }
	switch b.name {
	case "length":
		if len(b.args) == 0 {
			return awkNum(float64(utf8.RuneCountInString(in.record)))
		}
		a := b.args[0]
		if g, ok := a.(*aGroup); ok {
			a = g.e
		}
		if v, ok := a.(*aVar); ok {
			c := in.cell(v)
			if c.arr != nil {
				return awkNum(float64(len(c.arr.m)))
			}
			if c.link != nil && c.v.kind == akUninit && c.link.arr != nil {
				return awkNum(float64(len(c.link.arr.m)))
			}
		}
		return awkNum(float64(utf8.RuneCountInString(in.str(in.eval(a)))))
	case "substr":
		s := []rune(in.str(arg(0)))
		m := in.eval(b.args[1]).num()
		start := 1
		if !math.IsNaN(m) && m >= 1 {
			start = int(math.Min(m, float64(len(s)+1)))
		}
		end := len(s) + 1
		if len(b.args) == 3 {
			n := arg(2).num()
			if math.IsNaN(n) || n < 1 {
				return awkStr("")
			}
			if float64(start)+n < float64(end) {
				end = start + int(n)
			}
		}
		if start > len(s) || end <= start {
			return awkStr("")
		}
		return awkStr(string(s[start-1 : end-1]))
	case "index":
		s, t := in.str(arg(0)), in.str(arg(1))
		i := strings.Index(s, t)
		if i < 0 {
			return awkNum(0)
		}
		return awkNum(float64(utf8.RuneCountInString(s[:i]) + 1))
	case "split":
		s := in.str(arg(0))
		arr := in.arrayOf(b.args[1].(*aVar))
		var parts []string
		if len(b.args) >= 3 {
			if r, ok := b.args[2].(*aRegex); ok {
				if s != "" {
					parts = in.regex(awkRegexText(r.re)).Split(s, -1)
				}
			} else {
				parts = in.splitFS(s, in.str(arg(2)), false)
			}
		} else {
			parts = in.splitFS(s, in.str(in.globals[avFS].v), false)
		}
		arr.m = map[string]*awkElem{}
		for i, p := range parts {
			arr.set(strconv.Itoa(i+1), awkInput(p))
		}
		return awkNum(float64(len(parts)))
	case "sub", "gsub":
		return in.substitute(b)
	case "match":
		s := in.str(arg(0))
		re := in.regexOf(b.args[1])
		loc := re.FindStringSubmatchIndex(s)
		if len(b.args) == 3 {
			arr := in.arrayOf(b.args[2].(*aVar))
			arr.m = map[string]*awkElem{}
			for i := 0; loc != nil && i < len(loc)/2; i++ {
				if loc[2*i] < 0 {
					continue
				}
				k := strconv.Itoa(i)
				arr.set(k, awkInput(s[loc[2*i]:loc[2*i+1]]))
				arr.set(k+"\x1cstart", awkNum(float64(utf8.RuneCountInString(s[:loc[2*i]])+1)))
				arr.set(k+"\x1clength", awkNum(float64(utf8.RuneCountInString(s[loc[2*i]:loc[2*i+1]]))))
			}
		}
		if loc == nil {
			in.globals[avRSTART].v = awkNum(0)
			in.globals[avRLENGTH].v = awkNum(-1)
			return awkNum(0)
		}
		start := float64(utf8.RuneCountInString(s[:loc[0]]) + 1)
		in.globals[avRSTART].v = awkNum(start)
		in.globals[avRLENGTH].v = awkNum(float64(utf8.RuneCountInString(s[loc[0]:loc[1]])))
		return awkNum(start)
	case "sprintf":
		vals := make([]awkValue, len(b.args)-1)
		for i := range vals {
			vals[i] = arg(i + 1)
		}
		return awkStr(in.sprintf(in.str(arg(0)), vals))
	case "toupper":
		return awkStr(strings.ToUpper(in.str(arg(0))))
	case "tolower":
		return awkStr(strings.ToLower(in.str(arg(0))))
	case "int":
		return awkNum(math.Trunc(arg(0).num()))
	case "sqrt":
		x := arg(0).num()
		if x < 0 {
			fmt.Fprintf(in.ctx.Stderr, "%s: cmd. line:%d: warning: sqrt: called with negative argument %s\n", in.ctx.Name, in.line, in.numString(x, "%.6g"))
		}
		return awkNum(math.Sqrt(x))
	case "exp":
		return awkNum(math.Exp(arg(0).num()))
	case "log":
		x := arg(0).num()
		if x < 0 {
			fmt.Fprintf(in.ctx.Stderr, "%s: cmd. line:%d: warning: log: received negative argument %s\n", in.ctx.Name, in.line, in.numString(x, "%.6g"))
		}
		return awkNum(math.Log(x))
	case "sin":
		return awkNum(math.Sin(arg(0).num()))
	case "cos":
		return awkNum(math.Cos(arg(0).num()))
	case "atan2":
		return awkNum(math.Atan2(arg(0).num(), arg(1).num()))
	case "rand":
		// xorshift64*: deterministic, seeded by srand.
		in.rnd ^= in.rnd >> 12
		in.rnd ^= in.rnd << 25
		in.rnd ^= in.rnd >> 27
		return awkNum(float64((in.rnd*0x2545F4914F6CDD1D)>>11) / (1 << 53))
	case "srand":
		prev := in.seed
		if len(b.args) == 1 {
			in.seed = arg(0).num()
		} else {
			in.seed = float64(in.ctx.Now().Unix())
		}
		in.rnd = math.Float64bits(in.seed) ^ 0x2545F4914F6CDD1D
		if in.rnd == 0 {
			in.rnd = 1
		}
		return awkNum(prev)
	case "system":
		return awkNum(float64(in.runCommand(in.str(arg(0)), "", in.ctx.Stdout)))
	case "close":
		return awkNum(float64(in.closeStream(in.str(arg(0)))))
	case "fflush":
		return awkNum(0)
	case "systime":
		return awkNum(float64(in.ctx.Now().Unix()))
	case "strftime":
		format := "%a %b %e %H:%M:%S %Z %Y"
		t := in.ctx.Now()
		if len(b.args) > 0 {
			format = in.str(arg(0))
		}
		if len(b.args) > 1 {
			t = unixTime(int64(arg(1).num()))
		}
		return awkStr(strftime(format, t.UTC()))
	case "gensub":
		return in.gensub(b)
	}
	return awkValue{}
}

// awkReplacement expands & and backslashes in a sub/gsub replacement.
func awkReplacement(repl, matched string) string {
	if !strings.ContainsAny(repl, "\\&") {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch c {
		case '&':
			b.WriteString(matched)
		case '\\':
			j := i
			for j < len(repl) && repl[j] == '\\' {
				j++
			}
			k := j - i
			if j < len(repl) && repl[j] == '&' {
				b.WriteString(strings.Repeat("\\", k/2))
				if k%2 == 1 {
					b.WriteByte('&')
				} else {
					b.WriteString(matched)
				}
				i = j
			} else {
				b.WriteString(repl[i:j])
				i = j - 1
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (in *awkInterp) substitute(b *aBuiltin) awkValue {
	re := in.regexOf(b.args[0])
	repl := in.str(in.eval(b.args[1]))
	var target awkExpr = &aField{e: &aNum{v: 0}}
	if len(b.args) == 3 {
		target = b.args[2]
	}
	s := in.str(in.eval(target))
	global := b.name == "gsub"
	var out strings.Builder
	n := 0
	last := 0
	prevEnd := -1
	for pos := 0; pos <= len(s); {
		loc := re.FindStringIndex(s[pos:])
		if loc == nil {
			break
		}
		st, en := pos+loc[0], pos+loc[1]
		if st == en && st == prevEnd {
			// An empty match right after a match does not count.
			if st >= len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[st:])
			pos = st + w
			continue
		}
		out.WriteString(s[last:st])
		out.WriteString(awkReplacement(repl, s[st:en]))
		n++
		last, prevEnd = en, en
		if out.Len() > awkMaxString {
			in.fatal("string too long")
		}
		if !global {
			break
		}
		if en == st {
			if st >= len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[st:])
			out.WriteString(s[st : st+w])
			last = st + w
			pos = st + w
		} else {
			pos = en
		}
	}
	if n > 0 {
		out.WriteString(s[last:])
		in.store(target, awkStr(out.String()))
	}
	return awkNum(float64(n))
}

func (in *awkInterp) gensub(b *aBuiltin) awkValue {
	re := in.regexOf(b.args[0])
	repl := in.str(in.eval(b.args[1]))
	how := in.eval(b.args[2])
	s := in.record
	if len(b.args) == 4 {
		s = in.str(in.eval(b.args[3]))
	}
	which := 0 // all
	if hs := in.str(how); !(len(hs) > 0 && (hs[0] == 'g' || hs[0] == 'G')) {
		which = int(how.num())
		if which < 1 {
			which = 1
		}
	}
	count := 0
	return awkStr(re.ReplaceAllStringFunc(s, func(m string) string {
		count++
		if which != 0 && count != which {
			return m
		}
		sub := re.FindStringSubmatch(m)
		var out strings.Builder
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case c == '&':
				out.WriteString(m)
			case c == '\\' && i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9':
				k := int(repl[i+1] - '0')
				if k < len(sub) {
					out.WriteString(sub[k])
				}
				i++
			case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
				out.WriteByte(repl[i+1])
				i++
			default:
				out.WriteByte(c)
			}
		}
		return out.String()
	}))
}

// ---- printf ----

func (in *awkInterp) sprintf(format string, args []awkValue) string {
	var b strings.Builder
	ai := 0
	next := func(pos int) awkValue {
		if ai >= len(args) {
			in.fatal("not enough arguments to satisfy format string\n\t`%s'\n\t%s^ ran out for this one", format, strings.Repeat(" ", pos+1))
		}
		ai++
		return args[ai-1]
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		if i >= len(format) {
			b.WriteByte('%')
			break
		}
		if format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		flags := ""
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			flags += string(format[i])
			i++
		}
		width := ""
		if i < len(format) && format[i] == '*' {
			w := int(next(start).num())
			if w < 0 {
				flags += "-"
				w = -w
			}
			width = strconv.Itoa(clampWidth(w))
			i++
		} else {
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				width += string(format[i])
				i++
			}
			if len(width) > 4 {
				width = "9999"
			}
		}
		prec := ""
		hasPrec := false
		if i < len(format) && format[i] == '.' {
			hasPrec = true
			i++
			if i < len(format) && format[i] == '*' {
				p := int(next(start).num())
				if p < 0 {
					hasPrec = false
				} else {
					prec = strconv.Itoa(clampWidth(p))
				}
				i++
			} else {
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					prec += string(format[i])
					i++
				}
				if prec == "" {
					prec = "0"
				}
				if len(prec) > 4 {
					prec = "9999"
				}
			}
		}
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		verb := format[i]
		spec := "%" + flags + width
		if hasPrec {
			spec += "." + prec
		}
		switch verb {
		case 'd', 'i':
			v := next(start).num()
			b.WriteString(formatInt(spec, v, 'd'))
		case 'o', 'x', 'X', 'u':
			v := next(start).num()
			b.WriteString(formatInt(spec, v, verb))
		case 'e', 'E', 'f', 'F', 'g', 'G':
			v := next(start).num()
			if math.IsInf(v, 0) || math.IsNaN(v) {
				b.WriteString(fmt.Sprintf("%"+strings.ReplaceAll(flags, "0", "")+width+"s", cSpecial(v, strings.Contains(flags, "+"), verb >= 'a')))
				continue
			}
			b.WriteString(fmt.Sprintf(spec+string(verb), v))
		case 'c':
			v := next(start)
			var s string
			if v.kind == akNum || v.kind == akStrnum {
				s = string(rune(int(v.num())))
			} else if r, _ := utf8.DecodeRuneInString(in.str(v)); len(in.str(v)) > 0 {
				s = string(r)
			}
			b.WriteString(fmt.Sprintf("%"+strings.ReplaceAll(flags, "0", "")+width+"s", s))
		case 's':
			v := next(start)
			s := in.str(v)
			if v.kind == akNum {
				s = in.outStr(v)
			}
			b.WriteString(fmt.Sprintf(strings.ReplaceAll(spec, "0", "")+"s", s))
		default:
			b.WriteString(format[start : i+1])
		}
		if b.Len() > awkMaxString {
			in.fatal("string too long")
		}
	}
	return b.String()
}

func cSpecial(v float64, plus, lower bool) string {
	s := "inf"
	if math.IsNaN(v) {
		s = "nan"
		if math.Signbit(v) {
			s = "-nan"
		}
	} else if v < 0 {
		s = "-inf"
	} else if plus {
		s = "+inf"
	}
	if !lower {
		s = strings.ToUpper(s)
	}
	return s
}

// formatInt formats the integer part of v with C's %d/%o/%x/%X/%u.
func formatInt(spec string, v float64, verb byte) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return cSpecial(v, strings.Contains(spec, "+"), true)
	}
	t := math.Trunc(v)
	if verb == 'd' {
		if math.Abs(t) < 9.2e18 {
			return fmt.Sprintf(spec+"d", int64(t))
		}
		return fmt.Sprintf(strings.TrimRight(strings.Split(spec, ".")[0], "0")+"s", strconv.FormatFloat(t, 'f', 0, 64))
	}
	var u uint64
	switch {
	case t < 0 && t > -9.2e18:
		u = uint64(int64(t))
	case t >= 0 && t < 1.8e19:
		u = uint64(t)
	default:
		return strconv.FormatFloat(t, 'f', 0, 64)
	}
	if verb == 'u' {
		verb = 'd'
	}
	return fmt.Sprintf(spec+string(verb), u)
}
