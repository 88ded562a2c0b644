package shell

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"kubeplay/core/shell/internal/posixre"
)

// sed, as GNU sed: addresses (N, $, /re/, \cREc, first~step, ranges with
// N, /re/, +N, ~N, 0,/re/ and !), the commands {} = a b c d D g G h H i l
// n N p P q Q r s t T w x y z : #, -n -e -f -E/-r -s -i -z, and GNU's
// error messages ("sed: -e expression #1, char 3: unterminated `s' command").

const sedUsage = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
  -z, --null-data
                 separate lines by NUL characters
`

const (
	saNone = iota
	saLine
	saLast
	saRegex
	saStep
	saZero
	saPlus  // addr2 +N
	saTilde // addr2 ~N
)

type sedAddr struct {
	kind       int
	n, step    int
	re         *regexp.Regexp
	emptyRegex bool // `//`: the last regular expression used
}

type sedCmd struct {
	a1, a2 sedAddr
	neg    bool
	name   byte
	text   string // a/i/c text, label, file name
	// s
	re                 *regexp.Regexp
	emptyRegex         bool
	repl               string
	global             bool
	nth                int
	print              int
	wfile              string
	from, to           []rune // y
	exit               int
	jump               int // index of the target (b/t/T) or of the matching '}' ('{')
	active             bool
	end                int // line where an active +N/~N/N range ends
	exprNo, charNo     int
	label              string
	zeroStartAvailable bool
}

type sedError struct{ msg string }

type sedParser struct {
	src    string
	i      int
	ere    bool
	exprNo int
	// offsets of each -e expression in src, for "char N" positions
	starts   []int
	cmds     []*sedCmd
	blocks   []int
	fromFile string
}

func (p *sedParser) fail(msg string) {
	// GNU counts characters from the start of the expression.
	e, start := 1, 0
	for k, s := range p.starts {
		if p.i >= s {
			e, start = k+1, s
		}
	}
	if p.fromFile != "" {
		line := strings.Count(p.src[:min(p.i, len(p.src))], "\n") + 1
		panic(&sedError{msg: fmt.Sprintf("file %s line %d: %s", p.fromFile, line, msg)})
	}
	panic(&sedError{msg: fmt.Sprintf("-e expression #%d, char %d: %s", e, p.i-start, msg)})
}

func (p *sedParser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *sedParser) eof() bool { return p.i >= len(p.src) }

func (p *sedParser) skipSpace() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
}

func parseSed(src string, starts []int, ere bool, fromFile string) (cmds []*sedCmd, err error) {
	p := &sedParser{src: src, starts: starts, ere: ere, fromFile: fromFile}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*sedError)
			if !ok {
				panic(r)
			}
			cmds, err = nil, fmt.Errorf("%s", se.msg)
		}
	}()
	p.parse()
	return p.cmds, nil
}

func (p *sedParser) parse() {
	for {
		for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t' || p.src[p.i] == '\n' || p.src[p.i] == ';') {
			p.i++
		}
		if p.eof() {
			break
		}
		c := &sedCmd{}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.i++
			}
			continue
		}
		c.a1 = p.address()
		if c.a1.kind != saNone {
			p.skipSpace()
			if p.peek() == ',' {
				p.i++
				p.skipSpace()
				c.a2 = p.address2()
				if c.a2.kind == saNone {
					p.fail("unexpected `,'")
				}
			}
		}
		if c.a1.kind == saZero && (c.a2.kind != saRegex) {
			p.fail("invalid usage of line address 0")
		}
		p.skipSpace()
		if p.peek() == '!' {
			c.neg = true
			p.i++
			p.skipSpace()
			if p.peek() == '!' {
				p.i++
				p.fail("multiple `!'s")
			}
		}
		if p.eof() {
			p.fail("missing command")
		}
		p.command(c)
	}
	if len(p.blocks) > 0 {
		panic(&sedError{msg: "-e expression #1, char 0: unmatched `{'"})
	}
	// Resolve labels.
	labels := map[string]int{}
	for i, c := range p.cmds {
		if c.name == ':' {
			labels[c.label] = i
		}
	}
	for _, c := range p.cmds {
		if c.name == 'b' || c.name == 't' || c.name == 'T' {
			if c.label == "" {
				c.jump = len(p.cmds)
				continue
			}
			j, ok := labels[c.label]
			if !ok {
				panic(&sedError{msg: "can't find label for jump to `" + c.label + "'"})
			}
			c.jump = j
		}
	}
}

