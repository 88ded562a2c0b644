package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"kubeplay/core/kubectl"
	"kubeplay/core/lesson"
	"kubeplay/core/session"
	"kubeplay/core/shell"
	"kubeplay/core/sim"
	"kubeplay/core/vfs"
)

// The real kubectl against kubeplay serve. Every session of the corpus (the
// conformance transcripts and every lesson's transcript, found at run time)
// is replayed twice, step by step: through our kubectl on a simulated
// cluster, and on a twin cluster (same starting point, same seed) that is
// served over HTTP on a loopback port, with every kubectl/k command run by
// upstream kubectl v1.32. Everything else on a line (sleep, grep, awk, date,
// curl, dig, kubeplay load, ...) runs in the simulated shell on both sides,
// against each side's own cluster, so the two clusters share one timeline.
// The outputs of every step must match (modulo generated names, ages, IPs).

// realKubectl finds upstream kubectl v1.32.
func realKubectl(t *testing.T) string {
	for _, p := range []string{os.Getenv("KUBECTL_1_32"), "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("kubectl.1.32"); err == nil {
		return p
	}
	t.Fatal("upstream kubectl v1.32 not found (set KUBECTL_1_32): .ci/run installs it")
	return ""
}

// corpusGlobs are the sessions replayed through the real kubectl.
var corpusGlobs = []string{"../../testdata/conformance/*.session", "../../testdata/bad-input*.session",
	"../../testdata/generators.session", "../../testdata/output-formats.session", "../../testdata/control-plane.session",
	"../../lessons/*/*.session"}

// corpus is every session the test replays: the conformance transcripts
// and every lesson's transcript, enumerated now (lessons come and go).
func corpus(t *testing.T) []string {
	globs := corpusGlobs
	if g := os.Getenv("KUBEPLAY_CONFORMANCE_GLOB"); g != "" {
		globs = strings.Fields(g) // explore other sessions
	}
	var files []string
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no sessions to replay")
	}
	// The longest first, so that the last ones to finish are short.
	size := map[string]int64{}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			size[f] = fi.Size()
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return size[files[i]] > size[files[j]] })
	return files
}

// unordered lists the commands whose lines upstream prints in an order
// that varies from run to run; their output is compared as a set of lines.
var unordered = []struct {
	command *regexp.Regexp
	why     string
	parts   func(line string) string // orders the parts of a line, if they vary too
}{
	{regexp.MustCompile(`^kubectl drain `), "kubectl drain evicts each pod on its own goroutine, so its \"evicting pod\" and \"evicted\" lines come in no fixed order; " +
		"it also groups pods by reason in a Go map, so the parts of its Warning line and of its error list come in no fixed order either", drainParts},
}

// drainParts puts the map-ordered parts of a kubectl drain line in order:
// `Warning: A: x; B: y` and `... due to error: [cannot delete A: x, cannot delete B: y], ...`.
func drainParts(line string) string {
	if rest, ok := strings.CutPrefix(line, "Warning: "); ok {
		parts := strings.Split(rest, "; ")
		slices.Sort(parts)
		return "Warning: " + strings.Join(parts, "; ")
	}
	i, j := strings.Index(line, "[cannot "), strings.LastIndex(line, "]")
	if i < 0 || j < i {
		return line
	}
	parts := strings.Split(line[i+1:j], ", cannot ")
	for k := 1; k < len(parts); k++ {
		parts[k] = "cannot " + parts[k]
	}
	slices.Sort(parts)
	return line[:i+1] + strings.Join(parts, ", ") + line[j:]
}

// excluded lists the commands that cannot run under the real kubectl
// against a server, as "FILE.session: command line" with the reason. Their
// lines still run on both sides (so the clusters stay together); only the
// comparison of their output is skipped. None is needed at present: exec
// goes over WebSocket, kubectl proxy listens on a free port and lesson URLs
// are read from the lesson's files.
var excluded = map[string]string{}

// A replay is one session's setup: how to build its starting cluster and
// how its command lines are rewritten for a real kubectl (both sides see
// the same rewritten lines).
type replay struct {
	path    string
	file    *session.File
	lesson  *lesson.Lesson // nil for a plain session
	scripts []string       // each step's script, rewritten
}

var urlArg = regexp.MustCompile(`https?://([A-Za-z0-9.-]+/[^\s'"]*)`)

