package runtime

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"kubeplay/core/clock"
	"kubeplay/core/shell"
	"kubeplay/core/vfs"
)

// Runtime runs the containers of one node.
type Runtime struct {
	clock   *clock.Clock
	Catalog *Catalog
	nextID  uint64
	seed    string
	// notice is nginx's entrypoint notice, which every nginx container's
	// log starts with and shares.
	notice *logBlock
}

func (r *Runtime) nginxNotice() *logBlock {
	if r.notice == nil {
		r.notice = newLogBlock(nginxEntrypointNotice)
	}
	return r.notice
}

// New returns a runtime for a node; node names its container IDs.
func New(clk *clock.Clock, catalog *Catalog, node string) *Runtime {
	return &Runtime{clock: clk, Catalog: catalog, seed: node}
}

// Now is the runtime's virtual time.
func (r *Runtime) Now() time.Time { return r.clock.Now() }

// Config is what the kubelet asks a container to be.
type Config struct {
	Name       string
	Image      *Image
	Command    []string // overrides the image's entrypoint
	Args       []string // overrides the image's cmd
	Env        []string // NAME=value, in order
	WorkingDir string
	// FS is the container's root filesystem, Mounts the volumes to mount
	// into it.
	FS       *vfs.FS
	Mounts   []Mount
	Hostname string
	PodIP    string
	// Network lets programs in the container reach others (curl, wget).
	Network Network
	// OnExit is called when the container's main process ends.
	OnExit func(code int)
	// Processes shares the pod's process table (shareProcessNamespace).
	Processes *ProcessTable
}

// Network is how programs in a container reach the cluster.
type Network interface {
	// Register adds network tools (curl, nslookup…) to a container's shell.
	Register(sh *shell.Shell, namespace string)
}

// ProcessTable numbers processes within a PID namespace.
type ProcessTable struct {
	next  int
	procs []*Process
}

// NewProcessTable returns an empty PID namespace.
func NewProcessTable() *ProcessTable { return &ProcessTable{next: 1} }

// NewSharedProcessTable is the process table of a pod with
// shareProcessNamespace: the sandbox's /pause holds PID 1, so every
// container's processes come after it, as they do under containerd.
func NewSharedProcessTable(sandboxStarted time.Time) *ProcessTable {
	t := NewProcessTable()
	t.add(&Process{Argv: []string{"/pause"}, Started: sandboxStarted, onSignal: func(int) {}})
	return t
}

func (t *ProcessTable) add(p *Process) {
	p.Pid = t.next
	t.next++
	t.procs = append(t.procs, p)
}

// Running lists the live processes, by PID.
func (t *ProcessTable) Running() []*Process {
	var out []*Process
	for _, p := range t.procs {
		if !p.exited {
			out = append(out, p)
		}
	}
	return out
}

// Handler answers an HTTP request to a port a container listens on.
type Handler func(req *Request) *Response

// Request is an HTTP request as a container sees it.
type Request struct {
	Method, Path, RemoteIP string
	Header                 map[string]string
}

// Response is a container's answer.
type Response struct {
	Status int
	Header map[string]string
	Body   string
}

// Container is a started container.
type Container struct {
	ID       string
	cfg      Config
	rt       *Runtime
	main     *Process
	procs    *ProcessTable
	log      containerLog
	stdout   lineWriter
	stderr   lineWriter
	ports    []listener // by port
	Started  time.Time
	Exited   bool
	Code     int
	Finished time.Time
	// Load is CPU work a learner put on the container (millicores; 0: idle).
	Load int64
}

// ErrNotFound reports a command the image does not have, as runc words it.
type ErrNotFound struct{ Name string }

func (e *ErrNotFound) Error() string {
	return fmt.Sprintf("failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: %q: executable file not found in $PATH: unknown", e.Name)
}

