package e2e

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kubeplay/core/lesson"
)

// lessonsDir holds the lesson folders, relative to this package.
const lessonsDir = "../lessons"

// lessonNames lists the lesson folders (those with a lesson.yaml) as they
// are when the test runs, so a lesson added later is followed too.
func lessonNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(lessonsDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(lessonsDir, e.Name(), "lesson.yaml")); err == nil {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatalf("no lessons in %s", lessonsDir)
	}
	return names
}

// lessonJS sets up window.__e2e in a tab, to follow a lesson through the
// page's own controls and engine API (window.__kubeplayGo):
//
//   - started/finished count the terminal's commands (its paced execs);
//   - renders counts the step's check list drawn with results (a drawing
//     before any result, all "unknown", is not counted);
//   - target(sel) scrolls an element into view and gives the point a
//     mouse click lands on it;
//   - drive(sleep, renders, budget) follows the command just clicked to its
//     end, then waits until the checks were drawn renders times.
//
// drive lets virtual time pass only while the command waits for it, and
// only as far as it waits. The engine runs in its worker, which reports
// busy() each time it hands its thread back: when the page sees it held
// (busy()) by a command that has started and not finished, that command is
// parked waiting for virtual time (the host's pacer; with the clock paused
// nothing else moves time). drive then
// advances the clock: by the whole interval for `sleep N`, else by one
// second, the step kubectl's own waits take. currentLesson() is served
// between two steps of the waiting command, so once it answers the command
// has used that second and is either done or waiting again.
const lessonJS = `(() => {
	if (window.__e2e) return true;
	const g = window.__kubeplayGo;
	const E = window.__e2e = {started: 0, finished: 0, renders: 0};
	const exec = g.exec;
	g.exec = function (...args) {
		const p = exec.apply(this, args);
		if (args[1]) {
			E.started++;
			Promise.resolve(p).then(() => E.finished++, () => E.finished++);
		}
		return p;
	};
	new MutationObserver((recs) => {
		for (const r of recs) {
			const ul = r.target, li = r.addedNodes[0];
			if (ul instanceof HTMLUListElement && ul.classList.contains("checks") && ul.isConnected &&
				r.previousSibling === null && li instanceof HTMLLIElement && !li.classList.contains("unknown")) E.renders++;
		}
	}).observe(document.getElementById("lesson-body"), {childList: true, subtree: true});
	E.target = (sel) => {
		const el = document.querySelector(sel);
		if (!el) return null;
		el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		return hit && (hit === el || el.contains(hit)) ? [x, y] : null;
	};
	E.mark = () => { E.cmd = {mark: E.started, given: 0}; return true; };
	E.drive = async (sleep, renders, budget) => {
		const c = E.cmd, end = performance.now() + budget;
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		for (;;) {
			const started = E.started > c.mark, done = started && E.finished >= E.started;
			if (done && !g.busy() && E.renders >= renders) return {state: "done", advanced: c.given};
			if (performance.now() > end) {
				const state = !started ? "not started" : !done ? "still running after " + c.given + "s of virtual time" : "checks not drawn";
				return {state, advanced: c.given};
			}
			if (started && !done && g.busy()) {
				const d = sleep > c.given ? sleep - c.given : 1;
				await g.advance(d);
				c.given += d;
				await g.currentLesson();
				continue;
			}
			await pause(5);
		}
	};
	return true;
})()`

var sleepCmd = regexp.MustCompile(`^sleep\s+(\d+(?:\.\d+)?)([smhd]?)$`)

// sleepSeconds is how long a plain `sleep N` waits, else 0.
func sleepSeconds(cmd string) float64 {
	m := sleepCmd.FindStringSubmatch(strings.TrimSpace(cmd))
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	switch m[2] {
	case "m":
		v *= 60
	case "h":
		v *= 3600
	case "d":
		v *= 86400
	}
	return v
}

// TestLessons follows every lesson in the page as a learner does: open the
// page, pause the clock, pick the lesson in the lesson panel; in each step
// click its Run buttons in turn (letting virtual time pass where a command
// waits), see every check of the step pass, click Next.
func TestLessons(t *testing.T) {
	s := setup(t)
	for _, name := range lessonNames(t) {
		t.Run(name, func(t *testing.T) {
			l, err := lesson.Load(os.DirFS(lessonsDir), name)
			if err != nil {
				t.Fatal(err)
			}
			ls := *s
			ls.t = t
			f, closeTab := ls.fresh()
			defer closeTab()
			followLesson(f, l)
			f.noConsoleErrors()
		})
	}
}