func (p *sedParser) number() int {
	n := 0
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		if n < 1<<30 {
			n = n*10 + int(p.peek()-'0')
		}
		p.i++
	}
	return n
}

func (p *sedParser) address() sedAddr {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		n := p.number()
		if p.peek() == '~' {
			p.i++
			return sedAddr{kind: saStep, n: n, step: p.number()}
		}
		if n == 0 {
			return sedAddr{kind: saZero}
		}
		return sedAddr{kind: saLine, n: n}
	case c == '$':
		p.i++
		return sedAddr{kind: saLast}
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
			if p.eof() {
				p.fail("unexpected end of expression")
			}
		}
		delim := p.peek()
		p.i++
		pat, ok := p.delimited(delim, true)
		if !ok {
			p.fail("unterminated address regex")
		}
		a := sedAddr{kind: saRegex}
		icase, multi := false, false
		for {
			if p.peek() == 'I' {
				icase = true
				p.i++
				continue
			}
			if p.peek() == 'M' {
				multi = true
				p.i++
				continue
			}
			break
		}
		if pat == "" {
			a.emptyRegex = true
		} else {
			a.re = p.compile(pat, icase, multi)
		}
		return a
	}
	return sedAddr{}
}

func (p *sedParser) address2() sedAddr {
	switch p.peek() {
	case '+', '~':
		kind := saPlus
		if p.peek() == '~' {
			kind = saTilde
		}
		p.i++
		if !(p.peek() >= '0' && p.peek() <= '9') {
			p.fail("expected newer version of sed")
		}
		return sedAddr{kind: kind, n: p.number()}
	}
	a := p.address()
	if a.kind == saZero {
		p.fail("invalid usage of line address 0")
	}
	if a.kind == saStep {
		// GNU reads addr1,first~step as a line number.
		a = sedAddr{kind: saLine, n: a.n}
	}
	return a
}

// delimited reads up to an unescaped delim. A "\delim" becomes delim; a
// "\n" stays for the regex compiler; in brackets the delimiter is literal
// for '/' only as GNU does not special-case it either.
func (p *sedParser) delimited(delim byte, regex bool) (string, bool) {
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\\' && p.i+1 < len(p.src) {
			n := p.src[p.i+1]
			p.i += 2
			switch {
			case n == delim && delim != '&':
				b.WriteByte(delim)
			case n == '\n':
				b.WriteString("\\n")
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			continue
		}
		if c == delim {
			p.i++
			return b.String(), true
		}
		if c == '\n' && regex {
			return "", false
		}
		b.WriteByte(c)
		p.i++
	}
	return "", false
}

func (p *sedParser) compile(pat string, icase, multi bool) *regexp.Regexp {
	t, err := posixre.Translate(pat, p.ere)
	if err != nil {
		p.fail(err.Error())
	}
	flags := ""
	if icase {
		flags += "i"
	}
	if multi {
		flags += "m"
	}
	if flags != "" {
		t = "(?" + flags + ")" + t
	}
	re, err := regexp.Compile(t)
	if err != nil {
		p.fail("Invalid regular expression")
	}
	re.Longest()
	return re
}

// endCommand accepts what may follow a command: spaces, then ; } # or a newline.
func (p *sedParser) endCommand() {
	p.skipSpace()
	switch p.peek() {
	case 0, ';', '\n', '}', '#':
		return
	}
	p.i++
	p.fail("extra characters after command")
}

// readLabel reads a label or file name up to a newline or ';'.
func (p *sedParser) readLabel(semicolon bool) string {
	p.skipSpace()
	start := p.i
	for !p.eof() && p.peek() != '\n' && !(semicolon && p.peek() == ';') {
		p.i++
	}
	return strings.TrimRight(p.src[start:p.i], " \t")
}

// readText reads a/i/c text: "a\" newline text (lines continued by a
// trailing backslash) or GNU's one-line "a text".
func (p *sedParser) readText() string {
	p.skipSpace()
	if p.eof() {
		p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.peek() == '\\' {
		p.i++
		if p.peek() == '\n' {
			p.i++
		} else {
			p.skipSpace()
		}
	}
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\\' && p.i+1 < len(p.src) {
			b.WriteByte(p.src[p.i+1])
			p.i += 2
			continue
		}
		if c == '\n' {
			p.i++
			break
		}
		b.WriteByte(c)
		p.i++
	}
	return b.String()
}

