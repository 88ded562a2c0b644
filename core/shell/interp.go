package shell

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubeplay/core/vfs"
)

// streams are a command's standard input, output and error.
type streams struct {
	in  io.Reader
	out io.Writer
	err io.Writer
	bg  bool
}

func sprintf(format string, a ...any) string {
	if len(a) == 0 {
		return format
	}
	return fmt.Sprintf(format, a...)
}

func itoa(n int) string { return strconv.Itoa(n) }

// step counts one unit of work against the Run's budget; false means stop.
func (s *Shell) step(st streams) bool {
	r := s.run
	if r == nil {
		return true
	}
	if r.aborted {
		s.flow = flowExit
		return false
	}
	r.steps++
	if r.steps > r.max {
		r.aborted = true
		s.errorf(st, "too many commands (more than %d): script stopped", r.max)
		s.status = 1
		s.flow = flowExit
		return false
	}
	return true
}

func (s *Shell) execList(l *list, st streams) int {
	if l == nil {
		return s.status
	}
	for _, ao := range l.items {
		if s.flow != flowNone {
			break
		}
		if ao.bg {
			s.execBackground(ao, st)
			continue
		}
		s.status = s.execAndOr(ao, st)
	}
	return s.status
}

// execBackground runs `cmd &`. There is no concurrency: the command runs to
// completion in a subshell, told through Context.Background that it was
// meant to run in the background.
func (s *Shell) execBackground(ao *andOr, st streams) {
	sub := s.Subshell()
	bst := st
	bst.bg = true
	sub.execAndOr(&andOr{pipes: ao.pipes, ops: ao.ops}, bst)
	if s.run != nil {
		s.run.nextPid++
		s.lastBg = s.run.nextPid
	}
	s.status = 0
}

func (s *Shell) execAndOr(ao *andOr, st streams) int {
	status := 0
	for i, p := range ao.pipes {
		if i > 0 {
			op := ao.ops[i-1]
			if op == "&&" && status != 0 || op == "||" && status == 0 {
				continue
			}
		}
		last := i == len(ao.pipes)-1
		if !last {
			s.noErrx++
		}
		status = s.execPipeline(p, st)
		if !last {
			s.noErrx--
		}
		s.status = status
		if s.flow != flowNone {
			return status
		}
	}
	return status
}

func (s *Shell) execPipeline(p *pipeline, st streams) int {
	if p.negate {
		s.noErrx++
		defer func() { s.noErrx-- }()
	}
	var status int
	if len(p.cmds) == 1 {
		status = s.execCommand(p.cmds[0], st)
	} else {
		status = s.execPipe(p, st)
	}
	if p.negate {
		if status == 0 {
			status = 1
		} else {
			status = 0
		}
	} else if status != 0 && s.opts.errexit && s.noErrx == 0 && s.flow == flowNone {
		s.status = status
		s.flow = flowExit
	}
	return status
}

// execPipe runs the stages one after another, each in a subshell, feeding
// each stage's buffered output to the next.
func (s *Shell) execPipe(p *pipeline, st streams) int {
	in := st.in
	status := 0
	failed := 0
	for i, c := range p.cmds {
		last := i == len(p.cmds)-1
		sst := st
		sst.in = in
		var buf bytes.Buffer
		if !last {
			w := &limitWriter{w: &buf, n: maxOutput}
			sst.out = w
			if p.stderr[i] {
				sst.err = w
			}
		}
		sub := s.Subshell()
		status = sub.execCommand(c, sst)
		if sub.run != nil && sub.run.aborted {
			s.flow = flowExit
			return status
		}
		if status != 0 {
			failed = status
		}
		if !last {
			in = bytes.NewReader(buf.Bytes())
		}
	}
	if s.opts.pipefail && status == 0 {
		return failed
	}
	return status
}