// Start creates and starts a container. A command the image lacks fails
// here, as a StartError.
func (r *Runtime) Start(cfg Config) (*Container, error) {
	if err := prepareRoot(cfg); err != nil {
		return nil, err
	}
	r.nextID++
	c := &Container{
		ID:      fmt.Sprintf("containerd://%s", containerID(r.seed, r.nextID)),
		cfg:     cfg,
		rt:      r,
		procs:   cfg.Processes,
		Started: r.clock.Now(),
	}
	if c.procs == nil {
		c.procs = NewProcessTable()
	}
	c.stdout = lineWriter{c: c}
	c.stderr = lineWriter{c: c, stderr: true}
	argv := execSimpleScript(c.argv())
	if len(argv) == 0 {
		return nil, fmt.Errorf("failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: no command specified: unknown")
	}
	p := &Process{Argv: argv, Started: c.Started, c: c}
	c.procs.add(p)
	c.main = p
	// Programs that only wait start without a shell or a goroutine.
	if startNative(p) {
		return c, nil
	}
	sh := c.shell(p)
	if _, ok := sh.Lookup(path.Base(argv[0])); !ok {
		c.procs.procs = c.procs.procs[:len(c.procs.procs)-1]
		c.procs.next--
		return nil, &ErrNotFound{Name: argv[0]}
	}
	p.startCoroutine(func() int { return runArgv(sh, argv, &c.stdout, &c.stderr) })
	return c, nil
}

// argv is the container's command line: command/args over the image's
// entrypoint/cmd, as Kubernetes combines them.
func (c *Container) argv() []string {
	im := c.cfg.Image
	switch {
	case len(c.cfg.Command) > 0:
		return append(append([]string{}, c.cfg.Command...), c.cfg.Args...)
	case len(c.cfg.Args) > 0:
		return append(append([]string{}, im.Entrypoint...), c.cfg.Args...)
	default:
		return append(append([]string{}, im.Entrypoint...), im.Cmd...)
	}
}

// execSimpleScript applies the shells' exec optimisation: `sh -c "sleep
// 3600"` runs sleep in place of the shell, so ps shows it as PID 1.
func execSimpleScript(argv []string) []string {
	if len(argv) != 3 || argv[1] != "-c" {
		return argv
	}
	switch path.Base(argv[0]) {
	case "sh", "bash":
	default:
		return argv
	}
	script := strings.TrimSpace(argv[2])
	if script == "" || strings.ContainsAny(script, ";|&<>$`\"'(){}[]*?~#=\n\\") {
		return argv
	}
	words := strings.Fields(script)
	switch words[0] {
	case "exit", "cd", "export", "echo", "printf", "test", "true", "false", "read", "exec", "set", "trap", "wait":
		return argv // builtins are not exec'd
	}
	return words
}

// Main is the container's first process.
func (c *Container) Main() *Process { return c.main }

// Processes lists the live processes the container can see.
func (c *Container) Processes() []*Process { return c.procs.Running() }

// Signal delivers sig to the container's main process.
func (c *Container) Signal(sig int) { c.main.Signal(sig) }

// Kill ends every process of the container at once.
func (c *Container) Kill() {
	for _, p := range c.procs.Running() {
		if p.c == c {
			p.Signal(SIGKILL)
		}
	}
}

func (c *Container) processExited(p *Process) {
	if p != c.main {
		return
	}
	c.stdout.flush()
	c.stderr.flush()
	c.Exited, c.Code, c.Finished = true, p.code, c.rt.clock.Now()
	c.ports = nil
	if c.cfg.OnExit != nil {
		c.cfg.OnExit(p.code)
	}
}

// Listen serves port with h while the container runs.
func (c *Container) Listen(port int, h Handler) {
	i := sort.Search(len(c.ports), func(i int) bool { return c.ports[i].port >= port })
	if i < len(c.ports) && c.ports[i].port == port {
		c.ports[i].h = h
		return
	}
	c.ports = slices.Insert(c.ports, i, listener{port, h})
}

// listener is a port a container listens on: a container has one or two,
// so a slice is lighter than a map for as long as it runs.
type listener struct {
	port int
	h    Handler
}

// Handler returns what listens on port, if anything.
func (c *Container) Handler(port int) (Handler, bool) {
	if c.Exited {
		return nil, false
	}
	for _, l := range c.ports {
		if l.port == port {
			return l.h, true
		}
	}
	return nil, false
}

// Ports lists the ports the container listens on.
func (c *Container) Ports() []int {
	out := make([]int, len(c.ports))
	for i, l := range c.ports {
		out[i] = l.port
	}
	return out
}

// ExecOptions tune an exec.
type ExecOptions struct {
	Stdin string
	// Sleep lets virtual time pass for a command that sleeps (kubectl exec
	// from the terminal); nil counts the time in Elapsed instead (probes
	// and hooks, which have a timeout).
	Sleep func(d time.Duration)
}

