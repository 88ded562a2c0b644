// Package shell is the terminal's shell: a bash subset (pipes, && and ||,
// quoting, expansions, redirections, here-documents, if/for/while/case,
// functions) with the everyday tools (grep, awk, sed, sort, …) built in,
// over an in-memory filesystem.
//
// It is embeddable: the playground's terminal registers kubectl and sleep
// on it, and the kubelet's runtime runs containers' `sh -c` commands with
// it. Pipelines run stage by stage, each stage's output buffered for the
// next, so no goroutines are needed and runs are deterministic.
package shell

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strings"
	"time"

	"kubeplay/core/vfs"
)

// DefaultMaxSteps bounds the commands and loop iterations of one Run, so
// `while true; do :; done` stops instead of freezing the page.
const DefaultMaxSteps = 200000

// maxOutput bounds what one Run may buffer (a pipe stage or the result).
const maxOutput = 32 << 20

// maxDepth bounds nested shells and function calls.
const maxDepth = 100

// Shell is one shell session: variables, working directory, aliases and
// functions, and the command table.
type Shell struct {
	// Env holds the shell's variables. Variables set by the embedder here
	// are exported to commands; `A=b` alone makes an unexported one.
	Env map[string]string
	// Cwd is the working directory (absolute).
	Cwd string
	FS  *vfs.FS
	// Now supplies the (virtual) time for date, file times and timeout.
	Now func() time.Time
	// Name is how the shell names itself in messages ("bash").
	Name string
	// MaxSteps bounds the work of one Run (0: DefaultMaxSteps).
	MaxSteps int
	// Interactive shells report errors without "line N:" and expand aliases.
	Interactive bool
	// Pid is $$ (1 when unset: the shell of a container is often PID 1).
	Pid int

	cMode      bool // running `bash -c STRING`: parse errors say "-c: line N"
	owner      bool // this shell started the current run
	unexported map[string]bool
	aliases    map[string]string
	funcs      map[string]*funcDef
	cmds       map[string]Command
	builtins   map[string]bool
	paths      map[string]string
	completers map[string]Completer

	arg0   string
	args   []string
	status int
	lastBg int
	opts   options
	lineno int

	flow   flowKind
	flowN  int
	exited bool
	depth  int
	inFunc int
	noErrx int // >0 while running a condition, where set -e does not apply
	run    *runState
	// lastSub is the status of the last command substitution while a
	// command's words expand (-1: none), which `x=$(cmd)` returns.
	lastSub  int
	deadline time.Time
	rnd      uint32
	loops    int                  // enclosing loops, for break/continue
	locals   []map[string]*string // saved values of `local` variables per call

	history  []historyEntry
	histNext int
}

type options struct {
	errexit, nounset, pipefail, xtrace, noglob bool
}

type flowKind int

const (
	flowNone flowKind = iota
	flowBreak
	flowContinue
	flowReturn
	flowExit
)

// runState is shared by a Run and every subshell it starts.
type runState struct {
	steps   int
	max     int
	aborted bool
	nextPid int
}

// New returns an interactive shell on fs (a new empty FS when nil) with the
// builtins and tools registered. A fresh, empty FS gets /root (the home and
// working directory) and /tmp.
func New(fs *vfs.FS) *Shell {
	if fs == nil {
		fs = vfs.New()
	}
	s := &Shell{
		Env: map[string]string{
			"HOME":  "/root",
			"PATH":  "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			"SHELL": "/bin/bash",
			"USER":  "root",
			"TERM":  "xterm-256color",
		},
		Cwd:         "/",
		FS:          fs,
		Name:        "bash",
		Interactive: true,
		unexported:  map[string]bool{},
		aliases:     map[string]string{},
		funcs:       map[string]*funcDef{},
		cmds:        map[string]Command{},
		builtins:    map[string]bool{},
		paths:       map[string]string{},
		completers:  map[string]Completer{},
		arg0:        "bash",
	}
	if entries, err := fs.ReadDir("/"); err == nil && len(entries) == 0 {
		_ = fs.MkdirAll("/root", 0o700)
		_ = fs.MkdirAll("/tmp", 0o777)
	}
	if fs.IsDir("/root") {
		s.Cwd = "/root"
	}
	s.Env["PWD"] = s.Cwd
	registerBuiltins(s)
	registerTools(s)
	return s
}

func (s *Shell) now() time.Time {
	if s.Now == nil {
		return time.Unix(0, 0).UTC()
	}
	return s.Now()
}

// Register adds or replaces a command.
func (s *Shell) Register(name string, cmd Command) { s.cmds[name] = cmd }

// RegisterAt registers a command that `which` and `type` place at path.
func (s *Shell) RegisterAt(name, path string, cmd Command) {
	s.cmds[name] = cmd
	s.paths[name] = path
}

// Lookup returns a registered command (tools and builtins included).
func (s *Shell) Lookup(name string) (Command, bool) {
	c, ok := s.cmds[name]
	return c, ok
}