func (p *sedParser) command(c *sedCmd) {
	c.name = p.peek()
	p.i++
	oneAddr := func() {
		if c.a2.kind != saNone {
			p.fail("command only uses one address")
		}
	}
	switch c.name {
	case '{':
		p.blocks = append(p.blocks, len(p.cmds))
		p.cmds = append(p.cmds, c)
		return
	case '}':
		if len(p.blocks) == 0 {
			p.fail("unexpected `}'")
		}
		if c.a1.kind != saNone {
			p.fail("} doesn't want any addresses")
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.cmds[open].jump = len(p.cmds) + 1
		p.endCommand()
		p.cmds = append(p.cmds, c)
		return
	case '#':
		p.fail("comments don't accept any addresses")
	case ':':
		if c.a1.kind != saNone {
			p.fail(": doesn't want any addresses")
		}
		c.label = p.readLabel(true)
		if c.label == "" {
			p.fail("\":\" lacks a label")
		}
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		p.endCommand()
	case 'a', 'i':
		c.text = p.readText()
	case 'c':
		c.text = p.readText()
	case 'b', 't', 'T':
		c.label = p.readLabel(true)
	case 'q', 'Q':
		oneAddr()
		p.skipSpace()
		if p.peek() >= '0' && p.peek() <= '9' {
			c.exit = p.number()
		}
		p.endCommand()
	case 'r', 'R', 'w', 'W':
		c.text = p.readLabel(false)
		if c.text == "" {
			p.fail("missing filename in r/R/w/W commands")
		}
	case 's':
		p.substitute(c)
	case 'y':
		p.transliterate(c)
	default:
		p.fail("unknown command: `" + string(c.name) + "'")
	}
	p.cmds = append(p.cmds, c)
}

func (p *sedParser) substitute(c *sedCmd) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
		p.fail("unterminated `s' command")
	}
	delim := p.peek()
	p.i++
	pat, ok := p.delimited(delim, false)
	if !ok {
		p.fail("unterminated `s' command")
	}
	repl, ok := p.replacement(delim)
	if !ok {
		p.fail("unterminated `s' command")
	}
	icase, multi := false, false
	for done := false; !done && !p.eof(); {
		switch f := p.peek(); {
		case f == 'g':
			p.i++
			if c.global {
				p.fail("multiple `g' options to `s' command")
			}
			c.global = true
		case f == 'p':
			p.i++
			if c.print > 0 {
				p.fail("multiple `p' options to `s' command")
			}
			c.print++
		case f == 'i' || f == 'I':
			p.i++
			icase = true
		case f == 'm' || f == 'M':
			p.i++
			multi = true
		case f == 'e':
			p.i++
		case f >= '0' && f <= '9':
			if c.nth > 0 {
				p.number()
				p.fail("multiple number options to `s' command")
			}
			n := p.number()
			if n == 0 {
				p.fail("number option to `s' command may not be zero")
			}
			c.nth = n
		case f == 'w':
			p.i++
			c.wfile = p.readLabel(false)
			if c.wfile == "" {
				p.fail("missing filename in r/R/w/W commands")
			}
			done = true
		case f == ';' || f == '\n' || f == '}' || f == '#' || f == ' ' || f == '\t':
			done = true
		default:
			p.i++
			p.fail("unknown option to `s'")
		}
	}
	p.endCommand()
	if pat == "" {
		c.emptyRegex = true
	} else {
		c.re = p.compile(pat, icase, multi)
		groups := c.re.NumSubexp()
		for i := 0; i+1 < len(repl); i++ {
			if repl[i] == '\\' {
				if d := repl[i+1]; d >= '1' && d <= '9' && int(d-'0') > groups {
					p.fail(fmt.Sprintf("invalid reference \\%c on `s' command's RHS", d))
				}
				i++
			}
		}
	}
	c.repl = repl
}