// ExecResult is what an exec printed and returned.
type ExecResult struct {
	Stdout, Stderr string
	Code           int
	// Elapsed is the virtual time the command slept (when not passed to Sleep).
	Elapsed time.Duration
	// NotFound is set when the command does not exist in the image.
	NotFound bool
}

// Exec runs a command in the running container to completion.
func (c *Container) Exec(argv []string, opts ExecOptions) ExecResult {
	var res ExecResult
	if len(argv) == 0 {
		res.Code = 1
		return res
	}
	p := &Process{Argv: argv, Started: c.rt.clock.Now(), c: c, execSleep: opts.Sleep}
	if p.execSleep == nil {
		p.execSleep = func(d time.Duration) {
			if d < 0 {
				d = 24 * time.Hour
			}
			res.Elapsed += d
		}
	}
	sh := c.shell(p)
	if _, ok := sh.Lookup(path.Base(argv[0])); !ok {
		res.NotFound, res.Code = true, 127
		res.Stderr = fmt.Sprintf("OCI runtime exec failed: exec failed: unable to start container process: exec: %q: executable file not found in $PATH: unknown\n", argv[0])
		return res
	}
	c.procs.add(p)
	var out, errb bytes.Buffer
	sh.Env["PPID"] = "0"
	code := runArgvIn(sh, argv, strings.NewReader(opts.Stdin), &out, &errb)
	p.exited, p.code = true, code
	res.Stdout, res.Stderr, res.Code = out.String(), errb.String(), code
	return res
}

// shell returns a shell over the container's filesystem and environment
// for process p's programs.
func (c *Container) shell(p *Process) *shell.Shell {
	sh := shell.New(c.cfg.FS)
	sh.Interactive = false
	sh.Name = "sh"
	sh.Now = c.rt.clock.Now
	sh.Env = map[string]string{}
	for _, kv := range c.cfg.Env {
		k, v, _ := strings.Cut(kv, "=")
		sh.Env[k] = v
	}
	if _, ok := sh.Env["PATH"]; !ok {
		sh.Env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	if _, ok := sh.Env["HOME"]; !ok {
		sh.Env["HOME"] = "/root"
	}
	sh.Env["HOSTNAME"] = c.cfg.Hostname
	sh.Cwd = "/"
	if c.cfg.WorkingDir != "" {
		sh.Cwd = c.cfg.WorkingDir
	} else if c.cfg.Image.WorkingDir != "" {
		sh.Cwd = c.cfg.Image.WorkingDir
	}
	if c.cfg.Network != nil {
		c.cfg.Network.Register(sh, "")
	}
	registerPrograms(p, sh)
	return sh
}

// runArgv runs an exec-form command line in sh, the way a runtime execs
// it: no shell parsing of the words.
func runArgv(sh *shell.Shell, argv []string, stdout, stderr io.Writer) int {
	return runArgvIn(sh, argv, strings.NewReader(""), stdout, stderr)
}

func runArgvIn(sh *shell.Shell, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	words := make([]string, len(argv))
	for i, a := range argv {
		if i == 0 {
			a = path.Base(a)
		}
		words[i] = quote(a)
	}
	return sh.RunIO(strings.Join(words, " "), stdin, stdout, stderr)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// containerID derives a 64-hex-digit container ID.
func containerID(seed string, n uint64) string {
	const hexDigits = "0123456789abcdef"
	x := uint64(14695981039346656037)
	for _, ch := range seed {
		x = (x ^ uint64(ch)) * 1099511628211
	}
	// Four rounds of the hash, each printed as 16 hex digits.
	var id [64]byte
	for i := uint64(0); i < 4; i++ {
		x = (x ^ (n*0x9e3779b97f4a7c15 + i)) * 1099511628211
		v := x
		for d := 15; d >= 0; d-- {
			id[i*16+uint64(d)] = hexDigits[v&15]
			v >>= 4
		}
	}
	return string(id[:])
}

// FS is the container's root filesystem.
func (c *Container) FS() *vfs.FS { return c.cfg.FS }

func underMount(p string, mounts []vfs.MountInfo) bool {
	for _, m := range mounts {
		if under(p, m.Target) {
			return true
		}
	}
	return false
}
