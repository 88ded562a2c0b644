package shell

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/vfs"
)

// Builtins change the shell itself (cd, export, exit…) or are bash
// builtins whose messages read "bash: NAME: …".

func registerBuiltins(s *Shell) {
	b := map[string]Command{
		":":        trueCmd,
		"true":     trueCmd,
		"false":    falseCmd,
		"exit":     exitCmd,
		"cd":       cdCmd,
		"pwd":      pwdCmd,
		"export":   exportCmd,
		"unset":    unsetCmd,
		"alias":    aliasCmd,
		"unalias":  unaliasCmd,
		"set":      setCmd,
		"shift":    shiftCmd,
		"source":   sourceCmd,
		".":        sourceCmd,
		"eval":     evalCmd,
		"read":     readCmd,
		"return":   returnCmd,
		"break":    breakCmd,
		"continue": breakCmd,
		"local":    localCmd,
		"let":      letCmd,
		"type":     typeCmd,
		"command":  commandCmd,
		"test":     testCmd,
		"[":        testCmd,
		"help":     helpCmd,
		"history":  historyCmd,
		"wait":     trueCmd,
		"jobs":     trueCmd,
		"exec":     execCmd,
		"echo":     echoCmd,
		"printf":   printfCmd,
		"sh":       shCmd,
		"bash":     shCmd,
	}
	for name, c := range b {
		s.cmds[name] = c
		if name != "sh" && name != "bash" {
			s.builtins[name] = true
		}
	}
}

// berr prints a builtin's error: "bash: [line N: ]NAME: message".
func berr(ctx *Context, format string, a ...any) {
	ctx.Shell.errorf(streams{err: ctx.Stderr}, "%s: %s", ctx.Name, sprintf(format, a...))
}

func trueCmd(*Context, []string) int  { return 0 }
func falseCmd(*Context, []string) int { return 1 }

func exitCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if s.Interactive && s.depth == 0 {
		io.WriteString(ctx.Stderr, "exit\n")
	}
	code := s.status
	if len(args) > 0 {
		n, err := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
		if err != nil {
			berr(ctx, "%s: numeric argument required", args[0])
			code = 2
		} else if len(args) > 1 {
			berr(ctx, "too many arguments")
			return 1
		} else {
			code = int(n & 0xff)
		}
	}
	s.status = code
	s.flow = flowExit
	return code
}

func cdCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) > 0 && (args[0] == "-L" || args[0] == "-P") {
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 1 {
		berr(ctx, "too many arguments")
		return 1
	}
	dir := ""
	printDir := false
	if len(args) == 0 {
		h, ok := s.Env["HOME"]
		if !ok {
			berr(ctx, "HOME not set")
			return 1
		}
		dir = h
	} else {
		dir = args[0]
	}
	if dir == "-" {
		old, ok := s.Env["OLDPWD"]
		if !ok {
			berr(ctx, "OLDPWD not set")
			return 1
		}
		dir, printDir = old, true
	}
	if dir == "" {
		return 0
	}
	abs := vfs.Clean(s.Cwd, dir)
	fi, err := s.FS.Stat(abs)
	if err != nil {
		berr(ctx, "%s: %s", dir, vfs.Reason(err))
		return 1
	}
	if !fi.IsDir() {
		berr(ctx, "%s: Not a directory", dir)
		return 1
	}
	s.Env["OLDPWD"] = s.Cwd
	s.Cwd = abs
	s.Env["PWD"] = abs
	if printDir {
		fmt.Fprintln(ctx.Stdout, abs)
	}
	return 0
}

func pwdCmd(ctx *Context, args []string) int {
	fmt.Fprintln(ctx.Stdout, ctx.Shell.Cwd)
	return 0
}

// declareQuote quotes a value as `declare -p` and `export -p` print it.
func declareQuote(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	return `"` + r.Replace(v) + `"`
}

func exportCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	unexport := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-p":
		case "-n":
			unexport = true
		case "-f", "--":
		default:
			berr(ctx, "%s: invalid option", args[0])
			fmt.Fprintln(ctx.Stderr, "export: usage: export [-fn] [name[=value] ...] or export -p")
			return 2
		}
		args = args[1:]
	}
	if len(args) == 0 {
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			if !s.unexported[k] {
				fmt.Fprintf(ctx.Stdout, "declare -x %s=%s\n", k, declareQuote(s.Env[k]))
			}
		}
		return 0
	}
	code := 0
	for _, a := range args {
		name, val, hasVal := strings.Cut(a, "=")
		if !isName(name) {
			berr(ctx, "`%s': not a valid identifier", a)
			code = 1
			continue
		}
		if hasVal {
			s.Env[name] = val
		}
		if unexport {
			s.unexported[name] = true
			continue
		}
		if _, ok := s.Env[name]; !ok {
			// Exported but unset: it appears once it gets a value.
			s.Env[name] = ""
		}
		delete(s.unexported, name)
	}
	return code
}

func unsetCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	funcs := false
	code := 0
	for _, a := range args {
		switch a {
		case "-f":
			funcs = true
			continue
		case "-v":
			funcs = false
			continue
		}
		if funcs {
			delete(s.funcs, a)
			continue
		}
		if !isName(a) {
			berr(ctx, "`%s': not a valid identifier", a)
			code = 1
			continue
		}
		delete(s.Env, a)
		delete(s.unexported, a)
	}
	return code
}

func aliasCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) > 0 && args[0] == "-p" {
		args = args[1:]
	}
	if len(args) == 0 {
		for _, k := range slices.Sorted(maps.Keys(s.aliases)) {
			fmt.Fprintf(ctx.Stdout, "alias %s=%s\n", k, singleQuote(s.aliases[k]))
		}
		return 0
	}
	code := 0
	for _, a := range args {
		name, val, hasVal := strings.Cut(a, "=")
		if !hasVal {
			v, ok := s.aliases[name]
			if !ok {
				berr(ctx, "%s: not found", name)
				code = 1
				continue
			}
			fmt.Fprintf(ctx.Stdout, "alias %s=%s\n", name, singleQuote(v))
			continue
		}
		if name == "" || strings.ContainsAny(name, " \t\n/$`=|&;()<>'\"\\") {
			berr(ctx, "`%s': invalid alias name", name)
			code = 1
			continue
		}
		s.aliases[name] = val
	}
	return code
}

// singleQuote quotes like bash's alias listing: 'it'\”s'.
func singleQuote(v string) string {
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

func unaliasCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) == 0 {
		fmt.Fprintln(ctx.Stderr, "unalias: usage: unalias [-a] name [name ...]")
		return 2
	}
	code := 0
	for _, a := range args {
		if a == "-a" {
			s.aliases = map[string]string{}
			continue
		}
		if _, ok := s.aliases[a]; !ok {
			berr(ctx, "%s: not found", a)
			code = 1
			continue
		}
		delete(s.aliases, a)
	}
	return code
}

func setCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) == 0 {
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			fmt.Fprintf(ctx.Stdout, "%s=%s\n", k, shellQuote(s.Env[k]))
		}
		return 0
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			s.args = append([]string(nil), args[i+1:]...)
			return 0
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			s.args = append([]string(nil), args[i:]...)
			return 0
		}
		on := a[0] == '-'
		if a[1:] == "o" {
			if i+1 >= len(args) {
				for _, o := range []struct {
					n string
					v bool
				}{{"errexit", s.opts.errexit}, {"noglob", s.opts.noglob}, {"nounset", s.opts.nounset}, {"pipefail", s.opts.pipefail}, {"xtrace", s.opts.xtrace}} {
					st := "off"
					if o.v {
						st = "on"
					}
					fmt.Fprintf(ctx.Stdout, "%-15s\t%s\n", o.n, st)
				}
				return 0
			}
			i++
			switch args[i] {
			case "errexit":
				s.opts.errexit = on
			case "nounset":
				s.opts.nounset = on
			case "pipefail":
				s.opts.pipefail = on
			case "xtrace":
				s.opts.xtrace = on
			case "noglob":
				s.opts.noglob = on
			case "vi", "emacs", "posix", "monitor", "notify", "noclobber", "allexport", "history", "ignoreeof", "nolog", "hashall", "braceexpand", "interactive-comments":
			default:
				berr(ctx, "%s: invalid option name", args[i])
				return 2
			}
			continue
		}
		for _, c := range a[1:] {
			switch c {
			case 'e':
				s.opts.errexit = on
			case 'u':
				s.opts.nounset = on
			case 'x':
				s.opts.xtrace = on
			case 'f':
				s.opts.noglob = on
			case 'v', 'h', 'B', 'm', 'b', 'H', 'a', 'C', 'n', 'T', 'E', 'P', 'k', 't':
			default:
				berr(ctx, "%s%c: invalid option", a[:1], c)
				fmt.Fprintln(ctx.Stderr, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
				return 2
			}
		}
	}
	return 0
}

func shiftCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	n := 1
	if len(args) > 0 {
		v, err := strconv.Atoi(args[0])
		if err != nil || v < 0 {
			berr(ctx, "%s: numeric argument required", args[0])
			return 1
		}
		n = v
	}
	if n > len(s.args) {
		return 1
	}
	s.args = s.args[n:]
	return 0
}

func sourceCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) == 0 {
		berr(ctx, "filename argument required")
		fmt.Fprintf(ctx.Stderr, "%s: usage: %s filename [arguments]\n", ctx.Name, ctx.Name)
		return 2
	}
	data, err := s.FS.ReadFile(vfs.Clean(s.Cwd, args[0]))
	if err != nil {
		berr(ctx, "%s: %s", args[0], vfs.Reason(err))
		return 1
	}
	sc, err := parse(string(data), 0)
	if err != nil {
		s.reportParseError(err, streams{err: ctx.Stderr})
		return 2
	}
	saved := s.args
	if len(args) > 1 {
		s.args = args[1:]
	}
	s.inFunc++ // `return` may end a sourced file
	code := s.execList(sc.list, streams{in: ctx.Stdin, out: ctx.Stdout, err: ctx.Stderr})
	s.inFunc--
	if s.flow == flowReturn {
		s.flow = flowNone
		code = s.status
	}
	if len(args) > 1 {
		s.args = saved
	}
	return code
}

func evalCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	src := strings.Join(args, " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	sc, err := parse(src, 0)
	if err != nil {
		s.reportParseError(err, streams{err: ctx.Stderr})
		return 2
	}
	if s.depth > maxDepth {
		berr(ctx, "maximum nesting level exceeded (%d)", maxDepth)
		return 1
	}
	s.depth++
	code := s.execList(sc.list, streams{in: ctx.Stdin, out: ctx.Stdout, err: ctx.Stderr})
	s.depth--
	return code
}

// readLine reads one line byte by byte, so the rest of the input stays for
// the next reader (while read line; do … done).
func readLine(r io.Reader) (string, bool) {
	var b []byte
	var one [1]byte
	for {
		n, err := r.Read(one[:])
		if n == 1 {
			if one[0] == '\n' {
				return string(b), true
			}
			b = append(b, one[0])
			if len(b) > maxWordBytes {
				return string(b), true
			}
			continue
		}
		if err != nil {
			return string(b), false
		}
	}
}

func readCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	raw := false
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-r":
			raw = true
		case a == "-p" && i+1 < len(args):
			i++
			io.WriteString(ctx.Stderr, args[i])
		case a == "-s" || a == "-e":
		case (a == "-t" || a == "-n" || a == "-d" || a == "-u") && i+1 < len(args):
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1 && len(names) == 0:
			berr(ctx, "%s: invalid option", a)
			fmt.Fprintln(ctx.Stderr, "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]")
			return 2
		default:
			if !isName(a) {
				berr(ctx, "`%s': not a valid identifier", a)
				return 1
			}
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	var line strings.Builder
	eof := false
	for {
		l, ok := readLine(ctx.Stdin)
		if !raw && strings.HasSuffix(l, "\\") && ok {
			line.WriteString(l[:len(l)-1])
			continue
		}
		line.WriteString(l)
		eof = !ok
		break
	}
	if eof && line.Len() == 0 {
		for _, n := range names {
			s.setVar(n, "")
		}
		return 1
	}
	text := line.String()
	if !raw {
		text = unbackslash(text)
	}
	ifs := s.ifs()
	if names[0] == "REPLY" && len(names) == 1 {
		s.setVar("REPLY", text)
		if eof {
			return 1
		}
		return 0
	}
	isIFS := func(r rune) bool { return strings.ContainsRune(ifs, r) }
	rest := strings.TrimLeftFunc(text, isIFS)
	for i, n := range names {
		if i == len(names)-1 {
			s.setVar(n, strings.TrimRightFunc(rest, isIFS))
			break
		}
		j := strings.IndexFunc(rest, isIFS)
		if j < 0 {
			s.setVar(n, rest)
			rest = ""
			continue
		}
		s.setVar(n, rest[:j])
		rest = strings.TrimLeftFunc(rest[j:], isIFS)
	}
	if eof {
		return 1
	}
	return 0
}

func unbackslash(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func returnCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if s.inFunc == 0 {
		berr(ctx, "can only `return' from a function or sourced script")
		return 1
	}
	code := s.status
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			berr(ctx, "%s: numeric argument required", args[0])
			code = 2
		} else {
			code = n & 0xff
		}
	}
	s.status = code
	s.flow = flowReturn
	return code
}

func breakCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	n := 1
	if len(args) > 0 {
		v, err := strconv.Atoi(args[0])
		if err != nil {
			berr(ctx, "%s: numeric argument required", args[0])
			return 1
		}
		if v < 1 {
			berr(ctx, "%s: loop count out of range", args[0])
			return 1
		}
		n = v
	}
	if s.loops == 0 {
		berr(ctx, "only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	s.flowN = min(n, s.loops)
	if ctx.Name == "break" {
		s.flow = flowBreak
	} else {
		s.flow = flowContinue
	}
	return 0
}

func localCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(s.locals) == 0 {
		berr(ctx, "can only be used in a function")
		return 1
	}
	frame := s.locals[len(s.locals)-1]
	code := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if !isName(name) {
			berr(ctx, "`%s': not a valid identifier", a)
			code = 1
			continue
		}
		if _, saved := frame[name]; !saved {
			if old, ok := s.Env[name]; ok {
				frame[name] = &old
			} else {
				frame[name] = nil
			}
		}
		if hasVal {
			s.setVar(name, val)
		} else if _, ok := s.Env[name]; !ok {
			s.setVar(name, "")
		}
	}
	return code
}

func letCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if len(args) == 0 {
		berr(ctx, "expression expected")
		return 1
	}
	var v int64
	for _, a := range args {
		var err error
		v, err = s.arith(a, 0)
		if err != nil {
			berr(ctx, "%v", err)
			return 1
		}
	}
	if v == 0 {
		return 1
	}
	return 0
}

var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
	"for": true, "while": true, "until": true, "do": true, "done": true, "in": true, "function": true,
	"{": true, "}": true, "!": true, "[[": true, "]]": true, "time": true, "select": true,
}

