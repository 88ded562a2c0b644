// Package e2e drives the built playground (dist/) in headless Chromium: the
// page must boot the engine, run what a learner types in the terminal, draw
// the cluster, keep its time controls and never log a console error.
//
// It runs only when KUBEPLAY_E2E=1 (./build.sh test sets it after building
// the site); KUBEPLAY_DIST names the built site (default ../dist) and
// CHROMIUM the browser (default: chromium on the PATH). Screenshots and the
// measurements (wasm size, time to ready) go to dist/e2e/.
package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

type suite struct {
	t    *testing.T
	ctx  context.Context
	base string
	out  string // where screenshots go

	mu   *sync.Mutex
	errs *[]string
}

func setup(t *testing.T) *suite {
	if os.Getenv("KUBEPLAY_E2E") != "1" {
		t.Skip("browser tests run with KUBEPLAY_E2E=1 (./build.sh test)")
	}
	dist := os.Getenv("KUBEPLAY_DIST")
	if dist == "" {
		dist = "../dist"
	}
	dist, _ = filepath.Abs(dist)
	if _, err := os.Stat(filepath.Join(dist, "kubeplay.wasm")); err != nil {
		t.Fatalf("no built site in %s (run ./build.sh build): %v", dist, err)
	}
	browser := os.Getenv("CHROMIUM")
	if browser == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				browser = p
				break
			}
		}
	}
	if browser == "" {
		t.Fatal("no Chromium found: install Debian's chromium or set CHROMIUM")
	}
	out := filepath.Join(dist, "e2e")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}

	// A plain static file server: the page must need nothing else.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dist))}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(1366, 860),
	}
	// KUBEPLAY_JS_FLAGS passes V8 flags, to see how the engine's start
	// depends on them (--no-wasm-lazy-compilation, --liftoff-only, …).
	if f := os.Getenv("KUBEPLAY_JS_FLAGS"); f != "" {
		opts = append(opts, chromedp.Flag("js-flags", f))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	s := &suite{t: t, ctx: ctx, base: "http://" + ln.Addr().String() + "/", out: out, mu: &sync.Mutex{}, errs: &[]string{}}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	s.listen()
	return s
}

// listen collects the tab's console errors and uncaught exceptions.
func (s *suite) listen() {
	messages := chromedp.Console(s.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				s.mu.Lock()
				*s.errs = append(*s.errs, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				s.mu.Unlock()
			}
		}
	}()
}

// fresh opens a tab in a new browser context: a fresh profile, with its
// own storage. close ends it.
func (s *suite) fresh() (f *suite, close func()) {
	ctx, cancel := chromedp.NewContext(s.ctx, chromedp.WithNewBrowserContext())
	f = &suite{t: s.t, ctx: ctx, base: s.base, out: s.out, mu: s.mu, errs: s.errs}
	if err := chromedp.Do(ctx); err != nil {
		s.t.Fatalf("new tab: %v", err)
	}
	f.listen()
	return f, cancel
}

func (s *suite) do(actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		s.t.Fatalf("browser: %v", err)
	}
}

func eval[T any](s *suite, js string) T {
	s.t.Helper()
	return evalWithin[T](s, js, 60*time.Second)
}

// evalWithin is eval for scripts that may take longer than a minute.
func evalWithin[T any](s *suite, js string, timeout time.Duration) T {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		s.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript condition.
func (s *suite) waitFor(what, js string, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if eval[bool](s, js) {
			return
		}
		if time.Now().After(deadline) {
			s.screenshot("failed-" + strings.ReplaceAll(what, " ", "-"))
			s.t.Fatalf("timed out after %v waiting for %s; terminal:\n%s", timeout, what, s.terminal())
		}
		time.Sleep(150 * time.Millisecond)
	}
}

func (s *suite) terminal() string {
	return eval[string](s, `window.kubeplay && window.kubeplay._terminalText ? window.kubeplay._terminalText() : document.body.innerText`)
}

