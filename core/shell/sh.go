package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/vfs"
)

// Commands that run other commands: sh/bash, env, timeout, xargs, which.

const bashVersion = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)"

// shCmd is sh and bash: -c STRING, a script file, or a script on stdin
// (`… | bash`), run in a non-interactive child shell.
func shCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	var opts options
	hasC := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if a == "--version" {
			fmt.Fprintln(ctx.Stdout, bashVersion)
			return 0
		}
		if a == "--login" || a == "--norc" || a == "--noprofile" || a == "--posix" {
			continue
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		if a == "-o" || a == "+o" {
			if i+1 < len(args) {
				i++
				if args[i] == "pipefail" {
					opts.pipefail = a[0] == '-'
				}
			}
			continue
		}
		for _, c := range a[1:] {
			switch c {
			case 'c':
				hasC = true
			case 'e':
				opts.errexit = true
			case 'u':
				opts.nounset = true
			case 'x':
				opts.xtrace = true
			case 'l', 'i', 's', 'v', 'p':
			default:
				fmt.Fprintf(ctx.Stderr, "%s: %s: invalid option\n", ctx.Name, a)
				fmt.Fprintf(ctx.Stderr, "Usage:\t%s [GNU long option] [option] ...\n", ctx.Name)
				return 2
			}
		}
	}
	rest := args[i:]
	env := copyMap(ctx.Env)
	st := streams{in: ctx.Stdin, out: ctx.Stdout, err: ctx.Stderr, bg: ctx.Background}
	var script, arg0 string
	var params []string
	switch {
	case hasC:
		if len(rest) == 0 {
			fmt.Fprintf(ctx.Stderr, "%s: -c: option requires an argument\n", ctx.Name)
			return 2
		}
		script, arg0 = rest[0], ctx.Name
		if len(rest) > 1 {
			arg0, params = rest[1], rest[2:]
		}
		// Errors in -c strings read "bash: line 1: …".
	case len(rest) > 0:
		data, err := ctx.FS.ReadFile(vfs.Clean(ctx.Cwd, rest[0]))
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "%s: %s: %s\n", ctx.Name, rest[0], vfs.Reason(err))
			return 127
		}
		script, arg0, params = string(data), rest[0], rest[1:]
	default:
		data, _ := io.ReadAll(ctx.Stdin)
		script, arg0 = string(data), ctx.Name
		st.in = strings.NewReader("")
	}
	sub := s.Subshell()
	if sub.depth > maxDepth {
		berr(ctx, "maximum nesting level exceeded (%d)", maxDepth)
		return 1
	}
	sub.Name = arg0
	sub.cMode = hasC
	sub.Interactive = false
	sub.aliases = map[string]string{}
	sub.funcs = map[string]*funcDef{}
	sub.Env = env
	sub.unexported = map[string]bool{}
	sub.arg0 = arg0
	sub.args = params
	sub.status = 0
	sub.opts = opts
	sub.Cwd = ctx.Cwd
	sub.deadline = ctx.Deadline
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

func envCmd(ctx *Context, args []string) int {
	env := copyMap(ctx.Env)
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "-" || a == "--ignore-environment":
			env = map[string]string{}
			continue
		case (a == "-u" || a == "--unset") && i+1 < len(args):
			i++
			delete(env, args[i])
			continue
		case strings.HasPrefix(a, "--unset="):
			delete(env, strings.TrimPrefix(a, "--unset="))
			continue
		case a == "--":
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.Contains(a, "="):
			fmt.Fprintf(ctx.Stderr, "env: invalid option -- '%s'\n", strings.TrimLeft(a, "-")[:1])
			tryHelp(ctx)
			return 125
		}
		break
	}
	for ; i < len(args); i++ {
		name, val, ok := strings.Cut(args[i], "=")
		if !ok || name == "" {
			break
		}
		env[name] = val
	}
	if i >= len(args) {
		c := *ctx
		c.Env = env
		for _, l := range c.EnvList() {
			fmt.Fprintln(ctx.Stdout, l)
		}
		return 0
	}
	c := *ctx
	c.Env = env
	argv := args[i:]
	if !ctx.Shell.runnable(argv[0]) {
		fmt.Fprintf(ctx.Stderr, "env: '%s': No such file or directory\n", argv[0])
		return 127
	}
	return ctx.Shell.Call(&c, argv)
}

