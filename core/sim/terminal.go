package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/kubectl"
	"kubeplay/core/session"
	"kubeplay/core/shell"
	"kubeplay/core/vfs"
)

// Terminal is the learner's terminal on a cluster: the shell with kubectl,
// `sleep` on the virtual clock and the `kubeplay` simulation commands.
// The page, `kubeplay shell` and session files all type into one of these.
type Terminal struct {
	Cluster *Cluster
	Shell   *shell.Shell
	// Interactive is set at a live terminal: watches run until interrupted
	// instead of ending after a quiet spell.
	Interactive bool
	// Interrupted reports Ctrl-C: a command waiting on the clock stops.
	Interrupted func() bool
	FS          *vfs.FS
	Config      *kubectl.Config
	// Files serves URLs a lesson loads with -f (path after the scheme → content).
	Files map[string][]byte
}

// NewTerminal returns a terminal on c with an empty home directory.
func NewTerminal(c *Cluster) *Terminal {
	fs := vfs.New()
	t := &Terminal{Cluster: c, FS: fs, Config: kubectl.NewConfig(), Files: map[string][]byte{}}
	sh := shell.New(fs)
	sh.Now = c.Now
	sh.Register("kubectl", t.kubectl)
	sh.Alias("k", "kubectl")
	sh.Register("sleep", t.sleep)
	sh.Register("kubeplay", t.kubeplay)
	sh.RegisterAt("watch", "/usr/bin/watch", t.watch)
	t.registerNetworkTools(sh)
	t.Shell = sh
	return t
}

// NewSessionTerminal returns a terminal for a session file on a new
// default cluster; a session that creates no Node gets one default node.
func NewSessionTerminal(f *session.File, opts Options) *Terminal {
	c := NewDefault(opts)
	definesNodes := false
	for _, s := range f.Steps {
		if strings.Contains(s.Script, "kind: Node") {
			definesNodes = true
		}
	}
	if !definesNodes {
		c.AddDefaultNode()
	}
	return NewTerminal(c)
}

// Run runs a script (a command line and its heredocs) and returns what it
// printed, stdout and stderr interleaved.
func (t *Terminal) Run(script string) string {
	t.Shell.AddHistory(script)
	out, _ := t.Shell.Run(script, "")
	return out
}

func (t *Terminal) kubectl(ctx *shell.Context, args []string) int {
	env := &kubectl.Env{
		Client:      t.Cluster.Client("kubectl"),
		FS:          t.FS,
		Cwd:         ctx.Cwd,
		Stdin:       ctx.Stdin,
		Stdout:      ctx.Stdout,
		Stderr:      ctx.Stderr,
		Config:      t.Config,
		Getenv:      ctx.Getenv,
		Interactive: t.Interactive,
		Advance:     t.advancer(ctx),
		Fetch:       t.fetch,
		Logs:        t.logs,
		Proxy:       t.proxy,
		Exec: func(req kubectl.ExecRequest) int {
			return t.exec(req)
		},
		RunShell: func(cmd string) int {
			out, code := t.Shell.Run(cmd, "")
			fmt.Fprint(ctx.Stdout, out)
			return code
		},
	}
	if !ctx.Deadline.IsZero() {
		// Under `timeout` a wait ends at the deadline, as a real one does,
		// not after the quiet spell that ends it in a session file.
		env.Interactive = true
	}
	code := kubectl.Run(env, args)
	// The control plane reacts to each command before the next one runs.
	t.Cluster.Settle()
	return code
}

// advancer lets virtual time pass for a command that waits: it refuses
// after Ctrl-C and stops at a shell `timeout`'s deadline.
func (t *Terminal) advancer(ctx *shell.Context) func(time.Duration) bool {
	return func(d time.Duration) bool {
		if t.Interrupted != nil && t.Interrupted() {
			return false
		}
		if dl := ctx.Deadline; !dl.IsZero() {
			now := t.Cluster.Now()
			if !now.Before(dl) {
				return false
			}
			if now.Add(d).After(dl) {
				t.Cluster.Advance(dl.Sub(now))
				return false
			}
		}
		t.Cluster.Advance(d)
		return true
	}
}

func (t *Terminal) fetch(url string) ([]byte, error) {
	key := url
	for _, p := range []string{"http://", "https://"} {
		key = strings.TrimPrefix(key, p)
	}
	if b, ok := t.Files[key]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("unable to read URL %q, server reported 404 Not Found, status code=404", url)
}

// sleep lets virtual time pass; the cluster settles as it does.
func (t *Terminal) sleep(ctx *shell.Context, args []string) int {
	d, err := shell.ParseSleep(args)
	if err == nil && (d == shell.SleepForever || d > maxTerminalSleep) {
		// Virtual time is cheap but not endless: refuse as sleep refuses a bad interval.
		err = fmt.Errorf("sleep: invalid time interval '%s'\nTry 'sleep --help' for more information.", strings.Join(args, " "))
	}
	if err != nil {
		fmt.Fprintln(ctx.Stderr, err)
		return 1
	}
	t.Cluster.Advance(d)
	return 0
}

// maxTerminalSleep bounds how far one sleep at the prompt moves the clock.
const maxTerminalSleep = 1e7 * time.Second

// kubeplay is the simulation's own command: `kubeplay node stop|start
// NAME`, `kubeplay load TYPE/NAME CPU`, `kubeplay registry fail IMAGE [N]`.
func (t *Terminal) kubeplay(ctx *shell.Context, args []string) int {
	if len(args) == 3 && args[0] == "node" && (args[1] == "stop" || args[1] == "start") {
		if err := t.Cluster.SetNodeRunning(args[2], args[1] == "start"); err != nil {
			fmt.Fprintf(ctx.Stderr, "kubeplay: %v\n", err)
			return 1
		}
		return 0
	}
	if len(args) == 3 && args[0] == "load" {
		kind, name, ok := strings.Cut(args[1], "/")
		milli, err := parseLoad(args[2])
		if !ok || err != nil {
			if err == nil {
				err = fmt.Errorf("want TYPE/NAME, like deployment/web")
			}
			fmt.Fprintf(ctx.Stderr, "kubeplay: %v\n", err)
			return 1
		}
		ns := t.Config.Namespace()
		if err := t.Cluster.SetLoad(ns, kind, name, milli); err != nil {
			fmt.Fprintf(ctx.Stderr, "kubeplay: %v\n", err)
			return 1
		}
		if milli == 0 {
			fmt.Fprintf(ctx.Stdout, "load on %s removed\n", args[1])
		} else {
			fmt.Fprintf(ctx.Stdout, "%s now gets %dm of CPU work, shared by its running pods\n", args[1], milli)
		}
		return 0
	}
	if len(args) >= 3 && len(args) <= 4 && args[0] == "registry" && args[1] == "fail" {
		nth := 1
		if len(args) == 4 {
			n, err := strconv.Atoi(args[3])
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "kubeplay: %q is not a number of downloads\n", args[3])
				return 1
			}
			nth = n
		}
		if err := t.Cluster.FailImageDownload(args[2], nth); err != nil {
			fmt.Fprintf(ctx.Stderr, "kubeplay: %v\n", err)
			return 1
		}
		which := "the next download"
		if nth > 1 {
			which = fmt.Sprintf("download %d from now", nth)
		}
		fmt.Fprintf(ctx.Stdout, "%s of %s will time out\n", which, args[2])
		return 0
	}
	fmt.Fprintln(ctx.Stderr, "usage: kubeplay node stop|start NAME\n       kubeplay load TYPE/NAME CPU\n       kubeplay registry fail IMAGE [N]")
	return 2
}
