package shell

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"kubeplay/core/vfs"
)

// find, as GNU find: paths then an expression of tests (-name -iname
// -path -type -empty -size -newer), actions (-print -print0 -delete -exec
// -prune) and operators (! -not -a -and -o -or ( )), with -maxdepth and
// -mindepth. Directories are walked in sorted order.

type findNode struct {
	op   string // "and", "or", "not", or a primary's name
	l, r *findNode
	arg  string
	cmd  []string // -exec's words
	plus bool     // -exec … {} +
	n    int64
	cmp  int // -size: -1 less, 0 exactly, 1 more
}

type findRun struct {
	ctx              *Context
	maxDepth         int
	minDepth         int
	hasAction        bool
	code             int
	pruned           bool
	batch            map[*findNode][]string
	batchOrder       []*findNode
	out              strings.Builder
	visited, stopped int
}

type findParser struct {
	args []string
	i    int
	run  *findRun
	err  string
	seen string // last non-global primary, for the -maxdepth warning
}

func (p *findParser) fail(format string, a ...any) *findNode {
	if p.err == "" {
		p.err = fmt.Sprintf(format, a...)
	}
	return &findNode{op: "-true"}
}

func (p *findParser) peek() string {
	if p.i < len(p.args) {
		return p.args[p.i]
	}
	return ""
}

func (p *findParser) or() *findNode {
	l := p.and()
	for p.peek() == "-o" || p.peek() == "-or" {
		p.i++
		if p.i >= len(p.args) {
			return p.fail("find: invalid expression; you have used a binary operator '-o' with nothing after it.")
		}
		l = &findNode{op: "or", l: l, r: p.and()}
	}
	return l
}

func (p *findParser) and() *findNode {
	l := p.not()
	for {
		switch t := p.peek(); {
		case t == "-a" || t == "-and":
			p.i++
			l = &findNode{op: "and", l: l, r: p.not()}
		case t != "" && t != "-o" && t != "-or" && t != ")":
			l = &findNode{op: "and", l: l, r: p.not()}
		default:
			return l
		}
	}
}

func (p *findParser) not() *findNode {
	if t := p.peek(); t == "!" || t == "-not" {
		p.i++
		return &findNode{op: "not", l: p.not()}
	}
	return p.primary()
}