// replacement reads the RHS of s, keeping escapes for expansion; an
// escaped newline is a newline.
func (p *sedParser) replacement(delim byte) (string, bool) {
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\\' && p.i+1 < len(p.src) {
			n := p.src[p.i+1]
			p.i += 2
			switch {
			case n == delim && delim != '&' && !(n >= '0' && n <= '9'):
				b.WriteByte(delim)
			case n == '\n':
				b.WriteByte('\n')
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			continue
		}
		if c == delim {
			p.i++
			return b.String(), true
		}
		b.WriteByte(c)
		p.i++
	}
	return "", false
}

func (p *sedParser) transliterate(c *sedCmd) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
		p.fail("unterminated `y' command")
	}
	delim := p.peek()
	p.i++
	part := func() []rune {
		var out []rune
		for p.i < len(p.src) {
			r, w := utf8.DecodeRuneInString(p.src[p.i:])
			if r == '\\' && p.i+1 < len(p.src) {
				n := p.src[p.i+1]
				p.i += 2
				switch {
				case n == delim:
					out = append(out, rune(delim))
				case n == 'n':
					out = append(out, '\n')
				case n == 't':
					out = append(out, '\t')
				case n == '\\':
					out = append(out, '\\')
				default:
					p.fail("unknown option to `y'")
				}
				continue
			}
			if byte(r) == delim && w == 1 {
				p.i++
				return out
			}
			out = append(out, r)
			p.i += w
		}
		p.fail("unterminated `y' command")
		return nil
	}
	c.from = part()
	c.to = part()
	if len(c.from) != len(c.to) {
		p.fail("strings for `y' command are different lengths")
	}
	p.endCommand()
}

// ---- execution ----

type sedInput struct {
	name  string
	lines []string
	// lastNL: whether the file's last line ended with a newline
	lastNL bool
}

type sedRun struct {
	ctx       *Context
	cmds      []*sedCmd
	quiet     bool
	sep       byte
	inputs    []sedInput
	fi, li    int // current input and next line within it
	line      int
	ps, hs    string
	appendQ   []string
	out       *strings.Builder
	missingNL bool
	pendingNL bool
	lastRe    *regexp.Regexp
	tflag     bool
	quit      bool
	code      int
	wfiles    map[string]bool
	separate  bool
	steps     int
	maxSteps  int // commands run (10 million at the shell's default budget)
}

