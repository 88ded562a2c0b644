// Package kubectl is kubectl v1.32 as users know it: the command tree,
// flags, resource builder, printers, and the commands themselves, run
// against kubeplay's API through client.Interface. Output, messages and
// exit codes follow upstream kubectl byte for byte where the seeds and the
// real-v1.32 transcripts show them.
package kubectl

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kubeplay/core/client"
	"kubeplay/core/vfs"
)

// Env is everything kubectl needs from its host (the shell glue, a test, a
// lesson runner). It does not depend on the shell package.
//
// Contract:
//   - Client is the API; kubectl never reads the wall clock: ages and
//     timestamps use Client.Now().
//   - FS and Cwd resolve -f paths; Stdin is read for "-f -".
//   - Stdout and Stderr receive output as kubectl writes it (errors,
//     warnings and "No resources found" go to Stderr).
//   - Config holds kubeconfig contexts and the current namespace; kubectl
//     changes it in place (kubectl config ...) and the caller persists it.
//   - Fetch serves "-f http://…" (nil: URLs fail as unreachable).
//   - Advance lets d of virtual time pass while a command waits (rollout
//     status, get -w, wait, delete waiting for finalizers, drain); it
//     returns false when the user interrupted (Ctrl-C). nil: commands that
//     would wait return at once.
//   - Interactive is true at a live terminal, and for a command under
//     `timeout`. Non-interactive watches (get -w) end after 30 s of virtual
//     time with no change to the watched objects; interactive ones run until
//     Advance returns false.
//   - Editor edits a file in place for kubectl edit; when nil, KUBE_EDITOR
//     or EDITOR (read through Getenv) is run through RunShell with the file
//     path appended.
//   - Exec and Logs reach containers through the kubelets; nil means not
//     available yet, and the commands say so.
//   - Proxy registers `kubectl proxy --port=N` so the shell's curl reaches
//     the API at 127.0.0.1:N; nil means proxying is not available.
type Env struct {
	Client      client.Interface
	FS          *vfs.FS
	Cwd         string
	Stdin       io.Reader
	Stdout      io.Writer
	Stderr      io.Writer
	Config      *Config
	Fetch       func(url string) ([]byte, error)
	Advance     func(d time.Duration) bool
	Interactive bool
	Editor      func(path string) error
	RunShell    func(cmd string) int
	Getenv      func(string) string
	Exec        func(req ExecRequest) int
	Logs        func(req LogsRequest) (string, error)
	Proxy       func(address string, port int) error
}

// ExecRequest is `kubectl exec`: run Command in a container of a pod.
type ExecRequest struct {
	Namespace, Pod, Container string
	Command                   []string
	Stdin                     io.Reader
	Stdout, Stderr            io.Writer
	TTY                       bool
}

// LogsRequest is `kubectl logs`: a container's output.
type LogsRequest struct {
	Namespace, Pod, Container string
	Previous                  bool
	Timestamps                bool
	TailLines                 int64 // -1: all
	SinceSeconds              int64 // 0: all
	LimitBytes                int64 // 0: no limit
	Follow                    bool
}

// Run runs one kubectl command line (args without "kubectl") and returns
// kubectl's exit code.
func Run(env *Env, args []string) int {
	if env.Config == nil {
		env.Config = NewConfig()
	}
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	root := commandTree()
	cmd, rest, fs := root.find(args)
	if cmd == root {
		if prefix, msg := root.commandNotFound(args, rest); msg != "" {
			return fatal(env.Stderr, prefix+msg, 1)
		}
	}
	err := fs.Parse(rest)
	for _, w := range fs.warnings {
		fmt.Fprintln(env.Stderr, w)
	}
	if err == errHelp {
		io.WriteString(env.Stdout, cmd.help())
		return 0
	}
	if err != nil {
		return fatal(env.Stderr, fmt.Sprintf("error: %v\nSee '%s --help' for usage.", err, cmd.Path()), 1)
	}
	inv := &Invocation{Env: env, Cmd: cmd, Flags: fs, Args: fs.Args(), Argv: args}
	if cmd.run == nil {
		if len(cmd.Children) > 0 {
			if len(inv.Args) > 0 {
				return inv.checkErr(usageErrorf(cmd, "unknown command %q", strings.Join(inv.Args, " ")))
			}
			io.WriteString(env.Stderr, cmd.help())
			return 1
		}
		return fatal(env.Stderr, fmt.Sprintf("error: %q is not available in kubeplay", cmd.Path()), 1)
	}
	return inv.checkErr(cmd.run(inv))
}

// Invocation is one parsed command line on its way to a command.
type Invocation struct {
	Env   *Env
	Cmd   *Command
	Flags *FlagSet
	Args  []string
	Argv  []string
}

func (inv *Invocation) out() io.Writer    { return inv.Env.Stdout }
func (inv *Invocation) errOut() io.Writer { return inv.Env.Stderr }

// Namespace is -n, else the current context's namespace, else "default";
// explicit says whether -n was given.
func (inv *Invocation) Namespace() (ns string, explicit bool) {
	if inv.Flags.Changed("namespace") && inv.Flags.String("namespace") != "" {
		return inv.Flags.String("namespace"), true
	}
	if c := inv.Env.Config.current(); c != nil && c.Namespace != "" {
		return c.Namespace, false
	}
	return "default", false
}

func (inv *Invocation) now() time.Time { return inv.Env.Client.Now() }

// advance lets virtual time pass; false when interrupted or impossible.
func (inv *Invocation) advance(d time.Duration) bool {
	if inv.Env.Advance == nil {
		return false
	}
	return inv.Env.Advance(d)
}

// changeCause is what --record writes to kubernetes.io/change-cause: the
// command's positional words in their order, then each flag as parsed.
func (inv *Invocation) changeCause() string {
	fs := inv.Cmd.flagsFor()
	_ = fs.Parse(inv.Argv)
	var b strings.Builder
	b.WriteString("kubectl")
	if len(fs.Args()) > 0 {
		b.WriteString(" " + strings.Join(fs.Args(), " "))
	}
	for _, v := range fs.visited {
		fmt.Fprintf(&b, " --%s=%s", v.flag.Name, v.value)
	}
	return b.String()
}

// recording reports whether --record was given and true.
func (inv *Invocation) recording() bool { return inv.Flags.Bool("record") }

// commandNotFound is kubectl's answer when the words of a line name no
// command (printed after prefix), or "" when they do. kubectl first looks
// for a plugin, which refuses a line that starts with a flag; otherwise
// cobra reports the unknown command with its suggestions.
func (root *Command) commandNotFound(args, rest []string) (prefix, msg string) {
	words := stripFlags(rest, root.flagsFor())
	if len(words) == 0 {
		return "", ""
	}
	if strings.HasPrefix(args[0], "-") && words[0] != "help" {
		return "Error: ", "flags cannot be placed before plugin name: " + args[0]
	}
	msg = fmt.Sprintf("unknown command %q for %q", words[0], "kubectl")
	if s := root.suggestionsFor(words[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n"
		for _, x := range s {
			msg += "\t" + x + "\n"
		}
	}
	return "error: ", msg
}
