package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 7's targets for the page, asserted only with KUBEPLAY_PERF_STRICT=1.
// By default the suite records the figures (dist/e2e/metrics.json) and
// asserts looser ceilings that catch a regression, not a loaded machine:
// ten times the load and command targets, and 3 s for the longest task
// of the rollout (a single task rebuilding the picture, as before the
// engine yielded between work items, took 12.5 s; a redraw of 600 pods
// alone still takes 0.3-0.7 s).
const (
	targetReadyMs    = 1000
	targetLongTaskMs = 50
	targetCommandMs  = 20

	looseReadyMs    = 10 * targetReadyMs
	looseLongTaskMs = 3000
	looseCommandMs  = 10 * targetCommandMs
)

// TestPerformance measures the page as issue 7 asks: time from navigation
// to window.kubeplay.ready with where it goes, the longest main-thread task
// while a 500-pod Deployment rolls at 30x, and how fast `kubectl get pods
// -o wide` answers on a 100-pod cluster.
func TestPerformance(t *testing.T) {
	t.Run("load", func(t *testing.T) {
		s, m := setup(t), metrics{}
		cold := s.loads("static host, first visit", s.base, 5, true)
		m.load("", cold)
		if os.Getenv("KUBEPLAY_PERF_QUICK") == "1" {
			return
		}
		m.load("Warm", s.loads("static host, return visit", s.base, 5, false))
		if base := s.serveBinary(); base != "" {
			m.load("Served", s.loads("kubeplay serve, first visit", base, 5, true))
			m.load("ServedWarm", s.loads("kubeplay serve, return visit", base, 5, false))
		}
		m.write(t, s.out)
		s.ceiling("navigation to ready (median, first visit)", cold.median, targetReadyMs, looseReadyMs)
		s.noConsoleErrors()
	})
	t.Run("kubectl", func(t *testing.T) {
		s, m := setup(t), metrics{}
		s.commandLatency(m)
		m.write(t, s.out)
		s.noConsoleErrors()
	})
	t.Run("rollout", func(t *testing.T) {
		s, m := setup(t), metrics{}
		s.rollingUpdate(m)
		m.write(t, s.out)
		s.noConsoleErrors()
	})
}

func (s *suite) commandLatency(m metrics) {
	t := s.t
	cmd := s.commandTimes()
	m["kubectlGetPodsWide100Ms"] = cmd.runMs
	m["kubectlGetPodsWide100MedianMs"] = median(cmd.runMs)
	m["kubectlTypedMs"] = cmd.typedMs
	m["kubectlTypedMedianMs"] = median(cmd.typedMs)
	m["kubectlEnterToPaintMs"] = cmd.paintMs
	t.Logf("kubectl get pods -o wide, 100 pods: kubeplay.run median %.1f ms %v; typed in the terminal median %.1f ms %v; Enter to the next paint (Event Timing, 8 ms steps, 16 ms and up) %v",
		median(cmd.runMs), rounded(cmd.runMs), median(cmd.typedMs), rounded(cmd.typedMs), cmd.paintMs)
	s.ceiling("kubectl get pods -o wide typed (median)", median(cmd.typedMs), targetCommandMs, looseCommandMs)
}

func (s *suite) rollingUpdate(m metrics) {
	t := s.t
	roll := s.rollout()
	m["rollout500LongestTaskMs"] = roll.LongestTask
	m["rollout500LongTasks"] = roll.LongTasks
	m["rollout500LongestFrameGapMs"] = roll.LongestGap
	m["rollout500Frames"] = roll.Frames
	m["rollout500WallMs"] = roll.WallMs
	m["rollout500VirtualSeconds"] = roll.VirtualSeconds
	m["rollout500Redraws"] = roll.Redraws
	m["rollout500LongestRedrawMs"] = roll.LongestRedraw
	t.Logf("500-pod rolling update at 30x: longest task %.0f ms, %d tasks over 50 ms, longest gap between frames %.0f ms over %d frames; the picture redrawn %d times, the longest %.0f ms; %.1f s of wall time for %.0f s of virtual time",
		roll.LongestTask, roll.LongTasks, roll.LongestGap, roll.Frames, roll.Redraws, roll.LongestRedraw, roll.WallMs/1000, roll.VirtualSeconds)
	s.ceiling("longest task during the rolling update", roll.LongestTask, targetLongTaskMs, looseLongTaskMs)
}

