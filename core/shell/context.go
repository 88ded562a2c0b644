package shell

import (
	"fmt"
	"io"
	"sort"
	"time"

	"kubeplay/core/vfs"
)

// Command is a command the shell can run: a tool, a builtin or one an
// embedder registers (kubectl, sleep, curl, dig…). args are the arguments
// after the command's name (ctx.Name holds the name). It returns the exit
// status.
type Command func(ctx *Context, args []string) int

// Context is what a running command sees.
type Context struct {
	// Shell is the shell running the command: builtins change its state
	// (cd, export), and `sh`/`xargs` use it to run more commands.
	Shell *Shell
	// Name is the command name as invoked (after alias expansion).
	Name   string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Env is the command's environment: the exported variables plus the
	// assignments written before the command (`A=b cmd`). Read it through
	// Getenv or EnvList for deterministic order.
	Env map[string]string
	FS  *vfs.FS
	// Cwd is the working directory, absolute.
	Cwd string
	// Background is set for `cmd &`: the shell still runs it to
	// completion, so a long-running command (kubectl proxy) should start
	// its work and return.
	Background bool
	// Deadline, when set (by `timeout`), is the virtual time by which a
	// command that waits (sleep, kubectl get -w) must return; timeout
	// reports 124 if the clock reached it.
	Deadline time.Time
}

// Now is the embedder's current (virtual) time.
func (c *Context) Now() time.Time { return c.Shell.now() }

// Getenv returns an environment variable, "" when unset.
func (c *Context) Getenv(name string) string { return c.Env[name] }

// LookupEnv returns an environment variable and whether it is set.
func (c *Context) LookupEnv(name string) (string, bool) {
	v, ok := c.Env[name]
	return v, ok
}

// EnvList is the environment as sorted NAME=value lines.
func (c *Context) EnvList() []string {
	keys := make([]string, 0, len(c.Env))
	for k := range c.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + c.Env[k]
	}
	return out
}

// Abs resolves a path against the working directory.
func (c *Context) Abs(p string) string { return vfs.Clean(c.Cwd, p) }

// Errorf writes "name: message\n" to stderr, the way tools report errors.
func (c *Context) Errorf(format string, a ...any) {
	fmt.Fprintf(c.Stderr, "%s: %s\n", c.Name, fmt.Sprintf(format, a...))
}

// ReadFile reads a file named by the user: "-" and /dev/stdin are standard
// input, /dev/null is empty. Errors read "NAME: No such file or directory".
func (c *Context) ReadFile(name string) ([]byte, error) {
	switch name {
	case "-", "/dev/stdin":
		return io.ReadAll(c.Stdin)
	case "/dev/null":
		return nil, nil
	}
	b, err := c.FS.ReadFile(c.Abs(name))
	if err != nil {
		return nil, &vfs.PathError{Op: "open", Path: name, Err: errReason(err)}
	}
	return b, nil
}

// WriteFile writes (or appends to) a file named by the user; /dev/null
// swallows, /dev/stdout and /dev/stderr write to the streams.
func (c *Context) WriteFile(name string, data []byte, appendData bool) error {
	switch name {
	case "/dev/null":
		return nil
	case "/dev/stdout", "-":
		_, err := c.Stdout.Write(data)
		return err
	case "/dev/stderr":
		_, err := c.Stderr.Write(data)
		return err
	}
	var err error
	if appendData {
		err = c.FS.Append(c.Abs(name), data)
	} else {
		err = c.FS.WriteFile(c.Abs(name), data, 0o644)
	}
	if err != nil {
		return &vfs.PathError{Op: "open", Path: name, Err: errReason(err)}
	}
	return nil
}

func errReason(err error) error { return vfs.Errno(vfs.Reason(err)) }

// Complete is called for Tab completion of a command's arguments: args are
// the words before the cursor (args[0] is the command, aliases expanded)
// and word is the partial word under it. It returns candidate words; nil
// falls back to file names.
type Completer func(s *Shell, args []string, word string) []string

// toolSteps is the step budget of a tool that loops on its own (awk, sed,
// bc): times the shell's budget, as one of its steps costs far less than
// a command does.
func (c *Context) toolSteps(times int) int {
	max := DefaultMaxSteps
	if c.Shell != nil && c.Shell.MaxSteps > 0 {
		max = c.Shell.MaxSteps
	}
	return times * max
}