func (p *findParser) primary() *findNode {
	if p.i >= len(p.args) {
		return p.fail("find: expected an expression")
	}
	t := p.args[p.i]
	p.i++
	arg := func() (string, bool) {
		if p.i >= len(p.args) {
			p.fail("find: missing argument to `%s'", t)
			return "", false
		}
		p.i++
		return p.args[p.i-1], true
	}
	switch t {
	case "(":
		n := p.or()
		if p.peek() != ")" {
			return p.fail("find: invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.i++
		return n
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-newer":
		p.seen = t
		v, ok := arg()
		if !ok {
			return &findNode{op: "-true"}
		}
		if t == "-newer" {
			fi, err := p.run.ctx.FS.Stat(p.run.ctx.Abs(v))
			if err != nil {
				return p.fail("find: ‘%s’: %s", v, vfs.Reason(err))
			}
			return &findNode{op: t, n: fi.ModTime().UnixNano()}
		}
		return &findNode{op: t, arg: v}
	case "-type":
		p.seen = t
		v, ok := arg()
		if !ok {
			return &findNode{op: "-true"}
		}
		for _, c := range strings.Split(v, ",") {
			if len(c) != 1 || !strings.Contains("bcdpflsD", c) {
				return p.fail("find: Unknown argument to -type: %s", c)
			}
		}
		return &findNode{op: t, arg: v}
	case "-size":
		p.seen = t
		v, ok := arg()
		if !ok {
			return &findNode{op: "-true"}
		}
		n := &findNode{op: t}
		s := v
		if strings.HasPrefix(s, "+") {
			n.cmp, s = 1, s[1:]
		} else if strings.HasPrefix(s, "-") {
			n.cmp, s = -1, s[1:]
		}
		unit := int64(512)
		if s != "" {
			switch s[len(s)-1] {
			case 'c':
				unit, s = 1, s[:len(s)-1]
			case 'w':
				unit, s = 2, s[:len(s)-1]
			case 'b':
				s = s[:len(s)-1]
			case 'k':
				unit, s = 1024, s[:len(s)-1]
			case 'M':
				unit, s = 1<<20, s[:len(s)-1]
			case 'G':
				unit, s = 1<<30, s[:len(s)-1]
			}
		}
		v2, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v2 < 0 {
			return p.fail("find: invalid -size type `%s'", v)
		}
		n.n, n.arg = v2, strconv.FormatInt(unit, 10)
		return n
	case "-maxdepth", "-mindepth":
		v, ok := arg()
		if !ok {
			return &findNode{op: "-true"}
		}
		d, err := strconv.Atoi(v)
		if err != nil || d < 0 {
			return p.fail("find: Expected a positive decimal integer argument to %s, but got ‘%s’", t, v)
		}
		if t == "-maxdepth" {
			p.run.maxDepth = d
		} else {
			p.run.minDepth = d
		}
		return &findNode{op: "-true"}
	case "-empty", "-true", "-false", "-prune", "-print", "-print0", "-delete", "-quit", "-ls":
		p.seen = t
		switch t {
		case "-print", "-print0", "-delete", "-ls":
			p.run.hasAction = true
		}
		return &findNode{op: t}
	case "-exec", "-ok", "-execdir":
		p.seen = t
		p.run.hasAction = true
		n := &findNode{op: "-exec"}
		for p.i < len(p.args) {
			w := p.args[p.i]
			p.i++
			if w == ";" {
				if len(n.cmd) == 0 {
					return p.fail("find: missing argument to `%s'", t)
				}
				return n
			}
			if w == "+" && len(n.cmd) > 0 && n.cmd[len(n.cmd)-1] == "{}" {
				n.plus = true
				n.cmd = n.cmd[:len(n.cmd)-1]
				return n
			}
			n.cmd = append(n.cmd, w)
		}
		return p.fail("find: missing argument to `%s'", t)
	case "-depth", "-xdev", "-mount", "-follow", "-noleaf", "-ignore_readdir_race":
		return &findNode{op: "-true"}
	}
	if strings.HasPrefix(t, "-") {
		return p.fail("find: unknown predicate `%s'", t)
	}
	return p.fail("find: paths must precede expression: `%s'", t)
}

func findCmd(ctx *Context, args []string) int {
	i := 0
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P") {
		i++
	}
	var roots []string
	for i < len(args) && !(strings.HasPrefix(args[i], "-") && len(args[i]) > 1) && args[i] != "(" && args[i] != "!" {
		roots = append(roots, args[i])
		i++
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	r := &findRun{ctx: ctx, maxDepth: -1, batch: map[*findNode][]string{}}
	p := &findParser{args: args[i:], run: r}
	var expr *findNode
	if len(p.args) > 0 {
		expr = p.or()
		if p.err == "" && p.i < len(p.args) {
			if p.args[p.i] == ")" {
				p.fail("find: invalid expression; you have too many ')'")
			} else {
				p.fail("find: paths must precede expression: `%s'", p.args[p.i])
			}
		}
		if p.err != "" {
			fmt.Fprintln(ctx.Stderr, p.err)
			return 1
		}
	}
	for _, root := range roots {
		abs := ctx.Abs(root)
		fi, err := ctx.FS.Stat(abs)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "find: ‘%s’: %s\n", root, vfs.Reason(err))
			r.code = 1
			continue
		}
		r.walk(expr, root, abs, fi, 0)
		if r.stopped > 0 {
			break
		}
	}
	for _, n := range r.batchOrder {
		r.exec(n, r.batch[n])
	}
	ctx.Stdout.Write([]byte(r.out.String()))
	return r.code
}

func (r *findRun) walk(expr *findNode, name, abs string, fi vfs.FileInfo, depth int) {
	r.visited++
	if r.visited > 1<<20 || r.out.Len() > maxOutput {
		r.stopped = 1
		return
	}
	r.pruned = false
	if depth >= r.minDepth && (r.maxDepth < 0 || depth <= r.maxDepth) {
		ok := expr == nil || r.eval(expr, name, abs, fi, depth)
		if ok && !r.hasAction {
			r.out.WriteString(name + "\n")
		}
		if r.stopped > 0 {
			return
		}
	}
	if !fi.IsDir() || r.pruned || (r.maxDepth >= 0 && depth >= r.maxDepth) || depth > 200 {
		return
	}
	infos, err := r.ctx.FS.ReadDir(abs)
	if err != nil {
		// -delete may have removed it.
		return
	}
	for _, c := range infos {
		child := name + "/" + c.Name()
		if strings.HasSuffix(name, "/") {
			child = name + c.Name()
		}
		r.walk(expr, child, path.Join(abs, c.Name()), c, depth+1)
		if r.stopped > 0 {
			return
		}
	}
}