// load opens the page and waits for window.kubeplay.ready; it returns the
// milliseconds from navigation to ready.
func (s *suite) load(query string) float64 {
	s.t.Helper()
	s.do(chromedp.Navigate(s.base + query))
	ok := eval[bool](s, `window.kubeplay.ready.then(() => true)`)
	if !ok {
		s.t.Fatal("kubeplay.ready did not resolve to true")
	}
	s.waitFor("the prompt", `window.kubeplay._terminalText().includes("$ ")`, 10*time.Second)
	return eval[float64](s, `window.kubeplay.readyAt`)
}

// typeLine types a line into the terminal and presses Enter.
func (s *suite) typeLine(line string) {
	s.t.Helper()
	s.do(chromedp.Focus(chromedp.CSS(".xterm-helper-textarea")), keys(line+"\r", 0))
}

// keys types as a person does: for each key a keyDown that carries its
// text (Chromium then fires keydown, keypress and input, as for a real
// key) and a keyUp, the way Puppeteer types. modifiers: 2 is Ctrl.
func keys(text string, modifiers int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, r := range text {
			down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Modifiers: modifiers}
			if k, ok := kb.Keys[r]; ok {
				down.Key, down.Code, down.WindowsVirtualKeyCode, down.NativeVirtualKeyCode = k.Key, k.Code, k.Windows, k.Native
				if k.Print && modifiers == 0 {
					down.Text, down.UnmodifiedText = k.Text, k.Unmodified
				}
				if !k.Print {
					down.Type = input.DispatchKeyEventTypeRawKeyDown
				}
			} else {
				down.Key, down.Text, down.UnmodifiedText = string(r), string(r), string(r)
			}
			if r == '\r' {
				down.Type, down.Text, down.UnmodifiedText = input.DispatchKeyEventTypeKeyDown, "\r", "\r"
			}
			up := down
			up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
			for _, ev := range []input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, ev); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// command types a line and waits for the next prompt after it.
func (s *suite) command(line string, timeout time.Duration) string {
	s.t.Helper()
	before := eval[int](s, `window.kubeplay._terminalText().split("$ ").length`)
	s.typeLine(line)
	s.waitFor("the prompt after "+line, fmt.Sprintf(`(() => { const t = window.kubeplay._terminalText(); return t.split("$ ").length > %d && /\$ $/.test(t.trimEnd() + " ") && !window.__kubeplayGo.busy(); })()`, before), timeout)
	text := s.terminal()
	i := strings.LastIndex(text, "$ "+line)
	if i < 0 {
		return text
	}
	return text[i:]
}

func (s *suite) screenshot(name string) {
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(s.out, name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		s.t.Logf("screenshot %s: %v", name, err)
	}
}