func sedCmdMain(ctx *Context, args []string) int {
	var scripts []string
	var starts []int
	var fromFile string
	quiet, ere, separate, inPlace, nul := false, false, false, false, false
	i := 0
	var files []string
	addScript := func(s string) {
		total := 0
		for _, sc := range scripts {
			total += len(sc) + 1
		}
		starts = append(starts, total)
		scripts = append(scripts, s)
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch name {
			case "quiet", "silent":
				quiet = true
			case "regexp-extended":
				ere = true
			case "separate":
				separate = true
			case "null-data":
				nul = true
			case "in-place":
				inPlace, separate = true, true
			case "posix", "debug", "sandbox", "unbuffered", "follow-symlinks":
			case "expression", "file":
				if !hasVal {
					if i+1 >= len(args) {
						fmt.Fprintf(ctx.Stderr, "sed: option '--%s' requires an argument\n", name)
						io.WriteString(ctx.Stderr, sedUsage)
						return 1
					}
					i++
					val = args[i]
				}
				if name == "file" {
					data, err := ctx.ReadFile(val)
					if err != nil {
						fmt.Fprintf(ctx.Stderr, "sed: couldn't open file %s: %s\n", val, errReason(err))
						return 1
					}
					fromFile = val
					addScript(strings.TrimSuffix(string(data), "\n"))
				} else {
					addScript(val)
				}
			case "help":
				io.WriteString(ctx.Stdout, sedUsage)
				return 0
			case "version":
				io.WriteString(ctx.Stdout, "sed (GNU sed) 4.9\n")
				return 0
			default:
				fmt.Fprintf(ctx.Stderr, "sed: unrecognized option '%s'\n", a)
				io.WriteString(ctx.Stderr, sedUsage)
				return 1
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'n':
				quiet = true
			case 'E', 'r':
				ere = true
			case 's':
				separate = true
			case 'z':
				nul = true
			case 'u':
			case 'i':
				// -i takes an attached suffix only; backups are not kept.
				inPlace, separate = true, true
				j = len(a)
			case 'e', 'f', 'l':
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						fmt.Fprintf(ctx.Stderr, "sed: option requires an argument -- '%c'\n", a[j])
						io.WriteString(ctx.Stderr, sedUsage)
						return 1
					}
					i++
					v = args[i]
				}
				switch a[j] {
				case 'e':
					addScript(v)
				case 'f':
					data, err := ctx.ReadFile(v)
					if err != nil {
						fmt.Fprintf(ctx.Stderr, "sed: couldn't open file %s: %s\n", v, errReason(err))
						return 1
					}
					fromFile = v
					addScript(strings.TrimSuffix(string(data), "\n"))
				}
				j = len(a)
			default:
				fmt.Fprintf(ctx.Stderr, "sed: invalid option -- '%c'\n", a[j])
				io.WriteString(ctx.Stderr, sedUsage)
				return 1
			}
		}
	}
	if len(scripts) == 0 {
		if len(files) == 0 {
			io.WriteString(ctx.Stderr, sedUsage)
			return 1
		}
		addScript(files[0])
		files = files[1:]
	}
	if len(scripts) > 1 {
		fromFile = ""
	}
	cmds, err := parseSed(strings.Join(scripts, "\n"), starts, ere, fromFile)
	if err != nil {
		fmt.Fprintf(ctx.Stderr, "sed: %s\n", err.Error())
		return 1
	}
	r := &sedRun{ctx: ctx, maxSteps: ctx.toolSteps(50), cmds: cmds, quiet: quiet, sep: '\n', separate: separate, wfiles: map[string]bool{}}
	if nul {
		r.sep = 0
	}
	if inPlace {
		if len(files) == 0 {
			fmt.Fprintln(ctx.Stderr, "sed: no input files")
			return 1
		}
		for _, f := range files {
			if ctx.FS.IsDir(ctx.Abs(f)) {
				fmt.Fprintf(ctx.Stderr, "sed: couldn't edit %s: not a regular file\n", f)
				r.code = 4
				continue
			}
			data, err := ctx.ReadFile(f)
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "sed: can't read %s: %s\n", f, errReason(err))
				r.code = 2
				continue
			}
			var out strings.Builder
			r.inputs = []sedInput{r.split(f, string(data))}
			r.fi, r.li, r.line = 0, 0, 0
			r.run(&out)
			if err := ctx.WriteFile(f, []byte(out.String()), false); err != nil {
				fmt.Fprintf(ctx.Stderr, "sed: couldn't open temporary file %s: %s\n", f, errReason(err))
				return 4
			}
			if r.quit {
				break
			}
		}
		return r.code
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, f := range files {
		if f != "-" && ctx.FS.IsDir(ctx.Abs(f)) {
			fmt.Fprintf(ctx.Stderr, "sed: couldn't edit %s: not a regular file\n", f)
			fmt.Fprintf(ctx.Stderr, "sed: read error on %s: Is a directory\n", f)
			r.code = 2
			continue
		}
		data, err := ctx.ReadFile(f)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "sed: can't read %s: %s\n", f, errReason(err))
			r.code = 2
			continue
		}
		r.inputs = append(r.inputs, r.split(f, string(data)))
	}
	var out strings.Builder
	r.run(&out)
	io.WriteString(ctx.Stdout, out.String())
	return r.code
}

func (r *sedRun) split(name, data string) sedInput {
	in := sedInput{name: name, lastNL: true}
	if data == "" {
		return in
	}
	sep := string([]byte{r.sep})
	in.lastNL = strings.HasSuffix(data, sep)
	in.lines = strings.Split(strings.TrimSuffix(data, sep), sep)
	return in
}

// next reads the next input line; ok is false at the end of input.
func (r *sedRun) next() (string, bool) {
	for r.fi < len(r.inputs) {
		in := &r.inputs[r.fi]
		if r.li < len(in.lines) {
			l := in.lines[r.li]
			r.li++
			r.line++
			r.missingNL = r.li == len(in.lines) && !in.lastNL
			return l, true
		}
		r.fi++
		r.li = 0
		if r.separate {
			r.line = 0
		}
	}
	return "", false
}

// isLast reports whether the current line is the last of the input (or
// of its file with -s/-i).
func (r *sedRun) isLast() bool {
	if r.fi >= len(r.inputs) {
		return true
	}
	if r.li < len(r.inputs[r.fi].lines) {
		return false
	}
	if r.separate {
		return true
	}
	for k := r.fi + 1; k < len(r.inputs); k++ {
		if len(r.inputs[k].lines) > 0 {
			return false
		}
	}
	return true
}