func (r *findRun) eval(n *findNode, name, abs string, fi vfs.FileInfo, depth int) bool {
	switch n.op {
	case "and":
		return r.eval(n.l, name, abs, fi, depth) && r.eval(n.r, name, abs, fi, depth)
	case "or":
		return r.eval(n.l, name, abs, fi, depth) || r.eval(n.r, name, abs, fi, depth)
	case "not":
		return !r.eval(n.l, name, abs, fi, depth)
	case "-true":
		return true
	case "-false":
		return false
	case "-name", "-iname":
		base := path.Base(name)
		if name == "/" {
			base = "/"
		}
		if n.op == "-iname" {
			return globMatch(strings.ToLower(n.arg), strings.ToLower(base))
		}
		return globMatch(n.arg, base)
	case "-path", "-wholename":
		return globMatch(n.arg, name)
	case "-ipath", "-iwholename":
		return globMatch(strings.ToLower(n.arg), strings.ToLower(name))
	case "-regex":
		re, err := compileGrep([]string{n.arg}, "E", false, false, true)
		return err == nil && re.MatchString(name)
	case "-newer":
		return fi.ModTime().UnixNano() > n.n
	case "-type":
		for _, c := range strings.Split(n.arg, ",") {
			if c == "d" && fi.IsDir() || c == "f" && !fi.IsDir() {
				return true
			}
		}
		return false
	case "-empty":
		if fi.IsDir() {
			infos, err := r.ctx.FS.ReadDir(abs)
			return err == nil && len(infos) == 0
		}
		return fi.Size() == 0
	case "-size":
		unit, _ := strconv.ParseInt(n.arg, 10, 64)
		size := (fi.Size() + unit - 1) / unit
		switch n.cmp {
		case 1:
			return size > n.n
		case -1:
			return size < n.n
		}
		return size == n.n
	case "-prune":
		r.pruned = true
		return true
	case "-print":
		r.out.WriteString(name + "\n")
		return true
	case "-print0":
		r.out.WriteString(name + "\x00")
		return true
	case "-ls":
		fmt.Fprintf(&r.out, "%9d %6d %s %3d root     root     %8d %s %s\n", 1, (fi.Size()+1023)/1024, lsMode(fi.Mode()), fi.Nlink, fi.Size(), lsTime(fi.ModTime(), r.ctx.Now()), name)
		return true
	case "-delete":
		if depth == 0 && (name == "." || name == "./") {
			return true
		}
		if err := r.ctx.FS.Remove(abs); err != nil {
			fmt.Fprintf(r.ctx.Stderr, "find: cannot delete '%s': %s\n", name, vfs.Reason(err))
			r.code = 1
			return false
		}
		return true
	case "-quit":
		r.stopped = 1
		return true
	case "-exec":
		if n.plus {
			if _, ok := r.batch[n]; !ok {
				r.batchOrder = append(r.batchOrder, n)
			}
			r.batch[n] = append(r.batch[n], name)
			return true
		}
		return r.exec(n, []string{name}) == 0
	}
	return false
}

// exec runs -exec's command with {} replaced (or the batch appended for +).
func (r *findRun) exec(n *findNode, names []string) int {
	var argv []string
	for _, w := range n.cmd {
		if !n.plus && strings.Contains(w, "{}") {
			w = strings.ReplaceAll(w, "{}", names[0])
		}
		argv = append(argv, w)
	}
	if n.plus {
		argv = append(argv, names...)
	}
	// Output so far goes first, so -exec's output interleaves as in GNU find.
	r.ctx.Stdout.Write([]byte(r.out.String()))
	r.out.Reset()
	c := *r.ctx
	if !r.ctx.Shell.runnable(argv[0]) {
		fmt.Fprintf(r.ctx.Stderr, "find: '%s': No such file or directory\n", argv[0])
		r.code = 1
		return 1
	}
	code := r.ctx.Shell.Call(&c, argv)
	if code != 0 && n.plus {
		r.code = 1
	}
	return code
}