func loadReplay(t *testing.T, path string) *replay {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := session.Parse(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	r := &replay{path: path, file: f}
	dir := filepath.Dir(path)
	if _, err := os.Stat(filepath.Join(dir, "lesson.yaml")); err == nil {
		l, err := lesson.Load(os.DirFS(filepath.Dir(dir)), filepath.Base(dir))
		if err != nil {
			t.Fatal(err)
		}
		r.lesson = l
	}
	proxyPort := ""
	for _, s := range f.Steps {
		script := s.Script
		if r.lesson != nil {
			// A lesson serves files/HOST/PATH at http://HOST/PATH, which a real
			// kubectl cannot reach: both sides load them as HOST/PATH from the
			// home directory instead.
			script = urlArg.ReplaceAllStringFunc(script, func(u string) string {
				key := urlArg.FindStringSubmatch(u)[1]
				if _, ok := r.lesson.Files[key]; ok {
					return key
				}
				return u
			})
		}
		if strings.Contains(script, "kubectl proxy") && proxyPort == "" {
			proxyPort = strconv.Itoa(freePort(t))
		}
		if proxyPort != "" {
			// kubectl proxy listens on a real port: a free one, on both sides.
			for _, p := range []string{"--port=", "localhost:", "127.0.0.1:"} {
				script = strings.ReplaceAll(script, p+"8080", p+proxyPort)
			}
		}
		r.scripts = append(r.scripts, script)
	}
	return r
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// terminal builds the session's starting cluster and a terminal on it.
func (r *replay) terminal(t *testing.T) *sim.Terminal {
	var term *sim.Terminal
	if r.lesson != nil {
		var err error
		if term, err = sim.NewLessonTerminal(r.lesson, sim.Options{Seed: 1}); err != nil {
			t.Fatal(err)
		}
		for name, b := range r.lesson.Files {
			if !strings.HasPrefix(name, "home/") {
				p := "/root/" + name
				_ = term.FS.MkdirAll(path.Dir(p), 0o755)
				_ = term.FS.WriteFile(p, b, 0o644)
			}
		}
	} else {
		term = sim.NewSessionTerminal(r.file, sim.Options{Seed: 1})
	}
	t.Cleanup(term.Cluster.Close)
	return term
}

// ours is our kubectl's side; it notes the virtual time at which each
// kubectl invocation returned, which the served side follows.
type ours struct {
	*sim.Terminal
	ends []time.Time
}

func newOurs(term *sim.Terminal) *ours {
	o := &ours{Terminal: term}
	run, _ := term.Shell.Lookup("kubectl")
	term.Shell.Register("kubectl", func(ctx *shell.Context, args []string) int {
		code := run(ctx, args)
		o.ends = append(o.ends, term.Cluster.Now())
		return code
	})
	return o
}

// activity watches the served API: requests in flight, watches open,
// evictions asked for, and when anything last happened on the wire.
type activity struct {
	inflight, watches, evictions atomic.Int64
	last                         atomic.Int64 // UnixNano
}

func (a *activity) touch() { a.last.Store(time.Now().UnixNano()) }

func (a *activity) quiet(d time.Duration) bool {
	return a.inflight.Load() == 0 && time.Since(time.Unix(0, a.last.Load())) >= d
}

func (a *activity) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		watch := q.Get("watch") == "true" || q.Get("watch") == "1"
		if strings.HasSuffix(r.URL.Path, "/eviction") {
			a.evictions.Add(1)
		}
		if !watch {
			a.inflight.Add(1)
			defer a.inflight.Add(-1)
		}
		a.touch()
		aw := &activityWriter{ResponseWriter: w, a: a, watch: watch}
		h.ServeHTTP(aw, r)
		if aw.open {
			a.watches.Add(-1)
		}
		a.touch()
	})
}

type activityWriter struct {
	http.ResponseWriter
	a           *activity
	watch, open bool
}

func (w *activityWriter) WriteHeader(code int) {
	if w.watch && !w.open {
		w.open = true
		w.a.watches.Add(1)
	}
	w.a.touch()
	w.ResponseWriter.WriteHeader(code)
}

func (w *activityWriter) Write(b []byte) (int, error) {
	w.a.touch()
	return w.ResponseWriter.Write(b)
}