// pathOf is where `which` and `type` say a command lives.
func (s *Shell) pathOf(name string) string {
	if p, ok := s.paths[name]; ok {
		return p
	}
	if name == "kubectl" || name == "kubeplay" {
		return "/usr/local/bin/" + name
	}
	if name == "sh" || name == "bash" {
		return "/usr/bin/" + name
	}
	return "/usr/bin/" + name
}

func typeCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	code := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		switch {
		case s.aliases[a] != "" && s.Interactive:
			fmt.Fprintf(ctx.Stdout, "%s is aliased to `%s'\n", a, s.aliases[a])
		case keywords[a]:
			fmt.Fprintf(ctx.Stdout, "%s is a shell keyword\n", a)
		case s.funcs[a] != nil:
			fmt.Fprintf(ctx.Stdout, "%s is a function\n", a)
		case s.builtins[a]:
			fmt.Fprintf(ctx.Stdout, "%s is a shell builtin\n", a)
		case s.cmds[a] != nil:
			fmt.Fprintf(ctx.Stdout, "%s is %s\n", a, s.pathOf(a))
		default:
			berr(ctx, "%s: not found", a)
			code = 1
		}
	}
	return code
}

func commandCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	verbose := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-v", "-V":
			verbose = args[0]
		case "-p":
		case "--":
			args = args[1:]
			goto done
		default:
			berr(ctx, "%s: invalid option", args[0])
			return 2
		}
		args = args[1:]
	}
done:
	if len(args) == 0 {
		return 0
	}
	if verbose != "" {
		code := 0
		for _, a := range args {
			switch {
			case s.aliases[a] != "" && s.Interactive:
				if verbose == "-v" {
					fmt.Fprintf(ctx.Stdout, "alias %s=%s\n", a, singleQuote(s.aliases[a]))
				} else {
					fmt.Fprintf(ctx.Stdout, "%s is aliased to `%s'\n", a, s.aliases[a])
				}
			case keywords[a] || s.funcs[a] != nil || s.builtins[a]:
				if verbose == "-v" {
					fmt.Fprintln(ctx.Stdout, a)
				} else {
					typeCmd(ctx, []string{a})
				}
			case s.cmds[a] != nil:
				if verbose == "-v" {
					fmt.Fprintln(ctx.Stdout, s.pathOf(a))
				} else {
					fmt.Fprintf(ctx.Stdout, "%s is %s\n", a, s.pathOf(a))
				}
			default:
				if verbose == "-V" {
					berr(ctx, "%s: not found", a)
				}
				code = 1
			}
		}
		return code
	}
	// command NAME skips functions.
	if c, ok := s.cmds[args[0]]; ok {
		sub := *ctx
		sub.Name = args[0]
		return c(&sub, args[1:])
	}
	return s.Call(ctx, args)
}

func execCmd(ctx *Context, args []string) int {
	if len(args) == 0 {
		return 0
	}
	s := ctx.Shell
	code := s.Call(ctx, args)
	s.status = code
	s.flow = flowExit
	return code
}

func helpCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	names := s.Commands()
	fmt.Fprintln(ctx.Stdout, "kubeplay shell: a bash subset (pipes, && ||, ;, quotes, $VAR, $(...), redirections,")
	fmt.Fprintln(ctx.Stdout, "here-documents, if/for/while/case, functions). Commands:")
	fmt.Fprintln(ctx.Stdout)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	width += 2
	perLine := max(1, 78/width)
	for i, n := range names {
		if i%perLine == perLine-1 || i == len(names)-1 {
			fmt.Fprintln(ctx.Stdout, n)
		} else {
			fmt.Fprintf(ctx.Stdout, "%-*s", width, n)
		}
	}
	if len(s.aliases) > 0 {
		fmt.Fprintln(ctx.Stdout)
		fmt.Fprintln(ctx.Stdout, "Aliases:")
		keys := slices.Sorted(maps.Keys(s.aliases))
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(ctx.Stdout, "  %s='%s'\n", k, s.aliases[k])
		}
	}
	return 0
}