// write outputs s; a last line printed without its newline gets it back
// when more output follows, as GNU sed does.
func (r *sedRun) write(s string) {
	if r.pendingNL {
		r.out.WriteByte(r.sep)
		r.pendingNL = false
	}
	r.out.WriteString(s)
}

func (r *sedRun) emit(s string) {
	r.write(s)
	r.out.WriteByte(r.sep)
}

func (r *sedRun) emitPS() {
	r.write(r.ps)
	if r.missingNL && r.isLast() {
		r.pendingNL = true
	} else {
		r.out.WriteByte(r.sep)
	}
}

func (r *sedRun) flushAppends() {
	for _, a := range r.appendQ {
		r.write(a)
	}
	r.appendQ = r.appendQ[:0]
}

func (r *sedRun) regex(re *regexp.Regexp, empty bool) *regexp.Regexp {
	if empty {
		if r.lastRe == nil {
			r.fatal("no previous regular expression")
		}
		return r.lastRe
	}
	r.lastRe = re
	return re
}

type sedFatal struct{ msg string }

func (r *sedRun) fatal(msg string) { panic(&sedFatal{msg: msg}) }

func (r *sedRun) matchAddr(a *sedAddr) bool {
	switch a.kind {
	case saLine:
		return r.line == a.n
	case saLast:
		return r.isLast()
	case saRegex:
		return r.regex(a.re, a.emptyRegex).MatchString(r.ps)
	case saStep:
		if a.step <= 0 {
			return r.line == a.n
		}
		return r.line >= a.n && (r.line-a.n)%a.step == 0
	}
	return false
}

func (r *sedRun) selected(c *sedCmd) bool {
	if c.a1.kind == saNone {
		return true
	}
	if c.a2.kind == saNone {
		return r.matchAddr(&c.a1)
	}
	if c.active {
		switch c.a2.kind {
		case saRegex:
			if r.matchAddr(&c.a2) {
				c.active = false
			}
			return true
		case saLast:
			if r.isLast() {
				c.active = false
			}
			return true
		default:
			if r.line >= c.end {
				c.active = false
				return r.line == c.end || c.a2.kind == saLine && r.line <= c.end
			}
			return true
		}
	}
	start := false
	if c.a1.kind == saZero {
		if c.zeroStartAvailable {
			c.zeroStartAvailable = false
			if r.matchAddr(&c.a2) {
				return true
			}
			c.active = true
			return true
		}
		return false
	}
	start = r.matchAddr(&c.a1)
	if !start {
		return false
	}
	switch c.a2.kind {
	case saLine:
		if c.a2.n <= r.line {
			return true
		}
		c.end = c.a2.n
	case saPlus:
		if c.a2.n == 0 {
			return true
		}
		c.end = r.line + c.a2.n
	case saTilde:
		if c.a2.n <= 0 || r.line%c.a2.n == 0 {
			return true
		}
		c.end = (r.line/c.a2.n + 1) * c.a2.n
	case saLast:
		if r.isLast() {
			return true
		}
	}
	c.active = true
	return true
}

func (r *sedRun) run(out *strings.Builder) {
	r.out = out
	for _, c := range r.cmds {
		c.active = false
		c.zeroStartAvailable = c.a1.kind == saZero
	}
	defer func() {
		if x := recover(); x != nil {
			f, ok := x.(*sedFatal)
			if !ok {
				panic(x)
			}
			fmt.Fprintf(r.ctx.Stderr, "sed: %s\n", f.msg)
			r.code = 4
			r.quit = true
		}
	}()
	for !r.quit {
		l, ok := r.next()
		if !ok {
			break
		}
		r.ps = l
		r.tflag = false
		r.cycle()
	}
}