// ceiling asserts a figure against its target with KUBEPLAY_PERF_STRICT=1,
// else against the loose ceiling.
func (s *suite) ceiling(what string, got, target, loose float64) {
	s.t.Helper()
	limit := target
	if os.Getenv("KUBEPLAY_PERF_STRICT") != "1" {
		limit = loose
	}
	if got > limit {
		s.t.Errorf("%s: %.1f ms, over %.0f ms (issue 7's target: %.0f ms)", what, got, limit, target)
	}
}

// loadRun is one page load: milliseconds from navigation to each kp:… mark
// (app.js and wasm/main.go set them), and how the wasm came.
type loadRun struct {
	Marks map[string]float64 `json:"marks"`
	Wasm  struct {
		Name     string  `json:"name"`
		Start    float64 `json:"start"`
		End      float64 `json:"end"`
		Encoded  float64 `json:"encoded"`
		Decoded  float64 `json:"decoded"`
		Transfer float64 `json:"transfer"`
	} `json:"wasm"`
	FCP float64 `json:"fcp"`
}

type loadSet struct {
	runs   []loadRun
	median float64 // of navigation → ready
}

const loadJS = `(() => {
	const marks = {};
	for (const e of performance.getEntriesByType("mark")) if (e.name.startsWith("kp:")) marks[e.name.slice(3)] = e.startTime;
	const w = performance.getEntriesByType("resource").find((e) => /kubeplay\.wasm/.test(e.name));
	const fcp = performance.getEntriesByName("first-contentful-paint")[0];
	return JSON.stringify({marks, fcp: fcp ? fcp.startTime : 0, wasm: w ? {name: w.name.replace(/^.*\//, ""), start: w.startTime, end: w.responseEnd,
		encoded: w.encodedBodySize, decoded: w.decodedBodySize, transfer: w.transferSize} : {}});
})()`

// phases names the stretches between the start-up marks, in order.
var phases = []struct{ name, from, to string }{
	{"page", "", "script"},          // the document, app.js and wasm_exec.js
	{"wasm", "script", "compiled"},  // fetch, unpack, compile, instantiate
	{"go init", "compiled", "main"}, // Go's runtime and package initialisers
	{"cluster", "main", "cluster"},  // the default cluster bootstrapped
	{"ui", "cluster", "ui"},         // time controls and picture drawn
	{"api", "ui", "engine"},         // in-page API and bridge set up
	{"restore", "engine", "restored"},
	{"terminal", "restored", "ready"},
	{"paint", "ready", "painted"}, // the first frame after ready
}

// loads opens the page n times and reports where the time went. first
// opens each in a fresh profile (nothing cached); otherwise the page is
// visited once and then reloaded n times in that profile.
func (s *suite) loads(what, base string, n int, first bool) loadSet {
	s.t.Helper()
	var set loadSet
	var ready []float64
	tab, closeTab := s.fresh()
	if !first {
		tab.visit(base)
	}
	for i := 0; i < n; i++ {
		if first && i > 0 {
			closeTab()
			tab, closeTab = s.fresh()
		}
		r := tab.visit(base)
		set.runs = append(set.runs, r)
		ready = append(ready, r.Marks["ready"])
	}
	closeTab()
	set.median = median(ready)
	// The breakdown of the run whose ready time is the median.
	mid := set.runs[0]
	for _, r := range set.runs {
		if r.Marks["ready"] == set.median {
			mid = r
		}
	}
	var parts []string
	for _, p := range phases {
		from := 0.0
		if p.from != "" {
			from = mid.Marks[p.from]
		}
		parts = append(parts, fmt.Sprintf("%s %.0f", p.name, mid.Marks[p.to]-from))
	}
	s.t.Logf("%s: navigation to ready median %.0f ms of %v; the median run (ms): %s; %s %.1f MB in %.0f ms (%.0f to %.0f)",
		what, set.median, rounded(ready), strings.Join(parts, ", "), mid.Wasm.Name, mid.Wasm.Transfer/1e6,
		mid.Wasm.End-mid.Wasm.Start, mid.Wasm.Start, mid.Wasm.End)
	return set
}

// visit navigates to the page, waits for its first frame after ready and
// reads the start-up marks.
func (s *suite) visit(base string) loadRun {
	s.t.Helper()
	s.do(chromedp.Navigate(base + "?lang=en"))
	s.waitFor("the page's first frame after ready", `performance.getEntriesByName("kp:painted").length > 0`, 60*time.Second)
	var r loadRun
	if err := json.Unmarshal([]byte(eval[string](s, loadJS)), &r); err != nil {
		s.t.Fatal(err)
	}
	return r
}

