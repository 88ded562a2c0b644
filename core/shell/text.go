package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line-oriented coreutils: cat, head, tail, wc, tee, tac, rev, nl,
// basename, dirname, seq.

// splitLines splits text into lines without their newlines; the last line
// may lack one (final reports whether it had it).
func splitLines(text string) (lines []string, final bool) {
	if text == "" {
		return nil, true
	}
	final = strings.HasSuffix(text, "\n")
	lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return lines, final
}

// readInput reads an operand ("-" is stdin); errors are printed with
// the given format ("%s: %s" gets name and reason).
func readInput(ctx *Context, name string) (string, bool) {
	data, err := ctx.ReadFile(name)
	if err != nil {
		return "", false
	}
	if name != "-" && ctx.FS.IsDir(ctx.Abs(name)) {
		return "", false
	}
	return string(data), true
}

// inputError prints "tool: name: reason" for a file that cannot be read.
func inputError(ctx *Context, name string) {
	if name != "-" && ctx.FS.IsDir(ctx.Abs(name)) {
		fmt.Fprintf(ctx.Stderr, "%s: %s: Is a directory\n", ctx.Name, name)
		return
	}
	_, err := ctx.ReadFile(name)
	reason := "No such file or directory"
	if err != nil {
		reason = errReason(err).Error()
	}
	fmt.Fprintf(ctx.Stderr, "%s: %s: %s\n", ctx.Name, name, reason)
}

func catCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "nbsEATvetu", long: map[string]longOpt{
		"number": {short: "n"}, "number-nonblank": {short: "b"}, "squeeze-blank": {short: "s"},
		"show-ends": {short: "E"}, "show-all": {short: "A"}, "show-tabs": {short: "T"},
	}})
	if !ok {
		return 1
	}
	var number, nonblank, squeeze, ends, tabs bool
	for _, o := range opts {
		switch o.name {
		case "n":
			number = true
		case "b":
			nonblank = true
		case "s":
			squeeze = true
		case "E":
			ends = true
		case "T":
			tabs = true
		case "A", "e", "t":
			ends = ends || o.name != "t"
			tabs = tabs || o.name != "e"
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	plain := !number && !nonblank && !squeeze && !ends && !tabs
	code := 0
	n := 0
	prevBlank := false
	for _, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			inputError(ctx, f)
			code = 1
			continue
		}
		if plain {
			if _, err := io.WriteString(ctx.Stdout, text); err != nil {
				return 1
			}
			continue
		}
		var b strings.Builder
		lines, final := splitLines(text)
		for i, l := range lines {
			blank := l == ""
			if squeeze && blank && prevBlank {
				continue
			}
			prevBlank = blank
			if nonblank && !blank || number && !nonblank {
				n++
				fmt.Fprintf(&b, "%6d\t", n)
			}
			if tabs {
				l = strings.ReplaceAll(l, "\t", "^I")
			}
			b.WriteString(l)
			if i < len(lines)-1 || final {
				if ends {
					b.WriteByte('$')
				}
				b.WriteByte('\n')
			}
		}
		io.WriteString(ctx.Stdout, b.String())
	}
	return code
}

// parseCount reads head/tail's NUM with an optional multiplier suffix.
func parseCount(v string) (int64, bool) {
	mult := int64(1)
	for _, s := range []struct {
		suf string
		m   int64
	}{{"KiB", 1024}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1000}, {"MB", 1000000}, {"GB", 1000000000}, {"b", 512}, {"K", 1024}, {"k", 1024}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(v, s.suf) && len(v) > len(s.suf) {
			v, mult = strings.TrimSuffix(v, s.suf), s.m
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > 1<<40 {
		return 0, false
	}
	return n * mult, true
}

// numericShorthand turns head -5 / tail -5 / tail +5 into -n forms.
func numericShorthand(args []string, plus bool) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		takesValue := i > 0 && (args[i-1] == "-n" || args[i-1] == "-c" || args[i-1] == "--lines" || args[i-1] == "--bytes")
		if !takesValue && len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			out = append(out, "-n", a[1:])
			continue
		}
		if plus && i == 0 && len(a) > 1 && a[0] == '+' && a[1] >= '0' && a[1] <= '9' {
			out = append(out, "-n", a)
			continue
		}
		out = append(out, a)
	}
	return out
}

func headCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, numericShorthand(args, false), optSpec{short: "n:c:qvz", long: map[string]longOpt{
		"lines": {short: "n", arg: reqArg}, "bytes": {short: "c", arg: reqArg}, "quiet": {short: "q"},
		"silent": {short: "q"}, "verbose": {short: "v"},
	}})
	if !ok {
		return 1
	}
	count, bytesMode, allBut := int64(10), false, false
	headers := 0
	for _, o := range opts {
		switch o.name {
		case "n", "c":
			v := o.val
			neg := strings.HasPrefix(v, "-")
			n, ok := parseCount(strings.TrimPrefix(v, "-"))
			if !ok {
				what := "lines"
				if o.name == "c" {
					what = "bytes"
				}
				fmt.Fprintf(ctx.Stderr, "head: invalid number of %s: '%s'\n", what, v)
				return 1
			}
			count, bytesMode, allBut = n, o.name == "c", neg
		case "q":
			headers = -1
		case "v":
			headers = 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if headers == 0 && len(files) > 1 {
		headers = 1
	}
	code := 0
	for i, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			if ctx.FS.IsDir(ctx.Abs(f)) {
				fmt.Fprintf(ctx.Stderr, "head: error reading '%s': Is a directory\n", f)
			} else {
				fmt.Fprintf(ctx.Stderr, "head: cannot open '%s' for reading: No such file or directory\n", f)
			}
			code = 1
			continue
		}
		if headers > 0 {
			name := f
			if f == "-" {
				name = "standard input"
			}
			if i > 0 {
				io.WriteString(ctx.Stdout, "\n")
			}
			fmt.Fprintf(ctx.Stdout, "==> %s <==\n", name)
		}
		io.WriteString(ctx.Stdout, headOf(text, count, bytesMode, allBut))
	}
	return code
}

func headOf(text string, n int64, bytesMode, allBut bool) string {
	if bytesMode {
		if allBut {
			return text[:max(0, int64(len(text))-n)]
		}
		return text[:min(n, int64(len(text)))]
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	k := min(n, int64(len(lines)))
	if allBut {
		k = max(0, int64(len(lines))-n)
	}
	return strings.Join(lines[:k], "")
}

func tailCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, numericShorthand(args, true), optSpec{short: "n:c:qvfFs:z", long: map[string]longOpt{
		"lines": {short: "n", arg: reqArg}, "bytes": {short: "c", arg: reqArg}, "quiet": {short: "q"},
		"silent": {short: "q"}, "verbose": {short: "v"}, "follow": {short: "f", arg: optArg},
		"retry": {}, "sleep-interval": {short: "s", arg: reqArg}, "pid": {arg: reqArg},
	}})
	if !ok {
		return 1
	}
	count, bytesMode, fromStart := int64(10), false, false
	headers := 0
	for _, o := range opts {
		switch o.name {
		case "n", "c":
			v := o.val
			plus := strings.HasPrefix(v, "+")
			n, ok := parseCount(strings.TrimLeft(v, "+-"))
			if !ok {
				what := "lines"
				if o.name == "c" {
					what = "bytes"
				}
				fmt.Fprintf(ctx.Stderr, "tail: invalid number of %s: '%s'\n", what, v)
				return 1
			}
			count, bytesMode, fromStart = n, o.name == "c", plus
		case "q":
			headers = -1
		case "v":
			headers = 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if headers == 0 && len(files) > 1 {
		headers = 1
	}
	code := 0
	for i, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			if ctx.FS.IsDir(ctx.Abs(f)) {
				fmt.Fprintf(ctx.Stderr, "tail: error reading '%s': Is a directory\n", f)
			} else {
				fmt.Fprintf(ctx.Stderr, "tail: cannot open '%s' for reading: No such file or directory\n", f)
			}
			code = 1
			continue
		}
		if headers > 0 {
			name := f
			if f == "-" {
				name = "standard input"
			}
			if i > 0 {
				io.WriteString(ctx.Stdout, "\n")
			}
			fmt.Fprintf(ctx.Stdout, "==> %s <==\n", name)
		}
		io.WriteString(ctx.Stdout, tailOf(text, count, bytesMode, fromStart))
	}
	return code
}