// Commands lists the command names (registered, builtin and tools), sorted.
func (s *Shell) Commands() []string {
	out := make([]string, 0, len(s.cmds))
	for n := range s.cmds {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Alias defines an alias, like `alias name='value'`.
func (s *Shell) Alias(name, value string) { s.aliases[name] = value }

// RegisterCompleter sets the Tab completer for a command's arguments.
func (s *Shell) RegisterCompleter(name string, c Completer) { s.completers[name] = c }

// Getenv returns a shell variable.
func (s *Shell) Getenv(name string) string { return s.Env[name] }

// Setenv sets and exports a variable.
func (s *Shell) Setenv(name, value string) {
	s.Env[name] = value
	delete(s.unexported, name)
}

// LastStatus is $?, the status of the last command.
func (s *Shell) LastStatus() int { return s.status }

// Exited reports whether the `exit` builtin ended the session.
func (s *Shell) Exited() bool { return s.exited }

// Run runs a script with the given standard input and returns what it
// printed, stdout and stderr interleaved as a terminal shows them, and its
// exit status.
func (s *Shell) Run(script string, stdin string) (out string, exitCode int) {
	var b bytes.Buffer
	w := &limitWriter{w: &b, n: maxOutput}
	code := s.RunIO(script, strings.NewReader(stdin), w, w)
	return b.String(), code
}

// RunSplit is Run with stdout and stderr kept apart.
func (s *Shell) RunSplit(script string, stdin string) (stdout, stderr string, exitCode int) {
	var o, e bytes.Buffer
	code := s.RunIO(script, strings.NewReader(stdin), &limitWriter{w: &o, n: maxOutput}, &limitWriter{w: &e, n: maxOutput})
	return o.String(), e.String(), code
}

// RunIO runs a script on the given streams (which a terminal may render as
// they are written) and returns its exit status. Like bash, it runs each
// line before parsing the next.
func (s *Shell) RunIO(script string, stdin io.Reader, stdout, stderr io.Writer) int {
	st := streams{in: stdin, out: stdout, err: stderr}
	done := s.begin()
	defer done()
	p := &parser{src: script, line: 1}
	code := s.status
	for s.flow == flowNone {
		l, eof, err := p.nextLine()
		for _, w := range p.warns {
			s.lineno = p.line
			s.errorf(st, "%s", w)
		}
		p.warns = nil
		if err != nil {
			s.reportParseError(err, st)
			s.status, code = 2, 2
			if !s.Interactive {
				break
			}
			p.resync()
			continue
		}
		if eof {
			break
		}
		code = s.execList(l, st)
	}
	return s.finish(code)
}

// RunScript runs a parsed script.
func (s *Shell) RunScript(sc *Script, stdin io.Reader, stdout, stderr io.Writer) int {
	st := streams{in: stdin, out: stdout, err: stderr}
	done := s.begin()
	defer done()
	for _, w := range sc.warnings {
		s.errorf(st, "%s", w)
	}
	return s.finish(s.execList(sc.list, st))
}

// begin starts a run: the step budget (unless an enclosing run owns one)
// and the FS clock.
func (s *Shell) begin() func() {
	s.flow = flowNone
	if s.FS != nil && s.FS.Now == nil {
		s.FS.Now = s.now
	}
	if s.run != nil {
		return func() {}
	}
	max := s.MaxSteps
	if max <= 0 {
		max = DefaultMaxSteps
	}
	s.run = &runState{max: max, nextPid: 100}
	s.owner = true
	return func() { s.run, s.owner = nil, false }
}

// finish ends a run: `exit` sets the status and, for the session's own
// shell, marks it exited.
func (s *Shell) finish(code int) int {
	if s.flow == flowExit {
		if s.owner && !s.run.aborted {
			s.exited = true
		}
		code = s.status
	}
	s.flow = flowNone
	s.status = code
	return code
}

func (s *Shell) reportParseError(err error, st streams) {
	var pe *ParseError
	if !errors.As(err, &pe) {
		s.errorf(st, "%v", err)
		return
	}
	if s.Interactive {
		io.WriteString(st.err, s.Name+": "+pe.Msg+"\n")
		return
	}
	prefix := s.Name + ": "
	if s.cMode {
		prefix += "-c: "
	}
	io.WriteString(st.err, prefix+s.where(pe.Line)+pe.Msg+"\n")
	if strings.HasPrefix(pe.Msg, "syntax error near") {
		io.WriteString(st.err, prefix+s.where(pe.Line)+"`"+pe.Text+"'\n")
	}
}

// where is the "line N: " bash puts in non-interactive messages.
func (s *Shell) where(line int) string {
	if s.Interactive {
		return ""
	}
	return "line " + itoa(line) + ": "
}

// errorf prints a shell error: "bash: [line N: ]message".
func (s *Shell) errorf(st streams, format string, a ...any) {
	msg := sprintf(format, a...)
	io.WriteString(st.err, s.Name+": "+s.where(s.lineno)+msg+"\n")
}

// Subshell returns a copy of the shell for a child: its own variables,
// directory, aliases and functions, sharing the FS, commands and clock.
// `( … )`, pipeline stages, `$( … )` and `bash -c` all run in one.
func (s *Shell) Subshell() *Shell {
	c := *s
	c.Env = copyMap(s.Env)
	c.unexported = copyBoolMap(s.unexported)
	c.aliases = copyMap(s.aliases)
	c.funcs = make(map[string]*funcDef, len(s.funcs))
	for k, v := range s.funcs {
		c.funcs[k] = v
	}
	c.args = append([]string(nil), s.args...)
	c.flow, c.flowN = flowNone, 0
	c.depth = s.depth + 1
	c.exited = false
	c.owner = false
	return &c
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyBoolMap(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// exportedEnv is the environment handed to commands.
func (s *Shell) exportedEnv() map[string]string {
	env := make(map[string]string, len(s.Env))
	for k, v := range s.Env {
		if !s.unexported[k] {
			env[k] = v
		}
	}
	return env
}

// limitWriter fails writes past n bytes, so runaway output cannot fill memory.
type limitWriter struct {
	w io.Writer
	n int
}

var errOutputFull = errors.New("No space left on device")

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.n {
		k, _ := l.w.Write(p[:l.n])
		l.n = 0
		return k, errOutputFull
	}
	l.n -= len(p)
	return l.w.Write(p)
}