func (s *Shell) execCommand(c command, st streams) int {
	if s.flow != flowNone {
		return s.status
	}
	switch c := c.(type) {
	case *simpleCmd:
		return s.execSimple(c, st)
	case *funcDef:
		s.funcs[c.name] = c
		return 0
	}
	b := baseOf(c)
	s.lineno = b.line
	rst, closeAll, ok := s.redirect(b.redirs, st)
	if !ok {
		return 1
	}
	defer closeAll()
	switch c := c.(type) {
	case *ifCmd:
		return s.execIf(c, rst)
	case *forCmd:
		return s.execFor(c, rst)
	case *arithForCmd:
		return s.execArithFor(c, rst)
	case *whileCmd:
		return s.execWhile(c, rst)
	case *caseCmd:
		return s.execCase(c, rst)
	case *groupCmd:
		return s.execList(c.body, rst)
	case *subshellCmd:
		sub := s.Subshell()
		if sub.depth > maxDepth {
			s.errorf(st, "maximum nesting level exceeded (%d)", maxDepth)
			return 1
		}
		code := sub.execList(c.body, rst)
		if sub.run != nil && sub.run.aborted {
			s.flow = flowExit
		}
		return code
	case *condCmd:
		return s.execCond(c, rst)
	case *arithCmd:
		v, err := s.arithWord(c.expr, rst)
		if err != nil {
			s.errorf(st, "%v", err)
			return 1
		}
		if v == 0 {
			return 1
		}
		return 0
	}
	return 0
}

// cond runs a condition list, where set -e does not apply.
func (s *Shell) cond(l *list, st streams) int {
	s.noErrx++
	defer func() { s.noErrx-- }()
	return s.execList(l, st)
}

func (s *Shell) execIf(c *ifCmd, st streams) int {
	for i, cl := range c.conds {
		if s.cond(cl, st) == 0 {
			if s.flow != flowNone {
				return s.status
			}
			return s.execList(c.bodies[i], st)
		}
		if s.flow != flowNone {
			return s.status
		}
	}
	if c.els != nil {
		return s.execList(c.els, st)
	}
	s.status = 0
	return 0
}

// loopFlow handles break/continue after a loop body; true ends the loop.
func (s *Shell) loopFlow() bool {
	switch s.flow {
	case flowBreak:
		if s.flowN--; s.flowN <= 0 {
			s.flow = flowNone
		}
		return true
	case flowContinue:
		if s.flowN--; s.flowN <= 0 {
			s.flow = flowNone
			return false
		}
		s.flow = flowContinue
		return true
	case flowReturn, flowExit:
		return true
	}
	return false
}

func (s *Shell) execFor(c *forCmd, st streams) int {
	s.loops++
	defer func() { s.loops-- }()
	var items []string
	if c.hasIn {
		var err error
		items, err = s.expandWords(c.items, st)
		if err != nil {
			return s.expandFailed(err, st)
		}
	} else {
		items = append(items, s.args...)
	}
	status := 0
	for _, it := range items {
		if !s.step(st) {
			return s.status
		}
		s.setVar(c.name, it)
		status = s.execList(c.body, st)
		if s.loopFlow() {
			break
		}
	}
	s.status = status
	return status
}

func (s *Shell) execArithFor(c *arithForCmd, st streams) int {
	s.loops++
	defer func() { s.loops-- }()
	if _, err := s.arithWord(c.init, st); err != nil {
		s.errorf(st, "%v", err)
		return 1
	}
	status := 0
	for {
		if !s.step(st) {
			return s.status
		}
		if strings.TrimSpace(c.cond.raw) != "" {
			v, err := s.arithWord(c.cond, st)
			if err != nil {
				s.errorf(st, "%v", err)
				return 1
			}
			if v == 0 {
				break
			}
		}
		status = s.execList(c.body, st)
		if s.loopFlow() {
			break
		}
		if _, err := s.arithWord(c.post, st); err != nil {
			s.errorf(st, "%v", err)
			return 1
		}
	}
	s.status = status
	return status
}

func (s *Shell) execWhile(c *whileCmd, st streams) int {
	s.loops++
	defer func() { s.loops-- }()
	status := 0
	for {
		if !s.step(st) {
			return s.status
		}
		r := s.cond(c.cond, st)
		if s.flow != flowNone {
			if s.loopFlow() {
				break
			}
			continue
		}
		if (r == 0) == c.until {
			break
		}
		status = s.execList(c.body, st)
		if s.loopFlow() {
			break
		}
	}
	s.status = status
	return status
}