// The lessons come beside the engine (lessons.bin): a page whose host
// does not have them still starts, and its lesson panel says why it lists
// none.
func TestLessonsWithoutTheirBundle(t *testing.T) {
	s := setup(t)
	dist := os.Getenv("KUBEPLAY_DIST")
	if dist == "" {
		dist = "../dist"
	}
	files := http.FileServer(http.Dir(dist))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/lessons.bin") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	f, closeTab := s.fresh()
	defer closeTab()
	f.base = "http://" + ln.Addr().String() + "/"
	f.load("?lang=en")
	if eval[bool](f, `document.getElementById("lesson-pane").hidden`) {
		f.do(chromedp.Click(chromedp.CSS("#toggle-lessons")))
	}
	f.waitFor("the lesson panel's error", `!!document.querySelector("#lesson-body .lesson-error")`, 10*time.Second)
	const want = "the lessons did not load: lessons.bin.gz: 404 Not Found"
	if got := eval[string](f, `document.querySelector("#lesson-body .lesson-error").textContent`); got != want {
		t.Fatalf("the lesson panel says %q, want %q", got, want)
	}
	if n := eval[int](f, `document.querySelectorAll("#lesson-body .lesson-item").length`); n != 0 {
		t.Fatalf("the panel lists %d lessons", n)
	}
}

type lessonRun struct {
	s       *suite
	l       *lesson.Lesson
	cmds    int
	virtual time.Duration // virtual time the commands waited
}

func followLesson(s *suite, l *lesson.Lesson) {
	t := s.t
	start := time.Now()
	s.load("?lang=en")
	ready := time.Since(start)
	r := &lessonRun{s: s, l: l}
	eval[bool](s, lessonJS)
	// Paused, the clock moves only where a command waits (drive).
	if eval[string](s, `document.getElementById("play").dataset.state`) == "playing" {
		r.click("#play")
	}
	r.await("the clock to pause", `document.getElementById("play").dataset.state === "paused"`, 5*time.Second)
	if eval[bool](s, `document.getElementById("lesson-pane").hidden`) {
		r.click("#toggle-lessons")
	}
	r.await("the lesson list", `document.querySelectorAll("#lesson-body .lesson-item").length > 0`, 10*time.Second)
	item := fmt.Sprintf(`#lesson-body .lesson-item[data-lesson=%q]`, l.Name)
	if !eval[bool](s, fmt.Sprintf(`!!document.querySelector(%q)`, item)) {
		t.Fatalf("lesson %s is not in the page's lesson list (is dist older than lessons/%s? ./build.sh build)", l.Name, l.Name)
	}
	eval[bool](s, `window.__e2e.renders = 0, true`)
	r.click(item)
	// The lesson's cluster starts on a whole minute, as natively
	// (sim.DefaultStart): at other seconds minute schedules fire at other
	// points of the lesson, and the cronjobs lesson's checks failed for one
	// start second in six.
	r.await(l.Name+" step 1", `(document.querySelector("#lesson-body .lesson-progress") || {}).textContent === "Step 1 of `+strconv.Itoa(len(l.Steps))+`"`, 30*time.Second)
	created := eval[string](s, `window.kubeplay.fetch("/api/v1/namespaces/default").then(r => r.json()).then(j => j.metadata.creationTimestamp)`)
	if at, err := time.Parse(time.RFC3339, created); err != nil || at.Second() != 0 {
		t.Errorf("lesson %s: its cluster started at %q, not on a whole minute as `kubeplay lesson` starts (%v)", l.Name, created, err)
	}
	for i := range l.Steps {
		r.step(i + 1)
		eval[bool](s, `window.__e2e.renders = 0, true`)
		r.click("#lesson-next") // Next, or Finish on the last step
	}
	r.await("the lesson list after Finish", `document.querySelectorAll("#lesson-body .lesson-item").length > 0`, 10*time.Second)
	t.Logf("%d steps, %d commands, %v of virtual time fast-forwarded; page ready after %v, lesson followed in %v",
		len(l.Steps), r.cmds, r.virtual, ready.Round(time.Millisecond), (time.Since(start) - ready).Round(time.Millisecond))
}