// serveBinary starts `kubeplay serve` (KUBEPLAY_BIN, else ../bin/kubeplay
// when built) on the built site, the server that sends precompressed
// files; it returns its address, or "" without a binary.
func (s *suite) serveBinary() string {
	bin := os.Getenv("KUBEPLAY_BIN")
	if bin == "" {
		bin = "../bin/kubeplay"
	}
	if _, err := os.Stat(bin); err != nil {
		s.t.Logf("no %s: the page is not measured behind kubeplay serve", bin)
		return ""
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--dir", filepath.Dir(s.out))
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		s.t.Fatalf("kubeplay serve: %v", err)
	}
	// "kubeplay: serving http://127.0.0.1:PORT (site from …"
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		s.t.Fatalf("kubeplay serve said %q", line)
	}
	return f[2] + "/"
}

type commandTimes struct{ runMs, typedMs, paintMs []float64 }

// commandTimes builds a 100-pod Deployment on the default node and times
// `kubectl get pods -o wide`: 20 times through kubeplay.run and 10 times
// typed into the terminal (key presses to the prompt after the output, as
// the terminal measures it). paintMs are the Enter key presses' durations
// as Event Timing reports them: from the key to the frame painted after
// its handlers, which the browser reports only from 16 ms up.
func (s *suite) commandTimes() commandTimes {
	s.t.Helper()
	tab, closeTab := s.fresh()
	defer closeTab()
	tab.load("?lang=en")
	eval[string](tab, `window.kubeplay.run("kubectl create deployment many --image=nginx --replicas=100")`)
	out := evalWithin[string](tab, `window.kubeplay.run("kubectl rollout status deployment/many --timeout=10m")`, 5*time.Minute)
	if !strings.Contains(out, "successfully rolled out") {
		s.t.Fatalf("100 pods did not roll out:\n%s", out)
	}
	var ct commandTimes
	ct.runMs = eval[[]float64](tab, `(async () => {
		const times = [];
		for (let i = 0; i < 20; i++) {
			const t0 = performance.now();
			const out = await window.kubeplay.run("kubectl get pods -o wide");
			times.push(performance.now() - t0);
			if (out.split("\n").filter((l) => l.includes(" Running ")).length !== 100) throw new Error("not 100 running pods:\n" + out);
		}
		return times;
	})()`)
	// The terminal measures each command it runs (kp:command).
	const typed = `performance.getEntriesByName("kp:command").filter((e) => e.detail === "kubectl get pods -o wide")`
	eval[any](tab, `(() => {
		window.__enterPaint = [];
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) if (e.name === "keydown" && e.target && e.target.classList.contains("xterm-helper-textarea")) window.__enterPaint.push(e);
		}).observe({ type: "event", durationThreshold: 16 });
		return null;
	})()`)
	for i := 0; i < 10; i++ {
		tab.typeLine("kubectl get pods -o wide")
		tab.waitFor("the typed command's answer", fmt.Sprintf(`%s.length > %d`, typed, i), 20*time.Second)
	}
	ct.typedMs = eval[[]float64](tab, typed+`.map((e) => e.duration)`)
	// The Enter presses: each command's key whose event lasted longest
	// (the observer hears of the last ones a few frames later).
	ct.paintMs = eval[[]float64](tab, `new Promise((r) => setTimeout(r, 300)).then(() => {
		const cmds = `+typed+`;
		return cmds.map((c) => Math.max(0, ...window.__enterPaint.filter((e) => e.startTime <= c.startTime + 1 && e.startTime + e.duration >= c.startTime).map((e) => e.duration)));
	})`)
	return ct
}

// rollStats is what the page records while a rolling update runs.
type rollStats struct {
	LongestTask    float64 `json:"longestTask"`
	LongTasks      int     `json:"longTasks"`
	LongestGap     float64 `json:"longestGap"`
	Frames         int     `json:"frames"`
	WallMs         float64 `json:"wallMs"`
	Redraws        int     `json:"redraws"`
	LongestRedraw  float64 `json:"longestRedraw"`
	VirtualSeconds float64 `json:"virtualSeconds"`
}

const nodesYAML = `kubectl apply -f - <<EOF
%s
EOF`