func tailOf(text string, n int64, bytesMode, fromStart bool) string {
	if bytesMode {
		if fromStart {
			return text[min(max(n-1, 0), int64(len(text))):]
		}
		return text[max(0, int64(len(text))-n):]
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if fromStart {
		return strings.Join(lines[min(max(n-1, 0), int64(len(lines))):], "")
	}
	return strings.Join(lines[max(0, int64(len(lines))-n):], "")
}

type wcCounts struct{ lines, words, chars, bytes, maxLine int64 }

func countText(t string) wcCounts {
	c := wcCounts{bytes: int64(len(t))}
	inWord := false
	var lineLen int64
	for _, r := range t {
		c.chars++
		switch {
		case r == '\n':
			c.lines++
			c.maxLine = max(c.maxLine, lineLen)
			lineLen = 0
		case r == '\t':
			lineLen += 8 - lineLen%8
		default:
			lineLen++
		}
		if unicode.IsSpace(r) {
			inWord = false
		} else if !inWord {
			inWord = true
			c.words++
		}
	}
	c.maxLine = max(c.maxLine, lineLen)
	return c
}

func wcCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "lwcmL", long: map[string]longOpt{
		"lines": {short: "l"}, "words": {short: "w"}, "bytes": {short: "c"}, "chars": {short: "m"},
		"max-line-length": {short: "L"},
	}})
	if !ok {
		return 1
	}
	var pl, pw, pc, pm, pL bool
	for _, o := range opts {
		switch o.name {
		case "l":
			pl = true
		case "w":
			pw = true
		case "c":
			pc = true
		case "m":
			pm = true
		case "L":
			pL = true
		}
	}
	if !pl && !pw && !pc && !pm && !pL {
		pl, pw, pc = true, true, true
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	type result struct {
		name string
		c    wcCounts
		ok   bool
	}
	var results []result
	var total wcCounts
	code := 0
	regularTotal, minWidth := int64(0), 1
	for _, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			inputError(ctx, f)
			code = 1
			results = append(results, result{name: f})
			continue
		}
		if f == "-" {
			minWidth = 7
		} else {
			regularTotal += int64(len(text))
		}
		c := countText(text)
		total.lines += c.lines
		total.words += c.words
		total.chars += c.chars
		total.bytes += c.bytes
		total.maxLine = max(total.maxLine, c.maxLine)
		name := f
		if !named {
			name = ""
		}
		results = append(results, result{name: name, c: c, ok: true})
	}
	width := 1
	for v := regularTotal; v >= 10; v /= 10 {
		width++
	}
	width = max(width, minWidth)
	nCounts := 0
	for _, b := range []bool{pl, pw, pc, pm, pL} {
		if b {
			nCounts++
		}
	}
	if nCounts == 1 && len(files) == 1 {
		width = 1
	}
	line := func(c wcCounts, name string) {
		var parts []string
		for _, x := range []struct {
			on bool
			v  int64
		}{{pl, c.lines}, {pw, c.words}, {pm, c.chars}, {pc, c.bytes}, {pL, c.maxLine}} {
			if x.on {
				parts = append(parts, fmt.Sprintf("%*d", width, x.v))
			}
		}
		s := strings.Join(parts, " ")
		if name != "" {
			s += " " + name
		}
		fmt.Fprintln(ctx.Stdout, s)
	}
	for _, r := range results {
		if r.ok {
			line(r.c, r.name)
		}
	}
	if len(files) > 1 {
		line(total, "total")
	}
	return code
}

func teeCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "aip", long: map[string]longOpt{"append": {short: "a"}, "ignore-interrupts": {short: "i"}}})
	if !ok {
		return 1
	}
	appendTo := false
	for _, o := range opts {
		if o.name == "a" {
			appendTo = true
		}
	}
	data, _ := io.ReadAll(ctx.Stdin)
	code := 0
	for _, f := range files {
		if err := ctx.WriteFile(f, data, appendTo); err != nil {
			fmt.Fprintf(ctx.Stderr, "tee: %v\n", err)
			code = 1
		}
	}
	ctx.Stdout.Write(data)
	return code
}

func tacCmd(ctx *Context, args []string) int {
	if len(args) == 0 {
		args = []string{"-"}
	}
	code := 0
	for _, f := range args {
		text, ok := readInput(ctx, f)
		if !ok {
			fmt.Fprintf(ctx.Stderr, "tac: failed to open '%s' for reading: No such file or directory\n", f)
			code = 1
			continue
		}
		lines := strings.SplitAfter(text, "\n")
		var b strings.Builder
		for i := len(lines) - 1; i >= 0; i-- {
			b.WriteString(lines[i])
		}
		io.WriteString(ctx.Stdout, b.String())
	}
	return code
}

func revCmd(ctx *Context, args []string) int {
	if len(args) == 0 {
		args = []string{"-"}
	}
	code := 0
	for _, f := range args {
		text, ok := readInput(ctx, f)
		if !ok {
			fmt.Fprintf(ctx.Stderr, "rev: cannot open %s: No such file or directory\n", f)
			code = 1
			continue
		}
		lines, final := splitLines(text)
		var b strings.Builder
		for i, l := range lines {
			r := []rune(l)
			for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
				r[x], r[y] = r[y], r[x]
			}
			b.WriteString(string(r))
			if i < len(lines)-1 || final {
				b.WriteByte('\n')
			}
		}
		io.WriteString(ctx.Stdout, b.String())
	}
	return code
}