// runnable reports whether a program (not a function or alias) exists.
func (s *Shell) runnable(name string) bool {
	if _, ok := s.cmds[name]; ok {
		return true
	}
	if strings.Contains(name, "/") {
		return s.FS.Exists(vfs.Clean(s.Cwd, name))
	}
	return false
}

// parseDuration reads coreutils' NUMBER[smhd] (seconds by default).
func parseDuration(v string) (time.Duration, bool) {
	unit := time.Second
	switch {
	case strings.HasSuffix(v, "s"):
		v = v[:len(v)-1]
	case strings.HasSuffix(v, "m"):
		v, unit = v[:len(v)-1], time.Minute
	case strings.HasSuffix(v, "h"):
		v, unit = v[:len(v)-1], time.Hour
	case strings.HasSuffix(v, "d"):
		v, unit = v[:len(v)-1], 24*time.Hour
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0, false
	}
	return time.Duration(f * float64(unit)), true
}

// timeoutCmd runs a command with Context.Deadline set. Commands that wait
// on the virtual clock stop there; if the clock reached the deadline the
// status is 124, as GNU timeout reports a timed-out command.
func timeoutCmd(ctx *Context, args []string) int {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if (a == "-s" || a == "-k" || a == "--signal" || a == "--kill-after") && i+1 < len(args) {
			i++
			continue
		}
		if strings.HasPrefix(a, "--signal=") || strings.HasPrefix(a, "--kill-after=") || strings.HasPrefix(a, "-s") && len(a) > 2 || strings.HasPrefix(a, "-k") && len(a) > 2 || a == "--preserve-status" || a == "--foreground" || a == "-v" || a == "--verbose" {
			continue
		}
		break
	}
	if i >= len(args) {
		fmt.Fprintln(ctx.Stderr, "timeout: missing operand")
		tryHelp(ctx)
		return 125
	}
	d, ok := parseDuration(args[i])
	if !ok {
		fmt.Fprintf(ctx.Stderr, "timeout: invalid time interval '%s'\n", args[i])
		tryHelp(ctx)
		return 125
	}
	argv := args[i+1:]
	if len(argv) == 0 {
		fmt.Fprintf(ctx.Stderr, "timeout: missing operand after '%s'\n", args[i])
		tryHelp(ctx)
		return 125
	}
	if !ctx.Shell.runnable(argv[0]) {
		fmt.Fprintf(ctx.Stderr, "timeout: failed to run command '%s': No such file or directory\n", argv[0])
		return 127
	}
	c := *ctx
	if d > 0 {
		dl := ctx.Now().Add(d)
		if c.Deadline.IsZero() || dl.Before(c.Deadline) {
			c.Deadline = dl
		}
	}
	code := ctx.Shell.Call(&c, argv)
	if d > 0 && !ctx.Now().Before(c.Deadline) {
		return 124
	}
	return code
}

func whichCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	all := false
	code := 0
	for _, a := range args {
		if a == "-a" {
			all = true
			continue
		}
		_ = all
		switch {
		case strings.Contains(a, "/"):
			if s.FS.Exists(vfs.Clean(s.Cwd, a)) {
				fmt.Fprintln(ctx.Stdout, a)
			} else {
				code = 1
			}
		case s.cmds[a] != nil && (!s.builtins[a] || shellAndBinary[a]):
			fmt.Fprintln(ctx.Stdout, s.pathOf(a))
		default:
			code = 1
		}
	}
	return code
}

// shellAndBinary are bash builtins that also exist as programs in /usr/bin.
var shellAndBinary = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, "pwd": true}