func (s *Shell) execCase(c *caseCmd, st streams) int {
	subj, err := s.expandString(c.subject, st)
	if err != nil {
		return s.expandFailed(err, st)
	}
	status := 0
	fallthru := false
	for _, it := range c.items {
		matched := fallthru
		if !matched {
			for _, pw := range it.patterns {
				pat, err := s.expandPattern(pw, st)
				if err != nil {
					return s.expandFailed(err, st)
				}
				if globMatch(pat, subj) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		status = s.execList(it.body, st)
		if s.flow != flowNone {
			break
		}
		switch it.fall {
		case ";&":
			fallthru = true
			continue
		case ";;&":
			fallthru = false
			continue
		}
		break
	}
	s.status = status
	return status
}

// execSimple runs a simple command: expansions, assignments, redirections,
// then the function, builtin, registered command or script it names.
func (s *Shell) execSimple(c *simpleCmd, st streams) int {
	s.lineno = c.line
	if !s.step(st) {
		return s.status
	}
	subStatus := 0
	s.lastSub = -1
	argv, err := s.expandWords(c.words, st)
	if err != nil {
		return s.expandFailed(err, st)
	}
	// Alias expansion applies to the first word when it was typed plainly.
	if len(c.words) > 0 && len(argv) > 0 && s.Interactive {
		if name, ok := c.words[0].litText(); ok {
			if v, ok := s.aliases[name]; ok {
				return s.execAlias(c, v, argv[1:], st)
			}
		}
	}
	assigns := make([][2]string, 0, len(c.assigns))
	for _, a := range c.assigns {
		v, err := s.expandString(a.value, st)
		if err != nil {
			return s.expandFailed(err, st)
		}
		if a.append {
			v = s.Env[a.name] + v
		}
		assigns = append(assigns, [2]string{a.name, v})
	}
	if s.lastSub >= 0 {
		subStatus = s.lastSub
	}
	if len(argv) == 0 {
		for _, a := range assigns {
			s.setVar(a[0], a[1])
		}
		if s.opts.xtrace && len(assigns) > 0 {
			for _, a := range assigns {
				fmt.Fprintf(st.err, "+ %s=%s\n", a[0], shellQuote(a[1]))
			}
		}
		_, closeAll, ok := s.redirect(c.redirs, st)
		if !ok {
			return 1
		}
		closeAll()
		return subStatus
	}
	if s.opts.xtrace {
		q := make([]string, len(argv))
		for i, a := range argv {
			q[i] = shellQuote(a)
		}
		fmt.Fprintf(st.err, "+ %s\n", strings.Join(q, " "))
	}
	rst, closeAll, ok := s.redirect(c.redirs, st)
	if !ok {
		return 1
	}
	defer closeAll()
	return s.call(argv, assigns, rst)
}

// execAlias runs a command whose first word is an alias: the alias text,
// then the remaining (already expanded) arguments.
func (s *Shell) execAlias(c *simpleCmd, value string, rest []string, st streams) int {
	if s.depth > maxDepth {
		s.errorf(st, "maximum nesting level exceeded (%d)", maxDepth)
		return 1
	}
	var b strings.Builder
	for _, a := range c.assigns {
		b.WriteString(a.name)
		if a.append {
			b.WriteString("+")
		}
		b.WriteString("=")
		b.WriteString(a.value.raw)
		b.WriteString(" ")
	}
	b.WriteString(value)
	for _, a := range rest {
		b.WriteString(" ")
		b.WriteString(shellQuote(a))
	}
	sc, err := parse(b.String(), 0)
	if err != nil {
		s.reportParseError(err, st)
		return 2
	}
	// The alias's own first word is not alias-expanded again (as in bash).
	saved := s.aliases
	s.aliases = copyMap(saved)
	for _, w := range aliasFirstWords(sc) {
		delete(s.aliases, w)
	}
	rst, closeAll, ok := s.redirect(c.redirs, st)
	if !ok {
		s.aliases = saved
		return 1
	}
	s.depth++
	code := s.execList(sc.list, rst)
	s.depth--
	closeAll()
	s.aliases = saved
	return code
}

func aliasFirstWords(sc *Script) []string {
	var out []string
	for _, ao := range sc.list.items {
		for _, p := range ao.pipes {
			for _, c := range p.cmds {
				if sc, ok := c.(*simpleCmd); ok && len(sc.words) > 0 {
					if t, ok := sc.words[0].litText(); ok {
						out = append(out, t)
					}
				}
			}
		}
	}
	return out
}

// Call runs argv (a function, builtin, registered command or script file)
// with ctx's streams, as xargs, env and timeout do.
func (s *Shell) Call(ctx *Context, argv []string) int {
	st := streams{in: ctx.Stdin, out: ctx.Stdout, err: ctx.Stderr, bg: ctx.Background}
	var assigns [][2]string
	for _, k := range slices.Sorted(maps.Keys(ctx.Env)) {
		if v, ok := s.Env[k]; !ok || v != ctx.Env[k] || s.unexported[k] {
			assigns = append(assigns, [2]string{k, ctx.Env[k]})
		}
	}
	saved := s.deadline
	s.deadline = ctx.Deadline
	defer func() { s.deadline = saved }()
	return s.call(argv, assigns, st)
}

func (s *Shell) call(argv []string, assigns [][2]string, st streams) int {
	name := argv[0]
	if f, ok := s.funcs[name]; ok {
		return s.callFunc(f, argv, assigns, st)
	}
	env := s.exportedEnv()
	for _, a := range assigns {
		env[a[0]] = a[1]
	}
	if cmd, ok := s.cmds[name]; ok {
		ctx := &Context{Shell: s, Name: name, Stdin: st.in, Stdout: st.out, Stderr: st.err,
			Env: env, FS: s.FS, Cwd: s.Cwd, Background: st.bg, Deadline: s.deadline}
		return cmd(ctx, argv[1:])
	}
	if strings.Contains(name, "/") {
		return s.runScriptFile(name, argv, env, st)
	}
	s.errorf(st, "%s: command not found", name)
	return 127
}

func (s *Shell) callFunc(f *funcDef, argv []string, assigns [][2]string, st streams) int {
	if s.inFunc >= maxDepth {
		s.errorf(st, "%s: maximum function nesting level exceeded (%d)", f.name, maxDepth)
		s.flow = flowExit
		return 1
	}
	savedArgs := s.args
	s.args = argv[1:]
	// Assignments before a function call last for the call only.
	type old struct {
		v   string
		set bool
	}
	prev := map[string]old{}
	for _, a := range assigns {
		v, ok := s.Env[a[0]]
		if _, seen := prev[a[0]]; !seen {
			prev[a[0]] = old{v, ok}
		}
		s.Env[a[0]] = a[1]
	}
	s.inFunc++
	s.locals = append(s.locals, map[string]*string{})
	code := s.execCommand(f.body, st)
	frame := s.locals[len(s.locals)-1]
	s.locals = s.locals[:len(s.locals)-1]
	s.inFunc--
	for _, k := range slices.Sorted(maps.Keys(frame)) {
		if frame[k] != nil {
			s.Env[k] = *frame[k]
		} else {
			delete(s.Env, k)
		}
	}
	if s.flow == flowReturn {
		s.flow = flowNone
		code = s.status
	}
	for _, k := range slices.Sorted(maps.Keys(prev)) {
		if prev[k].set {
			s.Env[k] = prev[k].v
		} else {
			delete(s.Env, k)
		}
	}
	s.args = savedArgs
	return code
}

// runScriptFile runs ./script: a file with an execute bit, as a shell script.
func (s *Shell) runScriptFile(name string, argv []string, env map[string]string, st streams) int {
	fi, err := s.FS.Stat(vfs.Clean(s.Cwd, name))
	if err != nil {
		s.errorf(st, "%s: %s", name, vfs.Reason(err))
		return 127
	}
	if fi.IsDir() {
		s.errorf(st, "%s: Is a directory", name)
		return 126
	}
	if fi.Mode().Perm()&0o111 == 0 {
		s.errorf(st, "%s: Permission denied", name)
		return 126
	}
	data, err := s.FS.ReadFile(vfs.Clean(s.Cwd, name))
	if err != nil {
		s.errorf(st, "%s: %s", name, vfs.Reason(err))
		return 126
	}
	return s.runChild(string(data), name, argv[1:], env, st)
}

// runChild runs a script in a non-interactive child shell (bash script,
// bash -c, ./script).
func (s *Shell) runChild(script, arg0 string, args []string, env map[string]string, st streams) int {
	sub := s.Subshell()
	if sub.depth > maxDepth {
		s.errorf(st, "maximum nesting level exceeded (%d)", maxDepth)
		return 1
	}
	sub.Interactive = false
	sub.Name = arg0
	sub.cMode = false
	sub.aliases = map[string]string{}
	sub.funcs = map[string]*funcDef{}
	sub.Env = copyMap(env)
	sub.unexported = map[string]bool{}
	sub.arg0 = arg0
	sub.args = args
	sub.status = 0
	sub.opts = options{}
	sc, err := parse(script, 0)
	if err != nil {
		sub.reportParseError(err, st)
		return 2
	}
	code := sub.RunScript(sc, st.in, st.out, st.err)
	if sub.run != nil && sub.run.aborted {
		s.flow = flowExit
	}
	return code
}

func (s *Shell) setVar(name, value string) {
	if _, ok := s.Env[name]; !ok {
		s.unexported[name] = true
	}
	s.Env[name] = value
}