func basenameCmd(ctx *Context, args []string) int {
	multi, suffix := false, ""
	var names []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-a" || a == "--multiple":
			multi = true
		case a == "-s" && i+1 < len(args):
			i++
			suffix, multi = args[i], true
		case strings.HasPrefix(a, "--suffix="):
			suffix, multi = strings.TrimPrefix(a, "--suffix="), true
		default:
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(ctx.Stderr, "basename: missing operand")
		tryHelp(ctx)
		return 1
	}
	if !multi {
		if len(names) > 2 {
			fmt.Fprintf(ctx.Stderr, "basename: extra operand '%s'\n", names[2])
			tryHelp(ctx)
			return 1
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	for _, n := range names {
		b := baseName(n)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		fmt.Fprintln(ctx.Stdout, b)
	}
	return 0
}

func baseName(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		return t[i+1:]
	}
	return t
}

func dirName(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return "."
		}
		return "/"
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}

func dirnameCmd(ctx *Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(ctx.Stderr, "dirname: missing operand")
		tryHelp(ctx)
		return 1
	}
	for _, a := range args {
		fmt.Fprintln(ctx.Stdout, dirName(a))
	}
	return 0
}

// maxSeq bounds seq's output lines.
const maxSeq = 1000000

func seqCmd(ctx *Context, args []string) int {
	sep, format, equal := "\n", "", false
	var nums []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-s" && i+1 < len(args):
			i++
			sep = args[i]
		case strings.HasPrefix(a, "-s") && len(a) > 2:
			sep = a[2:]
		case strings.HasPrefix(a, "--separator="):
			sep = strings.TrimPrefix(a, "--separator=")
		case a == "-f" && i+1 < len(args):
			i++
			format = args[i]
		case strings.HasPrefix(a, "--format="):
			format = strings.TrimPrefix(a, "--format=")
		case a == "-w" || a == "--equal-width":
			equal = true
		default:
			nums = append(nums, a)
		}
	}
	if len(nums) == 0 {
		fmt.Fprintln(ctx.Stderr, "seq: missing operand")
		tryHelp(ctx)
		return 1
	}
	if len(nums) > 3 {
		fmt.Fprintf(ctx.Stderr, "seq: extra operand '%s'\n", nums[3])
		tryHelp(ctx)
		return 1
	}
	vals := make([]float64, len(nums))
	prec := 0
	for i, n := range nums {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil || n == "" {
			fmt.Fprintf(ctx.Stderr, "seq: invalid floating point argument: '%s'\n", n)
			tryHelp(ctx)
			return 1
		}
		vals[i] = v
		if dot := strings.IndexByte(n, '.'); dot >= 0 && i != 2 {
			prec = max(prec, len(n)-dot-1)
		} else if dot >= 0 {
			prec = max(prec, len(n)-dot-1)
		}
	}
	first, step, last := 1.0, 1.0, vals[0]
	switch len(vals) {
	case 2:
		first, last = vals[0], vals[1]
	case 3:
		first, step, last = vals[0], vals[1], vals[2]
	}
	if step == 0 {
		fmt.Fprintf(ctx.Stderr, "seq: invalid Zero increment value: '%s'\n", nums[1])
		tryHelp(ctx)
		return 1
	}
	fmtNum := func(v float64) string {
		if format != "" {
			return fmt.Sprintf(format, v)
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	width := 0
	if equal {
		width = max(len(fmtNum(first)), len(fmtNum(last)))
	}
	var b strings.Builder
	n := 0
	for i := 0; ; i++ {
		v := first + float64(i)*step
		if step > 0 && v > last+1e-9 || step < 0 && v < last-1e-9 {
			break
		}
		if n > 0 {
			b.WriteString(sep)
		}
		s := fmtNum(v)
		if equal && len(s) < width {
			neg := strings.HasPrefix(s, "-")
			s = strings.TrimPrefix(s, "-")
			s = strings.Repeat("0", width-len(s)-btoi(neg)) + s
			if neg {
				s = "-" + s
			}
		}
		b.WriteString(s)
		if n++; n >= maxSeq || b.Len() > maxOutput/2 {
			break
		}
	}
	if n > 0 {
		b.WriteString("\n")
	}
	if _, err := io.WriteString(ctx.Stdout, b.String()); err != nil {
		return 1
	}
	return 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nlCmd(ctx *Context, args []string) int {
	all := false
	var files []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-ba" || a == "-b" && i+1 < len(args) && args[i+1] == "a":
			if a == "-b" {
				i++
			}
			all = true
		default:
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	n := 0
	code := 0
	for _, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			inputError(ctx, f)
			code = 1
			continue
		}
		lines, _ := splitLines(text)
		var b strings.Builder
		for _, l := range lines {
			if l == "" && !all {
				b.WriteString("       \n")
				continue
			}
			n++
			fmt.Fprintf(&b, "%6d\t%s\n", n, l)
		}
		io.WriteString(ctx.Stdout, b.String())
	}
	return code
}

// runeLen is the display length used by cut -c and friends.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