func (s *suite) noConsoleErrors() {
	s.t.Helper()
	time.Sleep(200 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(*s.errs) > 0 {
		s.t.Errorf("console errors:\n  %s", strings.Join(*s.errs, "\n  "))
		*s.errs = nil
	}
}

const pinnedPod = `kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: pinned
spec:
  nodeName: node01
  containers:
  - name: web
    image: nginx
EOF`

func TestPlayground(t *testing.T) {
	s := setup(t)
	first := s.load("?lang=en")
	t.Logf("first load: ready after %.0f ms", first)

	// The learner's first steps, typed into the terminal.
	out := s.command("kubectl create deployment web --image=nginx --replicas=2", 20*time.Second)
	if !strings.Contains(out, "deployment.apps/web created") {
		t.Fatalf("create deployment:\n%s", out)
	}
	t0 := eval[string](s, `document.getElementById("clock").dataset.time`)
	start := time.Now()
	s.command("sleep 10", 40*time.Second)
	if d := time.Since(start); d < 8*time.Second {
		t.Errorf("sleep 10 at 1x took only %v of wall time", d)
	}
	t1 := eval[string](s, `document.getElementById("clock").dataset.time`)
	if a, b := parseTime(t, t0), parseTime(t, t1); b.Sub(a) < 10*time.Second {
		t.Errorf("virtual clock moved %v during sleep 10", b.Sub(a))
	}
	out = s.command("kubectl get pods -o wide", 20*time.Second)
	running := strings.Count(out, " Running ")
	want := 2
	if running == 0 && strings.Count(out, "Pending") >= 2 && strings.Contains(out, "<none>") {
		// The scheduler comes with its own issue; until it lands, check the
		// picture with a pod that names its node (typed as a heredoc).
		t.Log("no scheduler in the engine yet: the web pods stay Pending; checking a pod with spec.nodeName")
		for i, line := range strings.Split(pinnedPod, "\n") {
			if i == len(strings.Split(pinnedPod, "\n"))-1 {
				s.command(line, 20*time.Second)
			} else {
				s.typeLine(line)
			}
		}
		s.command("sleep 5", 30*time.Second)
		out = s.command("kubectl get pods", 20*time.Second)
		running = strings.Count(out, " Running ")
		want = 1
		s.waitFor("2 pending pods in the picture", `document.querySelectorAll('#picture g.unscheduled g.pod[data-pod^="default/web-"]').length === 2`, 5*time.Second)
	}
	if running != want {
		t.Fatalf("%d pods Running in the terminal, want %d:\n%s", running, want, out)
	}
	s.waitFor("Running pods in the picture", fmt.Sprintf(`document.querySelectorAll('#picture g.node g.pod[data-pod^="default/"][data-status="Running"]').length === %d`, want), 5*time.Second)
	labels := eval[string](s, `[...document.querySelectorAll('#picture g.pod[data-status="Running"]')].map(g => g.textContent).join("|")`)
	if !strings.Contains(labels, "Running") || !strings.Contains(labels, "1/1") {
		t.Errorf("pod chips do not say their state in words: %q", labels)
	}
	if n := eval[int](s, `document.querySelectorAll('#picture g.node[data-node="node01"]').length`); n != 1 {
		t.Errorf("node01 drawn %d times", n)
	}
	s.screenshot("01-pods-running")

	// A click on a pod opens its details: the scheduler's verdict, events, YAML.
	s.do(chromedp.Click(chromedp.CSS(`#picture g.pod[data-pod^="default/"][data-status="Running"] .chip`)))
	s.waitFor("the pod's details", `!document.getElementById("details").hidden && document.getElementById("details-body").textContent.includes("Events")`, 10*time.Second)
	det := eval[string](s, `document.getElementById("details").textContent`)
	if !strings.Contains(det, "nodeName: node01") || !strings.Contains(det, "Scheduler") {
		t.Errorf("pod details:\n%s", det)
	}
	if strings.Contains(det, "Scheduled on node01") {
		t.Log("the scheduler's verdict per node is shown")
	} else if !strings.Contains(det, "assigned") && !strings.Contains(det, "Successfully") {
		t.Logf("no scheduler verdict in the details (core exposes no Cluster.Scheduler() yet?):\n%.400s", det)
	}
	if eval[int](s, `document.querySelectorAll("#picture g.pod.selected").length`) != 1 {
		t.Errorf("the clicked pod is not marked")
	}
	s.screenshot("01b-pod-details")
	s.do(chromedp.Click(chromedp.CSS(`#picture g.box[data-node="node01"] .head .hit`)))
	s.waitFor("the node's details", `document.getElementById("details-title").textContent.includes("node01") && document.getElementById("details-body").textContent.includes("kubelet")`, 10*time.Second)
	s.do(chromedp.Click(chromedp.CSS("#details-close")))
	s.noConsoleErrors()

	// Ctrl-C ends a watch; the terminal goes on.
	s.typeLine("kubectl get pods -w")
	s.waitFor("the watch to print", `window.__kubeplayGo.busy() && window.kubeplay._terminalText().trimEnd().endsWith("kubectl get pods -w") === false`, 10*time.Second)
	time.Sleep(2500 * time.Millisecond)
	if !eval[bool](s, `window.__kubeplayGo.busy()`) {
		t.Errorf("kubectl get -w ended by itself:\n%s", s.terminal())
	}
	s.do(keys("c", 2))
	s.waitFor("Ctrl-C to end the watch", `!window.__kubeplayGo.busy()`, 10*time.Second)
	out = s.command("echo after-$((40+2))", 10*time.Second)
	if !strings.Contains(out, "after-42") {
		t.Errorf("after Ctrl-C:\n%s", out)
	}
	if !strings.Contains(s.terminal(), "^C") {
		t.Errorf("no ^C shown")
	}
	s.screenshot("02-watch-interrupted")

	// History: the up arrow brings back the last line.
	s.do(chromedp.Focus(chromedp.CSS(".xterm-helper-textarea")), keys(kb.ArrowUp+"\r", 0)) // ArrowUp
	s.waitFor("the recalled line to run", `window.kubeplay._terminalText().split("after-42").length >= 3`, 10*time.Second)

	// window.kubeplay: run, fetch, advance.
	if got := eval[string](s, `window.kubeplay.run("kubectl get deployment web")`); !strings.Contains(got, "web") || !strings.Contains(got, "READY") {
		t.Errorf("kubeplay.run: %q", got)
	}
	if n := eval[int](s, `window.kubeplay.fetch("/api/v1/namespaces/default/pods").then(r => r.json()).then(j => j.items.length)`); n < 2 {
		t.Errorf("kubeplay.fetch listed %d pods", n)
	}
	status := eval[int](s, `window.kubeplay.fetch("/api/v1/namespaces/default/configmaps", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({apiVersion: "v1", kind: "ConfigMap", metadata: {name: "from-fetch"}, data: {a: "1"}})}).then(r => r.status)`)
	if status != 201 {
		t.Errorf("POST through kubeplay.fetch: status %d", status)
	}
	// A miss answers as the API server does: a Response with its status
	// line, JSON content type and a Status body; a Request object works too.
	miss := eval[string](s, `window.kubeplay.fetch(new Request("/api/v1/namespaces/default/configmaps/nope")).then(async (r) =>
		[r.status, r.statusText, r.headers.get("content-type"), (await r.json()).reason].join(" "))`)
	if miss != "404 Not Found application/json NotFound" {
		t.Errorf("kubeplay.fetch of a missing object: %q", miss)
	}
	if got := eval[string](s, `window.kubeplay.run("kubectl get configmap from-fetch -o jsonpath={.data.a}")`); got != "1" {
		t.Errorf("the ConfigMap created through fetch: %q", got)
	}
	before := parseTime(t, eval[string](s, `document.getElementById("clock").dataset.time`))
	eval[bool](s, `window.kubeplay.advance(30).then(() => true)`)
	s.waitFor("the clock after advance(30)", fmt.Sprintf(`Date.parse(document.getElementById("clock").dataset.time) >= %d`, before.Add(30*time.Second).UnixMilli()), 5*time.Second)

	// Time controls: pause stops the clock, step moves it, speed speeds it.
	s.do(chromedp.Click(chromedp.CSS("#play")))
	s.waitFor("pause", `document.getElementById("play").dataset.state === "paused"`, 5*time.Second)
	p0 := eval[string](s, `document.getElementById("clock").dataset.time`)
	time.Sleep(1500 * time.Millisecond)
	if p1 := eval[string](s, `document.getElementById("clock").dataset.time`); p1 != p0 {
		t.Errorf("the clock moved while paused: %s → %s", p0, p1)
	}
	s.do(chromedp.Click(chromedp.CSS("#step")))
	s.waitFor("a step of 10 s", fmt.Sprintf(`Date.parse(document.getElementById("clock").dataset.time) === %d`, parseTime(t, p0).Add(10*time.Second).UnixMilli()), 5*time.Second)
	s.do(chromedp.Click(chromedp.CSS("#play")))
	eval[bool](s, `(() => { const s = document.getElementById("speed"); s.value = "30"; s.dispatchEvent(new Event("change")); return true; })()`)
	q0 := parseTime(t, eval[string](s, `document.getElementById("clock").dataset.time`))
	time.Sleep(1 * time.Second)
	if q1 := parseTime(t, eval[string](s, `document.getElementById("clock").dataset.time`)); q1.Sub(q0) < 15*time.Second {
		t.Errorf("at 30x one second moved the clock %v", q1.Sub(q0))
	}
	eval[bool](s, `(() => { const s = document.getElementById("speed"); s.value = "1"; s.dispatchEvent(new Event("change")); return true; })()`)

	// Bad input is reported, never fatal.
	s.typeLine("kubectl apply -f - <<EOF")
	s.typeLine("kind: [")
	out = s.command("EOF", 10*time.Second)
	if !strings.Contains(out, "error") {
		t.Errorf("a broken manifest gave no error:\n%s", out)
	}
	if got := eval[string](s, `window.kubeplay.run("echo alive")`); got != "alive\n" {
		t.Errorf("after bad input: %q", got)
	}
	if got := eval[string](s, `window.kubeplay.run("<b>not html</b>").then(x => document.querySelectorAll("#terminal b").length + ":" + x.length)`); !strings.HasPrefix(got, "0:") {
		t.Errorf("terminal output became markup: %s", got)
	}
	s.noConsoleErrors()

	// The YAML editor: a broken manifest gets a marker at the line the
	// engine names; a good one is applied through the terminal.
	s.do(chromedp.Click(chromedp.CSS("#tab-editor")))
	s.waitFor("the editor", `!document.getElementById("panel-editor").hidden && !!document.querySelector("#editor .cm-content")`, 5*time.Second)
	broken := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: hello\nspec:\n  replicas: -1\n  selector:\n    matchLabels:\n      app: hello\n  template:\n    metadata:\n      labels:\n        app: hello\n    spec:\n      containers:\n      - name: hello\n        image: nginx\n"
	eval[bool](s, fmt.Sprintf(`(() => { window.kubeplay._editor().setText(%q); return true; })()`, broken))
	s.do(chromedp.Click(chromedp.CSS("#apply")))
	s.waitFor("the apply output", `document.getElementById("apply-output").textContent.includes("is invalid")`, 10*time.Second)
	s.waitFor("an error marker on line 6", `(() => {
		const r = document.querySelector("#editor .cm-lintRange-error");
		if (!r) return false;
		const line = r.closest(".cm-line");
		return [...document.querySelectorAll("#editor .cm-line")].indexOf(line) === 5 && r.textContent === "replicas";
	})()`, 5*time.Second)
	s.screenshot("06-editor-error")
	syntax := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: a\n    image: nginx\n   bad: indent\n"
	eval[bool](s, fmt.Sprintf(`(() => { window.kubeplay._editor().setText(%q); return true; })()`, syntax))
	s.do(chromedp.Click(chromedp.CSS("#apply")))
	s.waitFor("the syntax error", `document.getElementById("apply-output").textContent.includes("did not find expected key")`, 10*time.Second)
	s.waitFor("a marker on line 9", `(() => {
		const r = document.querySelector("#editor .cm-lintRange-error");
		return !!r && [...document.querySelectorAll("#editor .cm-line")].indexOf(r.closest(".cm-line")) === 8;
	})()`, 5*time.Second)
	good := strings.Replace(broken, "replicas: -1", "replicas: 3", 1)
	eval[bool](s, fmt.Sprintf(`(() => { window.kubeplay._editor().setText(%q); return true; })()`, good))
	s.do(chromedp.Click(chromedp.CSS("#apply")))
	s.waitFor("the good manifest applied", `document.getElementById("apply-output").textContent.includes("deployment.apps/hello created")`, 10*time.Second)
	s.waitFor("the markers cleared", `!document.querySelector("#editor .cm-lintRange-error")`, 5*time.Second)
	s.waitFor("3 hello pods in the picture", `[...document.querySelectorAll("#picture g.pod")].filter(g => g.dataset.pod.startsWith("default/hello-")).length === 3`, 5*time.Second)
	s.screenshot("07-editor-applied")

	// The trace of the last command names the components that acted.
	s.do(chromedp.Click(chromedp.CSS("#tab-trace")))
	s.waitFor("the trace", `document.getElementById("trace-body").textContent.includes("deployment-controller")`, 10*time.Second)
	tr := eval[string](s, `document.getElementById("trace-body").innerText`)
	for _, want := range []string{"kubectl", "created", "Deployment hello", "replicaset-controller"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%.1500s", want, tr)
		}
	}
	s.screenshot("07b-trace")
	if got := eval[string](s, `window.kubeplay.run("cat hello.yaml | grep replicas")`); !strings.Contains(got, "replicas: 3") {
		t.Errorf("the editor's file in the terminal: %q", got)
	}

	s.do(chromedp.Click(chromedp.CSS("#tab-terminal")))

	// kubectl edit opens the object in the editor; Save applies it.
	s.typeLine("kubectl edit deployment hello")
	s.waitFor("kubectl edit in the editor", `!document.getElementById("panel-editor").hidden && !document.getElementById("edit-cancel").hidden && window.kubeplay._editor().text().includes("kind: Deployment")`, 15*time.Second)
	s.screenshot("07c-kubectl-edit")
	eval[bool](s, `(() => { const e = window.kubeplay._editor(); e.setText(e.text().replace(/^  annotations:\n/m, '  annotations:\n    edited: "yes"\n')); return true; })()`)
	s.do(chromedp.Click(chromedp.CSS("#apply")))
	s.waitFor("the edit applied", `window.kubeplay._terminalText().includes("deployment.apps/hello edited") && !window.__kubeplayGo.busy()`, 15*time.Second)
	if got := eval[string](s, `window.kubeplay.run("kubectl get deployment hello -o jsonpath={.metadata.annotations.edited}")`); got != "yes" {
		t.Errorf("after kubectl edit: %q", got)
	}
	if !eval[bool](s, `document.getElementById("panel-editor").hidden && window.kubeplay._editor().text().includes("replicas: 3") && !window.kubeplay._editor().text().includes("edited")`) {
		t.Errorf("the editor did not go back to the learner's manifest")
	}
	s.noConsoleErrors()

	// Looks: dark theme, tablet width, Chinese.
	s.command("kubectl get pods", 10*time.Second)
	s.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		})
		return err
	}))
	time.Sleep(300 * time.Millisecond)
	s.screenshot("03-dark")
	s.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
		return err
	}))
	s.do(chromedp.EmulateViewport(820, 1180))
	time.Sleep(300 * time.Millisecond)
	s.screenshot("04-tablet")
	s.do(chromedp.EmulateViewport(1366, 860))
	s.load("?lang=zh")
	if got := eval[string](s, `document.getElementById("tab-terminal").textContent`); got != "终端" {
		t.Errorf("Chinese pane title: %q", got)
	}
	s.command("kubectl get nodes", 10*time.Second)
	s.screenshot("05-zh")
	s.noConsoleErrors()

	// A reload finds the same cluster.
	s.waitFor("the page state saved", `!window.kubeplay._saving()`, 10*time.Second)
	s.load("?lang=en")
	if !strings.Contains(s.terminal(), "Your cluster from last time is back") {
		t.Errorf("no word of the restored cluster:\n%s", s.terminal())
	}
	if got := eval[string](s, `window.kubeplay.run("kubectl get deployments --no-headers -o custom-columns=NAME:.metadata.name")`); got != "hello\nweb\n" {
		t.Errorf("deployments after reload: %q", got)
	}
	s.waitFor("the restored pods in the picture", `[...document.querySelectorAll("#picture g.pod")].filter(g => g.dataset.pod.startsWith("default/hello-")).length === 3`, 5*time.Second)
	s.screenshot("08-restored")

	// A share link, opened in a fresh profile, brings the same cluster.
	s.do(chromedp.Click(chromedp.CSS("#share")))
	s.waitFor("the share link", `document.getElementById("share-link").value.includes("#s=")`, 10*time.Second)
	link := eval[string](s, `document.getElementById("share-link").value`)
	t.Logf("share link: %d characters", len(link))
	s.screenshot("09-share-dialog")
	s.do(chromedp.Click(chromedp.CSS("#share-close")))
	f, closeTab := s.fresh()
	f.do(chromedp.Navigate(link))
	eval[bool](f, `window.kubeplay.ready.then(() => true)`)
	f.waitFor("the prompt", `window.kubeplay._terminalText().includes("$ ")`, 10*time.Second)
	if !strings.Contains(f.terminal(), "comes from a shared link") {
		t.Errorf("no word of the shared link:\n%s", f.terminal())
	}
	if got := eval[string](f, `window.kubeplay.run("kubectl get deployments --no-headers -o custom-columns=NAME:.metadata.name")`); got != "hello\nweb\n" {
		t.Errorf("deployments from the share link: %q", got)
	}
	if h := eval[string](f, `location.hash`); h != "" {
		t.Errorf("the state stayed in the address: %.40q", h)
	}
	f.screenshot("10-from-share-link")
	closeTab()

	// A broken link is reported; the page starts a new cluster.
	f, closeTab = s.fresh()
	f.do(chromedp.Navigate(s.base + "?lang=en#s=H4sIAAAAAAAAA3N0cg4BAA"))
	eval[bool](f, `window.kubeplay.ready.then(() => true)`)
	f.waitFor("the prompt", `window.kubeplay._terminalText().includes("$ ")`, 10*time.Second)
	if !strings.Contains(f.terminal(), "could not be restored") {
		t.Errorf("a broken link was not reported:\n%s", f.terminal())
	}
	if got := eval[string](f, `window.kubeplay.run("kubectl get nodes --no-headers -o name")`); got != "node/node01\n" {
		t.Errorf("after a broken link: %q", got)
	}
	closeTab()

	// Embed mode: setup lines from the URL, no saved state, driven by its
	// parent page through postMessage.
	f, closeTab = s.fresh()
	setup := "kubectl create deployment demo --image=nginx\nsleep 10"
	frame := s.base + "?embed=1&lang=en&run=" + url.QueryEscape(setup)
	// The documentation page is served from another origin.
	docs := `<!doctype html><meta charset="utf-8"><title>docs</title><p>A page with kubeplay in it.</p>` +
		`<iframe id="f" style="width:1000px;height:560px;border:1px solid #ccc" src="` + frame + `"></iframe>` +
		`<script>window.answers={};window.ready=false;addEventListener("message",e=>{if(!e.data)return;` +
		`if(e.data.kubeplay==="ready")window.ready=true;if(e.data.kubeplay==="result")window.answers[e.data.id]=e.data;});</script>`
	dln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dsrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, docs)
	})}
	go dsrv.Serve(dln)
	defer dsrv.Close()
	f.do(chromedp.EmulateViewport(1100, 700), chromedp.Navigate("http://"+dln.Addr().String()+"/docs.html"))
	f.waitFor("the embed to be ready", `window.ready === true`, 60*time.Second)
	eval[bool](f, `(() => { document.getElementById("f").contentWindow.postMessage({kubeplay: "run", id: 7, line: "kubectl get deployment demo --no-headers -o custom-columns=R:.status.readyReplicas"}, "*"); return true; })()`)
	f.waitFor("the embed's answer", `!!window.answers[7]`, 20*time.Second)
	if got := eval[string](f, `window.answers[7].output || window.answers[7].error`); got != "1\n" {
		t.Errorf("run through postMessage: %q", got)
	}
	time.Sleep(300 * time.Millisecond)
	f.screenshot("11-embed")
	closeTab()

	// A lesson: pick one, run a step's commands from the panel, see its
	// checks pass, go on; an embed can open a lesson at a step.
	if eval[bool](s, `document.getElementById("lesson-pane").hidden`) {
		s.do(chromedp.Click(chromedp.CSS("#toggle-lessons")))
	}
	s.waitFor("the lesson list", `document.querySelectorAll("#lesson-body .lesson-item").length > 0`, 5*time.Second)
	s.screenshot("12-lessons")
	s.do(chromedp.Click(chromedp.CSS(`#lesson-body .lesson-item[data-lesson="jobs"]`)))
	s.waitFor("the lesson's first step", `document.querySelectorAll("#lesson-body .commands .run").length > 0 && document.querySelectorAll("#lesson-body .check").length > 0`, 20*time.Second)
	n := eval[int](s, `document.querySelectorAll("#lesson-body .commands .run").length`)
	for i := 0; i < n; i++ {
		s.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#lesson-body .commands li:nth-child(%d) .run`, i+1))))
		time.Sleep(300 * time.Millisecond)
		s.waitFor("the lesson command to finish", `!window.__kubeplayGo.busy()`, 30*time.Second)
	}
	s.waitFor("the step's checks to pass", `[...document.querySelectorAll("#lesson-body .check")].every(c => c.classList.contains("ok"))`, 20*time.Second)
	if !strings.Contains(s.terminal(), "job.batch/pi created") {
		t.Errorf("the lesson's commands did not run in the terminal:\n%.2000s", s.terminal())
	}
	s.screenshot("13-lesson-step")
	s.do(chromedp.Click(chromedp.CSS("#lesson-next")))
	s.waitFor("step 2", `document.querySelector("#lesson-body .lesson-progress").textContent.startsWith("Step 2")`, 10*time.Second)
	s.waitFor("the page state saved", `!window.kubeplay._saving()`, 10*time.Second)
	s.load("?lang=en")
	s.waitFor("the lesson after a reload", `!document.getElementById("lesson-pane").hidden && !!document.querySelector("#lesson-body .lesson-progress") && document.querySelector("#lesson-body .lesson-progress").textContent.startsWith("Step 2")`, 10*time.Second)
	s.do(chromedp.Click(chromedp.CSS("#lesson-body button.link")))
	s.waitFor("the lesson list again", `document.querySelectorAll("#lesson-body .lesson-item").length > 0`, 5*time.Second)

	f, closeTab = s.fresh()
	f.load("?embed=1&lang=zh&lesson=jobs&step=2")
	f.waitFor("the embedded lesson at step 2", `document.querySelector("#lesson-body .lesson-progress") && document.querySelector("#lesson-body .lesson-progress").textContent.includes("2")`, 20*time.Second)
	if got := eval[string](f, `window.kubeplay.run("kubectl get job pi -o jsonpath={.spec.completions}")`); got != "5" {
		t.Errorf("the embed's lesson cluster at step 2 lacks step 1's job: %q", got)
	}
	f.screenshot("14-embed-lesson-zh")
	closeTab()
	s.noConsoleErrors()

	// Reset starts over.
	eval[bool](s, `(() => { window.confirm = () => true; return true; })()`)
	s.do(chromedp.Click(chromedp.CSS("#reset")))
	s.waitFor("the reset", `window.kubeplay._terminalText().includes("A new cluster")`, 10*time.Second)
	if got := eval[string](s, `window.kubeplay.run("kubectl get deployments")`); !strings.Contains(got, "No resources found") {
		t.Errorf("after reset: %q", got)
	}
	s.noConsoleErrors()

	// Load times are TestPerformance's; this test records the download.
	raw, gz := fileSize(filepath.Join(s.out, "..", "kubeplay.wasm")), fileSize(filepath.Join(s.out, "..", "kubeplay.wasm.gz"))
	br := fileSize(filepath.Join(s.out, "..", "kubeplay.wasm.br"))
	metrics{"wasmBytes": raw, "wasmGzipBytes": gz, "wasmBrotliBytes": br, "shareLinkChars": len(link), "firstLoadReadyMs": first}.write(t, s.out)
	t.Logf("wasm %.1f MB raw, %.2f MB gzip, %.2f MB brotli", float64(raw)/1e6, float64(gz)/1e6, float64(br)/1e6)
	s.noConsoleErrors()
}

func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("clock time %q: %v", s, err)
	}
	return v
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}