// cycle runs the script on the pattern space, then prints it.
func (r *sedRun) cycle() {
	autoprint := !r.quiet
	for pc := 0; pc < len(r.cmds); {
		r.steps++
		if r.steps > r.maxSteps {
			r.fatal("too many steps: script stopped")
		}
		if r.out.Len() > maxOutput || len(r.ps) > maxOutput || len(r.hs) > maxOutput {
			r.fatal("couldn't write: No space left on device")
		}
		c := r.cmds[pc]
		sel := r.selected(c)
		if c.neg {
			sel = !sel
		}
		if c.name == '}' || c.name == ':' {
			pc++
			continue
		}
		if !sel {
			if c.name == '{' {
				pc = c.jump
				continue
			}
			pc++
			continue
		}
		switch c.name {
		case '{':
		case '=':
			r.write(strconv.Itoa(r.line) + "\n")
		case 'a':
			r.appendQ = append(r.appendQ, c.text+"\n")
		case 'i':
			r.write(c.text + "\n")
		case 'c':
			// In a range, the text replaces the whole range (printed at its end).
			if c.a2.kind == saNone || !c.active || c.neg {
				r.write(c.text + "\n")
			}
			r.endCycle(false)
			return
		case 'd':
			r.endCycle(false)
			return
		case 'D':
			if i := strings.IndexByte(r.ps, '\n'); i >= 0 {
				r.ps = r.ps[i+1:]
				r.flushAppends()
				pc = 0
				continue
			}
			r.endCycle(false)
			return
		case 'g':
			r.ps = r.hs
		case 'G':
			r.ps += "\n" + r.hs
		case 'h':
			r.hs = r.ps
		case 'H':
			r.hs += "\n" + r.ps
		case 'x':
			r.ps, r.hs = r.hs, r.ps
		case 'l':
			r.list()
		case 'n':
			if r.isLast() {
				// GNU: at the end of input, n prints and quits without running the rest.
				r.endCycle(autoprint)
				r.quit = true
				return
			}
			if autoprint {
				r.emitPS()
			}
			r.flushAppends()
			l, _ := r.next()
			r.ps = l
		case 'N':
			if r.isLast() {
				r.endCycle(autoprint)
				r.quit = true
				return
			}
			r.flushAppends()
			l, _ := r.next()
			r.ps += "\n" + l
		case 'p':
			r.emitPS()
		case 'P':
			if i := strings.IndexByte(r.ps, '\n'); i >= 0 {
				r.emit(r.ps[:i])
			} else {
				r.emitPS()
			}
		case 'q':
			r.code = c.exit
			r.endCycle(autoprint)
			r.quit = true
			return
		case 'Q':
			r.code = c.exit
			r.quit = true
			return
		case 'r':
			if data, err := r.ctx.ReadFile(c.text); err == nil {
				r.appendQ = append(r.appendQ, string(data))
			}
		case 'R':
		case 'w', 'W':
			s := r.ps
			if c.name == 'W' {
				s, _, _ = strings.Cut(s, "\n")
			}
			r.writeFile(c.text, s+"\n")
		case 'z':
			r.ps = ""
		case 'F':
			name := r.inputs[min(r.fi, len(r.inputs)-1)].name
			r.write(name + "\n")
		case 'b':
			pc = c.jump
			continue
		case 't', 'T':
			if r.tflag == (c.name == 't') {
				r.tflag = false
				pc = c.jump
				continue
			}
			if c.name == 'T' {
				r.tflag = false
			}
		case 's':
			r.substitute(c)
		case 'y':
			r.ps = strings.Map(func(x rune) rune {
				for i, f := range c.from {
					if f == x {
						return c.to[i]
					}
				}
				return x
			}, r.ps)
		}
		pc++
	}
	r.endCycle(autoprint)
}

func (r *sedRun) endCycle(print bool) {
	if print {
		r.emitPS()
	}
	r.flushAppends()
}

func (r *sedRun) writeFile(name, data string) {
	appendData := r.wfiles[name]
	r.wfiles[name] = true
	if name == "/dev/stdout" {
		r.write(data)
		return
	}
	if err := r.ctx.WriteFile(name, []byte(data), appendData); err != nil {
		r.fatal(fmt.Sprintf("couldn't open file %s: %s", name, errReason(err)))
	}
}