// step runs step n (1-based), which the panel shows.
func (r *lessonRun) step(n int) {
	s, l, t := r.s, r.l, r.s.t
	step := l.Steps[n-1]
	r.await(fmt.Sprintf("%s step %d", l.Name, n), fmt.Sprintf(`(document.querySelector("#lesson-body .lesson-progress") || {}).textContent === %q`,
		fmt.Sprintf("Step %d of %d", n, len(l.Steps))), 30*time.Second)
	cmds := eval[[]string](s, `[...document.querySelectorAll("#lesson-body .commands li code")].map(c => c.textContent)`)
	if strings.Join(cmds, "\n") != strings.Join(step.Commands, "\n") {
		t.Fatalf("lesson %s step %d: the page's commands differ from lessons/%s/lesson.yaml (rebuild dist):\npage: %q\nfile: %q", l.Name, n, l.Name, cmds, step.Commands)
	}
	checks := eval[int](s, `document.querySelectorAll("#lesson-body .checks .check").length`)
	if checks != len(step.Checks) {
		t.Fatalf("lesson %s step %d: the page shows %d checks, lessons/%s/lesson.yaml has %d (rebuild dist)", l.Name, n, checks, l.Name, len(step.Checks))
	}
	for k, cmd := range cmds {
		// The panel checks the step when it opens and after each command.
		renders := 0
		if checks > 0 {
			renders = k + 2
		}
		eval[bool](s, `window.__e2e.mark()`)
		r.click(fmt.Sprintf(`#lesson-body .commands li:nth-child(%d) .run`, k+1))
		r.drive(n, cmd, renders)
		r.cmds++
	}
	if checks > 0 {
		if len(cmds) == 0 {
			r.await(fmt.Sprintf("%s step %d: the checks", l.Name, n), `window.__e2e.renders >= 1`, 30*time.Second)
		}
		r.waitChecks(n)
	}
}

// click clicks an element with the mouse, as a learner does, once it is
// there to be clicked.
func (r *lessonRun) click(sel string) {
	r.s.t.Helper()
	r.await("something to click at "+sel, fmt.Sprintf(`!!window.__e2e.target(%q)`, sel), 10*time.Second)
	at := eval[[]float64](r.s, fmt.Sprintf(`window.__e2e.target(%q)`, sel))
	r.s.do(chromedp.MouseClickXY(at[0], at[1]))
}

// drive follows a command clicked in step n to its end (see lessonJS).
func (r *lessonRun) drive(n int, cmd string, renders int) {
	s := r.s
	type result struct {
		State    string  `json:"state"`
		Advanced float64 `json:"advanced"`
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		res := eval[result](s, fmt.Sprintf(`window.__e2e.drive(%v, %d, 20000)`, sleepSeconds(cmd), renders))
		if res.State == "done" {
			r.virtual += time.Duration(res.Advanced * float64(time.Second))
			return
		}
		if time.Now().After(deadline) {
			shot := fmt.Sprintf("lesson-%s-step%d", r.l.Name, n)
			s.screenshot(shot)
			s.t.Fatalf("lesson %s step %d: %q: %s (screenshot %s.png); the terminal ends:\n%s", r.l.Name, n, cmd, res.State, shot, tail(s.terminal(), 30))
		}
	}
}

// poll reports whether a JavaScript condition holds within timeout,
// polling it in the page (a round trip per poll costs more than the wait).
func (r *lessonRun) poll(cond string, timeout time.Duration) bool {
	r.s.t.Helper()
	return eval[bool](r.s, fmt.Sprintf(`new Promise((done) => {
		const end = performance.now() + %d;
		const f = () => {
			let ok = false;
			try { ok = !!(%s); } catch (e) {}
			if (ok || performance.now() > end) done(ok); else setTimeout(f, 10);
		};
		f();
	})`, timeout.Milliseconds(), cond))
}

// await waits for a JavaScript condition; on a timeout waitFor reports.
func (r *lessonRun) await(what, cond string, timeout time.Duration) {
	r.s.t.Helper()
	if !r.poll(cond, timeout) {
		r.s.waitFor(what, cond, 100*time.Millisecond)
	}
}

// waitChecks waits, a bounded time, for every check of step n to show as
// passed; else it fails naming the lesson, the step and the checks.
func (r *lessonRun) waitChecks(n int) {
	s, l := r.s, r.l
	const all = `[...document.querySelectorAll("#lesson-body .checks .check")].every(c => c.classList.contains("ok"))`
	if r.poll(all, 10*time.Second) {
		return
	}
	shot := fmt.Sprintf("lesson-%s-step%d", l.Name, n)
	s.screenshot(shot)
	states := eval[[]string](s, `[...document.querySelectorAll("#lesson-body .checks .check")].map(c => c.className)`)
	var b strings.Builder
	for i, c := range l.Steps[n-1].Checks {
		state := "missing"
		if i < len(states) {
			state = states[i]
		}
		if strings.Contains(state, "ok") {
			continue
		}
		got := eval[string](s, fmt.Sprintf(`window.kubeplay.run(%q)`, c.Run))
		want := "expect " + strconv.Quote(c.Expect)
		if c.Match != "" {
			want = "match /" + c.Match + "/"
		}
		fmt.Fprintf(&b, "\n  check %q (%s): $ %s\n    want %s\n    got  %q", c.Text.En, state, c.Run, want, strings.TrimSpace(got))
	}
	s.t.Fatalf("lesson %s step %d (%s): checks not passed within 10s (screenshot %s.png):%s\nthe terminal ends:\n%s",
		l.Name, n, l.Steps[n-1].Title.En, shot, b.String(), tail(s.terminal(), 30))
}

// tail is the last n lines of text.
func tail(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