// rollout runs a 500-replica Deployment on ten nodes, sets the
// page's speed to 30x, changes the image and records, until every replica
// is updated and available, the main thread's long tasks
// (PerformanceObserver) and the gaps between animation frames.
func (s *suite) rollout() rollStats {
	s.t.Helper()
	tab, closeTab := s.fresh()
	defer closeTab()
	tab.load("?lang=en")
	var nodes []string
	for i := 2; i <= 10; i++ {
		nodes = append(nodes, fmt.Sprintf("apiVersion: v1\nkind: Node\nmetadata:\n  name: node%02d\n  labels:\n    kubernetes.io/hostname: node%02d", i, i))
	}
	script := fmt.Sprintf(nodesYAML, strings.Join(nodes, "\n---\n"))
	eval[string](tab, fmt.Sprintf(`window.kubeplay.run(%q)`, script))
	eval[string](tab, `window.kubeplay.run("kubectl create deployment web --image=nginx:1.26 --replicas=500")`)
	out := evalWithin[string](tab, `window.kubeplay.run("kubectl rollout status deployment/web --timeout=30m")`, 10*time.Minute)
	if !strings.Contains(out, "successfully rolled out") {
		s.t.Fatalf("500 pods did not roll out:\n%.2000s", out)
	}
	// Let the page draw the 500 pods before measuring.
	tab.waitFor("500 pods in the picture", `document.querySelectorAll('#picture g.pod[data-pod^="default/web-"]').length === 500`, 60*time.Second)
	eval[bool](tab, `(() => {
		const sel = document.getElementById("speed");
		sel.value = "30";
		sel.dispatchEvent(new Event("change"));
		const R = window.__roll = {longestTask: 0, longTasks: 0, longestGap: 0, frames: 0, redraws: 0, longestRedraw: 0, done: false};
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) {
				if (e.name !== "kp:picture" || R.done) continue;
				R.redraws++;
				R.longestRedraw = Math.max(R.longestRedraw, e.duration);
			}
		}).observe({type: "measure"});
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) {
				R.longTasks++;
				R.longestTask = Math.max(R.longestTask, e.duration);
			}
		}).observe({type: "longtask"});
		let last = performance.now();
		const frame = (now) => {
			R.longestGap = Math.max(R.longestGap, now - last);
			R.frames++;
			last = now;
			if (!R.done) requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);
		return true;
	})()`)
	t0 := eval[string](tab, `document.getElementById("clock").dataset.time`)
	start := time.Now()
	evalWithin[string](tab, `window.kubeplay.run("kubectl set image deployment/web nginx=nginx:1.27")`, 5*time.Minute)
	tab.waitFor("the rolling update to finish", `window.kubeplay.fetch("/apis/apps/v1/namespaces/default/deployments/web").then((r) => r.json()).then((d) =>
		d.status.updatedReplicas === 500 && d.status.availableReplicas === 500 && d.status.replicas === 500 && d.status.observedGeneration === d.metadata.generation)`, 10*time.Minute)
	wall := time.Since(start)
	var r rollStats
	if err := json.Unmarshal([]byte(eval[string](tab, `(() => { window.__roll.done = true; return JSON.stringify(window.__roll); })()`)), &r); err != nil {
		s.t.Fatal(err)
	}
	r.WallMs = float64(wall.Milliseconds())
	t1 := eval[string](tab, `document.getElementById("clock").dataset.time`)
	r.VirtualSeconds = parseTime(s.t, t1).Sub(parseTime(s.t, t0)).Seconds()
	tab.screenshot("perf-rollout-500")
	return r
}

// metrics are the figures of a run, merged into dist/e2e/metrics.json
// (TestPlayground writes its own keys there too).
type metrics map[string]any

func (m metrics) load(prefix string, set loadSet) {
	var ready []float64
	for _, r := range set.runs {
		ready = append(ready, r.Marks["ready"])
	}
	key := "ready" + prefix
	m[key+"MsMedian"] = set.median
	m[key+"Ms"] = ready
	m[key+"Runs"] = set.runs
}

func (m metrics) write(t *testing.T, dir string) {
	p := filepath.Join(dir, "metrics.json")
	all := map[string]any{}
	if b, err := os.ReadFile(p); err == nil {
		json.Unmarshal(b, &all)
	}
	for k, v := range m {
		all[k] = v
	}
	b, _ := json.MarshalIndent(all, "", "  ")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Errorf("writing %s: %v", p, err)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

func rounded(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(int(x*10+0.5)) / 10
	}
	return out
}