func (w *activityWriter) Flush() {
	w.a.touch()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *activityWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// served is the real kubectl's side: a twin cluster behind kubeplay
// serve's handler on a loopback port, whose clock moves only when the
// session sleeps or a real kubectl waits on it. Its simulated shell runs
// every line; `kubectl` (and `k`) in it run the real binary.
type served struct {
	t       *testing.T
	term    *sim.Terminal
	eng     *engine
	act     *activity
	kubectl string
	url     string // where the twin is served; kubectl prints it as the terminal's server
	// kubeconfig is the real kubectl's; it reads as the terminal's
	// ~/.kube/config.
	kubeconfig string
	root       string // the simulated file system's files, mirrored on disk
	env        []string
	written    map[string]string
	bg         []*exec.Cmd
	// targets are the virtual times at which ours' kubectl invocations of
	// the current step returned; next indexes them.
	targets []time.Time
	next    int
	// late notes a real kubectl that waited past ours.
	late []string
	// kubectls counts the real kubectl processes run; the rest is for
	// KUBEPLAY_RK_STATS.
	kubectls     *atomic.Int64
	procs, steps int
	wall         time.Duration
	debug        bool
}

func newServed(t *testing.T, term *sim.Terminal, kubectl, home string, kubectls *atomic.Int64) *served {
	c := term.Cluster
	e := &engine{cluster: c, speed: 1, last: time.Now()}
	act := &activity{}
	// kubeplay serve's routes, on a free loopback port; its clock does not
	// follow the wall clock (runReal moves it).
	srv := httptest.NewServer(act.wrap(e.routes(http.NotFoundHandler())))
	dir := t.TempDir()
	kc := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kc, []byte(kubeconfigFor(srv.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, term: term, eng: e, act: act, kubectl: kubectl, kubectls: kubectls, root: filepath.Join(dir, "fs"), written: map[string]string{}, url: srv.URL, kubeconfig: kc,
		env: []string{"PATH=/usr/bin:/bin", "KUBECONFIG=" + kc, "HOME=" + home, "TZ=UTC", "KUBECTL_COMMAND_HEADERS=false"}}
	t.Cleanup(func() {
		for _, p := range s.bg {
			_ = p.Process.Kill()
			_ = p.Wait()
		}
		srv.Close()
	})
	s.debug = os.Getenv("KUBEPLAY_RK_DEBUG") != ""
	term.Shell.Register("kubectl", s.runKubectl)
	simCurl, _ := term.Shell.Lookup("curl")
	term.Shell.RegisterAt("curl", "/usr/bin/curl", func(ctx *shell.Context, args []string) int {
		for _, a := range args {
			if strings.HasPrefix(a, "localhost:") || strings.HasPrefix(a, "127.0.0.1:") || strings.Contains(a, "://localhost:") {
				bin, err := exec.LookPath("curl")
				if err != nil {
					s.t.Fatalf("curl (for kubectl proxy): %v", err)
				}
				return s.runReal(ctx, bin, append([]string{"curl"}, args...))
			}
		}
		return simCurl(ctx, args)
	})
	return s
}

// Run runs one step's script with the engine locked; a real process
// unlocks it while it runs.
func (s *served) Run(script string, targets []time.Time) string {
	s.targets, s.next = targets, 0
	s.eng.mu.Lock()
	defer s.eng.mu.Unlock()
	return s.term.Run(script)
}

// sync mirrors the simulated home and /tmp onto disk for the real kubectl.
func (s *served) sync() {
	seen := map[string]bool{}
	for _, top := range []string{"/root", "/tmp"} {
		_ = s.term.FS.Walk(top, func(p string, info vfs.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			b, err := s.term.FS.ReadFile(p)
			if err != nil {
				return nil
			}
			seen[p] = true
			if s.written[p] != string(b) {
				real := filepath.Join(s.root, p)
				_ = os.MkdirAll(filepath.Dir(real), 0o755)
				_ = os.WriteFile(real, b, 0o644)
				s.written[p] = string(b)
			}
			return nil
		})
	}
	for p := range s.written {
		if !seen[p] {
			_ = os.Remove(filepath.Join(s.root, p))
			delete(s.written, p)
		}
	}
	_ = os.MkdirAll(filepath.Join(s.root, "root"), 0o755)
}

func (s *served) runKubectl(ctx *shell.Context, args []string) int {
	return s.runReal(ctx, s.kubectl, append([]string{"kubectl"}, args...))
}

// quietFor is how long the wire must stay quiet before the clock moves
// under a waiting kubectl; quietBeforeStop, before a `timeout` stops it
// (long enough for it to have printed the last event it was sent).
const (
	quietFor        = 20 * time.Millisecond
	quietBeforeStop = 500 * time.Millisecond
)

// runReal runs a real process (kubectl, or curl to kubectl proxy) with the
// engine unlocked. While a kubectl waits on the cluster (a watch open, or
// evictions it polls for), the clock moves on in steps, up to the time at
// which ours returned and never past it: a real kubectl still waiting then
// (after a moment, or its own wall-clock --timeout) is stopped and
// reported. Afterwards the clock is where ours left it.
func (s *served) runReal(ctx *shell.Context, bin string, argv []string) int {
	c := s.eng.cluster
	target := c.Now()
	isKubectl := argv[0] == "kubectl"
	if isKubectl {
		s.kubectls.Add(1)
		if s.next < len(s.targets) && s.targets[s.next].After(target) {
			target = s.targets[s.next]
		}
		s.next++
	}
	s.sync()
	cmd := exec.Command(bin)
	cmd.Args = argv
	cmd.Dir = filepath.Join(s.root, ctx.Cwd)
	if _, err := os.Stat(cmd.Dir); err != nil {
		cmd.Dir = filepath.Join(s.root, "root")
	}
	cmd.Env = append([]string(nil), s.env...)
	for _, kv := range ctx.EnvList() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "PATH", "HOME", "PWD", "OLDPWD", "SHELL", "USER", "LOGNAME", "HOSTNAME", "TERM", "SHLVL", "KUBECONFIG", "TZ":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if ctx.Stdin != nil {
		cmd.Stdin = ctx.Stdin
	}
	out := &capture{}
	if sameWriter(ctx.Stdout, ctx.Stderr) {
		cmd.Stdout, cmd.Stderr = out, out // one pipe: the order of writes is kept
	} else {
		cmd.Stdout, cmd.Stderr = out.stream(false), out.stream(true)
	}
	evictionsBefore := s.act.evictions.Load()
	s.eng.mu.Unlock()
	defer s.eng.mu.Lock()
	if err := cmd.Start(); err != nil {
		s.eng.mu.Lock()
		fmt.Fprintln(ctx.Stderr, err)
		s.eng.mu.Unlock()
		return 127
	}
	if ctx.Background {
		// kubectl proxy: wait for its first line, then leave it serving.
		s.bg = append(s.bg, cmd)
		for i := 0; i < 500 && !out.hasLine(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		s.eng.mu.Lock()
		out.writeTo(ctx.Stdout, ctx.Stderr)
		out.discard()
		s.eng.mu.Unlock()
		return 0
	}
	started := time.Now()
	defer func() { s.procs++; s.wall += time.Since(started) }()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	deadline := ctx.Deadline
	wallTimeout := kubectlTimeout(argv)
	late := false
wait:
	for {
		select {
		case <-done:
			break wait
		case <-time.After(5 * time.Millisecond):
		}
		if !isKubectl || (s.act.watches.Load() == 0 && s.act.evictions.Load() == evictionsBefore) || !s.act.quiet(quietFor) {
			continue
		}
		s.eng.mu.Lock()
		now := c.Now()
		limit := target
		if !deadline.IsZero() && deadline.Before(limit) {
			limit = deadline
		}
		if now.Before(limit) {
			next := now.Add(time.Second)
			if t, ok := c.Clock.Next(); ok && t.After(next) {
				next = t
			}
			if next.After(limit) {
				next = limit
			}
			c.Advance(next.Sub(now))
			s.steps++
			if s.debug {
				s.t.Logf("%s: step %s -> %s (target %s)", strings.Join(argv, " "), now.Format("15:04:05.000"), next.Format("15:04:05.000"), target.Format("15:04:05.000"))
			}
			s.eng.mu.Unlock()
			s.act.touch()
			continue
		}
		s.eng.mu.Unlock()
		if !deadline.IsZero() && !now.Before(deadline) {
			// `timeout N`: the real kubectl is stopped as timeout stops it.
			for !s.act.quiet(quietBeforeStop) {
				time.Sleep(10 * time.Millisecond)
			}
			_ = cmd.Process.Signal(syscall.SIGTERM)
			<-done
			break wait
		}
		// Ours returned by now, and the clock stays where ours left it. A
		// real kubectl's --timeout runs on the wall clock, so it gets that
		// long; anything else gets a moment (drain polls every second), then
		// it is still waiting for something ours did not wait for.
		grace := 3 * time.Second
		if wallTimeout > 0 {
			grace = wallTimeout + 3*time.Second
		}
		select {
		case <-done:
		case <-time.After(grace):
			_ = cmd.Process.Kill()
			<-done
			late = true
		}
		break wait
	}
	s.eng.mu.Lock()
	if now := c.Now(); now.After(target) {
		s.late = append(s.late, fmt.Sprintf("$ %s: the served clock ran %s past ours", strings.Join(argv, " "), now.Sub(target)))
	} else if now.Before(target) {
		c.Advance(target.Sub(now))
	}
	if late {
		s.late = append(s.late, fmt.Sprintf("$ %s: the real kubectl was still waiting when ours had returned (at %s of virtual time)", strings.Join(argv, " "), target.Format(time.TimeOnly)))
	}
	// The loopback address of the twin reads as the server the terminal's
	// kubeconfig names (cluster-info, config view print it).
	out.replace(s.url, kubectl.NewConfig().Clusters[0].Server)
	out.replace(s.kubeconfig, "/root/.kube/config")
	out.writeTo(ctx.Stdout, ctx.Stderr)
	s.eng.mu.Unlock()
	code := cmd.ProcessState.ExitCode()
	if code < 0 {
		code = 128 + int(syscall.SIGTERM)
	}
	return code
}

// kubectlTimeout is a kubectl command's --timeout (wall-clock time in a
// real kubectl), 0 if none.
func kubectlTimeout(argv []string) time.Duration {
	for i, a := range argv {
		v, ok := strings.CutPrefix(a, "--timeout=")
		if !ok && a == "--timeout" && i+1 < len(argv) {
			v, ok = argv[i+1], true
		}
		if ok {
			if d, err := time.ParseDuration(v); err == nil {
				return d
			}
		}
	}
	return 0
}

// sameWriter reports whether two writers are one (a terminal merging
// stdout and stderr), without panicking on incomparable types.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	if a == nil || b == nil || reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	return a == b
}

// capture keeps a process's output in the order it was written, each
// chunk tagged with its stream.
type capture struct {
	mu      sync.Mutex
	chunks  []chunk
	dropped bool
}

type chunk struct {
	stderr bool
	b      []byte
}

func (c *capture) Write(b []byte) (int, error) { return c.add(false, b) }

func (c *capture) add(stderr bool, b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dropped {
		c.chunks = append(c.chunks, chunk{stderr, append([]byte(nil), b...)})
	}
	return len(b), nil
}

type streamWriter struct {
	c      *capture
	stderr bool
}

func (w streamWriter) Write(b []byte) (int, error) { return w.c.add(w.stderr, b) }

func (c *capture) stream(stderr bool) io.Writer { return streamWriter{c, stderr} }

func (c *capture) hasLine() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.chunks {
		if bytes.IndexByte(ch.b, '\n') >= 0 {
			return true
		}
	}
	return false
}

func (c *capture) writeTo(stdout, stderr io.Writer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.chunks {
		if ch.stderr {
			stderr.Write(ch.b)
		} else {
			stdout.Write(ch.b)
		}
	}
	c.chunks = nil
}

// replace rewrites old to new in what was captured.
func (c *capture) replace(old, new string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.chunks {
		c.chunks[i].b = bytes.ReplaceAll(c.chunks[i].b, []byte(old), []byte(new))
	}
}

func (c *capture) discard() {
	c.mu.Lock()
	c.dropped = true
	c.mu.Unlock()
}

func TestRealKubectlMatchesOurs(t *testing.T) {
	kubectl := realKubectl(t)
	home := t.TempDir() // shared: kubectl's discovery cache
	files := corpus(t)
	var n tally
	// Sessions run a few at a time: much of a replay is waiting on real
	// processes, so more run at once than there are cores.
	queue := make(chan string, len(files))
	for _, f := range files {
		queue <- f
	}
	close(queue)
	var wg sync.WaitGroup
	for range replayWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range queue {
				replayOne(t, path, kubectl, home, &n)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d sessions (%d lessons): %d command lines with kubectl compared (%d excluded), %d real kubectl runs",
		len(files), n.lessons.Load(), n.compared.Load(), n.excluded.Load(), n.kubectls.Load())
}

// replayWorkers is how many sessions replay at once.
const replayWorkers = 4

// tally counts what the replays covered.
type tally struct {
	lessons, compared, excluded, kubectls atomic.Int64
}

func replayOne(t *testing.T, path, kubectl, home string, n *tally) {
	t.Run(strings.TrimSuffix(filepath.Base(path), ".session"), func(t *testing.T) {
		r := loadReplay(t, path)
		if r.lesson != nil {
			n.lessons.Add(1)
		}
		o := newOurs(r.terminal(t))
		s := newServed(t, r.terminal(t), kubectl, home, &n.kubectls)
		for i := range r.file.Steps {
			step := &r.file.Steps[i]
			o.ends = nil
			mine := splitLines(o.Run(r.scripts[i]))
			theirs := splitLines(s.Run(r.scripts[i], o.ends))
			if why, ok := excluded[filepath.Base(path)+": "+step.Command]; ok {
				n.excluded.Add(1)
				t.Logf("%s:%d: not compared (%s)", path, step.Line, why)
				continue
			}
			if kubectlLine(r.scripts[i]) {
				n.compared.Add(1)
			}
			if !matches(r.scripts[i], theirs, mine) {
				t.Errorf("%s:%d: $ %s\n%s", path, step.Line, r.scripts[i], session.Diff(theirs, mine))
			}
		}
		if os.Getenv("KUBEPLAY_RK_STATS") != "" {
			t.Logf("%d processes, %s in them, %d clock steps", s.procs, s.wall, s.steps)
		}
		for _, l := range s.late {
			t.Errorf("%s: %s", path, l)
		}
	})
}

// matches compares the real kubectl's output with ours: line by line
// modulo generated names, ages and IPs (session.Equivalent). Rows sorted by
// generated names may come in another order when the two clusters
// generated different names (the order follows the names), and the
// commands in unordered print their lines in no fixed order.
func matches(script string, theirs, mine []string) bool {
	if session.Equivalent(theirs, mine) {
		return true
	}
	if len(theirs) != len(mine) {
		return false
	}
	a, b := normalized(theirs), normalized(mine)
	for _, u := range unordered {
		if u.command.MatchString(script) {
			for i := range a {
				a[i], b[i] = u.parts(a[i]), u.parts(b[i])
			}
			return sameLines(a, b)
		}
	}
	if len(a) == 0 || a[0] != b[0] || !sameLines(a, b) || sameLines(firstFields(theirs), firstFields(mine)) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !strings.Contains(a[i], "-<rand>") && !strings.Contains(a[i], "-<hash>") {
			return false
		}
	}
	return true
}