func (r *sedRun) list() {
	var b strings.Builder
	col := 0
	put := func(s string) {
		if col+len(s) > 69 {
			b.WriteString("\\\n")
			col = 0
		}
		b.WriteString(s)
		col += len(s)
	}
	for i := 0; i < len(r.ps); i++ {
		c := r.ps[i]
		switch c {
		case '\\':
			put("\\\\")
		case '\a':
			put("\\a")
		case '\b':
			put("\\b")
		case '\f':
			put("\\f")
		case '\n':
			put("\\n")
		case '\r':
			put("\\r")
		case '\t':
			put("\\t")
		case '\v':
			put("\\v")
		default:
			if c < 32 || c >= 127 {
				put(fmt.Sprintf("\\%03o", c))
			} else {
				put(string(c))
			}
		}
	}
	b.WriteString("$\n")
	r.write(b.String())
}

func (r *sedRun) substitute(c *sedCmd) {
	re := r.regex(c.re, c.emptyRegex)
	s := r.ps
	var out strings.Builder
	count, done := 0, 0
	last, prevEnd := 0, -1
	for pos := 0; pos <= len(s); {
		m := re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += pos
			}
		}
		st, en := m[0], m[1]
		if st == en && st == prevEnd {
			if st >= len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[st:])
			pos = st + w
			continue
		}
		count++
		prevEnd = en
		if count >= max(c.nth, 1) {
			out.WriteString(s[last:st])
			sedExpand(&out, c.repl, s, m)
			last = en
			done++
			if out.Len() > maxOutput {
				r.fatal("couldn't write: No space left on device")
			}
			if !c.global {
				break
			}
		}
		if en == st {
			if st >= len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[st:])
			pos = st + w
		} else {
			pos = en
		}
	}
	if done == 0 {
		return
	}
	out.WriteString(s[last:])
	r.ps = out.String()
	r.tflag = true
	if c.print > 0 {
		r.emitPS()
	}
	if c.wfile != "" {
		r.writeFile(c.wfile, r.ps+"\n")
	}
}

// sedExpand writes the replacement: & and \N are the match and its
// groups; \n \t are newline and tab; \L \U \E \l \u change case.
func sedExpand(out *strings.Builder, repl, s string, m []int) {
	caseMode := byte(0) // 'L', 'U' or 0
	oneShot := byte(0)  // 'l', 'u' or 0
	write := func(t string) {
		for _, ch := range t {
			switch {
			case oneShot == 'u':
				ch = unicode.ToUpper(ch)
				oneShot = 0
			case oneShot == 'l':
				ch = unicode.ToLower(ch)
				oneShot = 0
			case caseMode == 'U':
				ch = unicode.ToUpper(ch)
			case caseMode == 'L':
				ch = unicode.ToLower(ch)
			}
			out.WriteRune(ch)
		}
	}
	group := func(k int) string {
		if 2*k+1 < len(m) && m[2*k] >= 0 {
			return s[m[2*k]:m[2*k+1]]
		}
		return ""
	}
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		if ch == '&' {
			write(group(0))
			continue
		}
		if ch != '\\' || i+1 >= len(repl) {
			write(string(ch))
			continue
		}
		i++
		n := repl[i]
		switch {
		case n >= '0' && n <= '9':
			write(group(int(n - '0')))
		case n == 'n':
			write("\n")
		case n == 't':
			write("\t")
		case n == 'r':
			write("\r")
		case n == 'a':
			write("\a")
		case n == 'f':
			write("\f")
		case n == 'v':
			write("\v")
		case n == 'L' || n == 'U':
			caseMode, oneShot = n, 0
		case n == 'E':
			caseMode, oneShot = 0, 0
		case n == 'l' || n == 'u':
			oneShot = n
		case n == 'x':
			v, k := hexDigits(repl[i+1:], 2)
			if k > 0 {
				write(string([]byte{byte(v)}))
				i += k
			} else {
				write("x")
			}
		case n == 'o':
			k := 0
			v := 0
			for k < 3 && i+1+k < len(repl) && repl[i+1+k] >= '0' && repl[i+1+k] <= '7' {
				v = v*8 + int(repl[i+1+k]-'0')
				k++
			}
			if k > 0 {
				write(string([]byte{byte(v)}))
				i += k
			} else {
				write("o")
			}
		case n == 'd':
			k := 0
			v := 0
			for k < 3 && i+1+k < len(repl) && repl[i+1+k] >= '0' && repl[i+1+k] <= '9' {
				v = v*10 + int(repl[i+1+k]-'0')
				k++
			}
			if k > 0 {
				write(string([]byte{byte(v)}))
				i += k
			} else {
				write("d")
			}
		default:
			write(string(n))
		}
	}
}