// firstFields is each line's first word: a table's NAME column.
func firstFields(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 0 {
			out[i] = f[0]
		}
	}
	return out
}

func normalized(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = session.Normalize(l)
	}
	return out
}

// sameLines reports whether two lists hold the same lines, in any order.
func sameLines(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

var kubectlWord = regexp.MustCompile(`(^|[\s;&|(` + "`" + `$])(kubectl|k)\s`)

// kubectlLine reports whether a script runs kubectl (or its alias k).
func kubectlLine(script string) bool {
	return kubectlWord.MatchString(strings.SplitN(script, "\n", 2)[0])
}

func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// The comparison's tolerances, pinned: rows may swap only when the two
// clusters generated different names; drain's lines and parts may come in
// any order; nothing else may differ but names, ages and IPs.
func TestRealKubectlComparison(t *testing.T) {
	hdr := "NAME                   READY   STATUS    RESTARTS   AGE"
	cases := []struct {
		script       string
		theirs, mine []string
		want         bool
	}{
		{"kubectl get pods", []string{hdr, "web-65d846d465-bwkn5   1/1   Running   0   20s", "web-65d846d465-z6jwz   0/1   Pending   0   1s"},
			[]string{hdr, "web-65d846d465-7vvqt   0/1   Pending   0   2s", "web-65d846d465-cdn64   1/1   Running   0   21s"}, true},
		{"kubectl get pods", []string{hdr, "web-65d846d465-bwkn5   1/1   Running   0   20s", "web-65d846d465-z6jwz   0/1   Pending   0   1s"},
			[]string{hdr, "web-65d846d465-z6jwz   0/1   Pending   0   1s", "web-65d846d465-bwkn5   1/1   Running   0   20s"}, false},
		{"kubectl get pods", []string{hdr, "web-65d846d465-bwkn5   1/1   Running   0   20s"},
			[]string{hdr, "web-65d846d465-bwkn5   0/1   Running   0   20s"}, false},
		{"kubectl drain n1 --force", []string{"Warning: b: x; a: y", "evicting pod default/p", "evicting pod default/q"},
			[]string{"evicting pod default/q", "Warning: a: y; b: x", "evicting pod default/p"}, true},
		{"kubectl get events", []string{"a", "b"}, []string{"b", "a"}, false},
	}
	for i, c := range cases {
		if got := matches(c.script, c.theirs, c.mine); got != c.want {
			t.Errorf("case %d (%s): matches = %v, want %v", i, c.script, got, c.want)
		}
	}
}
