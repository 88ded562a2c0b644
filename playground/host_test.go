package playground

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kubeplay/core/sim"
)

// fakeWall is a wall clock that moves only when the host sleeps on it.
type fakeWall struct {
	mu sync.Mutex
	t  time.Time
	// onSleep runs after each sleep (a test's "user" acts there).
	onSleep func(slept time.Duration)
	slept   time.Duration
}

func (f *fakeWall) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeWall) sleep(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.slept += d
	s := f.slept
	f.mu.Unlock()
	if f.onSleep != nil {
		f.onSleep(s)
	}
}

func newTestHost(t *testing.T) (*Host, *fakeWall) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1})
	c.AddDefaultNode()
	w := &fakeWall{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	h := &Host{Wall: w.now, SleepReal: w.sleep, playing: true, speed: 1}
	h.attach(c)
	t.Cleanup(c.Close)
	return h, w
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

func TestPodsRunAndPictureShowsThem(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	h.Run("kubectl create deployment web --image=nginx --replicas=2", &out, false)
	if !strings.Contains(out.String(), "deployment.apps/web created") {
		t.Fatalf("create: %q", out.String())
	}
	h.Run(pinnedPod, &out, false)
	out.Reset()
	h.Run("sleep 10; kubectl get pods", &out, false)
	want := 3
	if !scheduled(h) {
		t.Log("no scheduler in the engine yet: only the pod with spec.nodeName runs")
		want = 1
	}
	if got := strings.Count(out.String(), "Running"); got != want {
		t.Fatalf("%d pods Running after sleep 10, want %d:\n%s", got, want, out.String())
	}
	p := Snapshot(h.C)
	mine := func(ps []PodView) (out []PodView) {
		for _, pod := range ps {
			if pod.Namespace == "default" {
				out = append(out, pod)
			}
		}
		return out
	}
	if len(p.Nodes) != 1 || len(mine(p.Nodes[0].Pods)) != want || len(mine(p.Unscheduled)) != 3-want {
		t.Fatalf("picture: %+v", p)
	}
	for _, pod := range mine(p.Nodes[0].Pods) {
		if pod.Class != "ok" || pod.Status != "Running" || pod.Ready != "1/1" {
			t.Errorf("pod %+v", pod)
		}
	}
	svg := p.SVG(Labels{Unscheduled: "Unscheduled", NoNodes: "No nodes", Pods: "pods"})
	n := 0
	walk(svg, func(e *El) {
		if e.Attr("data-status") == "Running" && strings.HasPrefix(e.Attr("data-pod"), "default/") {
			n++
		}
	})
	if n != want {
		t.Errorf("svg has %d Running pods", n)
	}
}

// scheduled reports whether a scheduler placed any pod (the scheduler
// comes with its own issue; until then only pinned pods run).
func scheduled(h *Host) bool {
	var out bytes.Buffer
	h.Run("kubectl get events -A", &out, false)
	return strings.Contains(out.String(), "Scheduled ")
}

func walk(e *El, f func(*El)) {
	f(e)
	for _, k := range e.Kids {
		walk(k, f)
	}
}

func TestPacedSleepFollowsWallClockAndSpeed(t *testing.T) {
	h, w := newTestHost(t)
	start := h.C.Now()
	var out bytes.Buffer
	h.Run("sleep 10", &out, true)
	if got := h.C.Now().Sub(start); got != 10*time.Second {
		t.Fatalf("virtual time passed %v", got)
	}
	if w.slept < 9*time.Second || w.slept > 11*time.Second {
		t.Fatalf("wall time slept %v at 1x", w.slept)
	}
	w.slept = 0
	h.SetSpeed(5)
	h.Run("sleep 10", &out, true)
	if w.slept < 1900*time.Millisecond || w.slept > 2100*time.Millisecond {
		t.Fatalf("wall time slept %v at 5x", w.slept)
	}
}

func TestInterruptEndsWatchAndLine(t *testing.T) {
	h, w := newTestHost(t)
	var out bytes.Buffer
	h.Run("kubectl create deployment web --image=nginx", &out, false)
	out.Reset()
	w.onSleep = func(slept time.Duration) {
		if slept >= 3*time.Second {
			h.Interrupt()
		}
	}
	start := h.C.Now()
	code := h.Run("kubectl get pods -w; echo after", &out, true)
	if code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	if strings.Contains(out.String(), "after") {
		t.Errorf("the rest of the line ran after Ctrl-C:\n%s", out.String())
	}
	if d := h.C.Now().Sub(start); d > 5*time.Second {
		t.Errorf("watch went on for %v of virtual time", d)
	}
	if !strings.Contains(out.String(), "web-") {
		t.Errorf("watch printed nothing:\n%s", out.String())
	}
	// The next line runs normally.
	w.onSleep = nil
	out.Reset()
	if code := h.Run("echo ok", &out, true); code != 0 || out.String() != "ok\n" {
		t.Errorf("after interrupt: %d %q", code, out.String())
	}
}

func TestInterruptSleep(t *testing.T) {
	h, w := newTestHost(t)
	w.onSleep = func(slept time.Duration) {
		if slept >= 2*time.Second {
			h.Interrupt()
		}
	}
	start := h.C.Now()
	var out bytes.Buffer
	if code := h.Run("sleep 600", &out, true); code != 130 {
		t.Errorf("code %d", code)
	}
	if d := h.C.Now().Sub(start); d > 4*time.Second {
		t.Errorf("sleep went on for %v", d)
	}
}

func TestPausedClockHoldsWaitsUntilStep(t *testing.T) {
	h, w := newTestHost(t)
	h.SetPlaying(false)
	w.onSleep = func(slept time.Duration) {
		if slept >= time.Second && slept < time.Second+60*time.Millisecond {
			h.ctl.Lock()
			h.allowed = h.allowed.Add(5 * time.Second) // the step button
			h.ctl.Unlock()
		}
		if slept > 10*time.Second {
			h.Interrupt()
		}
	}
	start := h.C.Now()
	var out bytes.Buffer
	h.Run("sleep 5", &out, true)
	if d := h.C.Now().Sub(start); d != 5*time.Second {
		t.Errorf("virtual %v", d)
	}
	if w.slept > 2*time.Second {
		t.Errorf("a step did not release the paused sleep (slept %v)", w.slept)
	}
}

func TestTickFollowsWall(t *testing.T) {
	h, w := newTestHost(t)
	start := h.C.Now()
	w.sleep(3 * time.Second)
	h.Tick()
	if d := h.C.Now().Sub(start); d != 3*time.Second {
		t.Errorf("tick advanced %v", d)
	}
	h.SetPlaying(false)
	w.sleep(3 * time.Second)
	h.Tick()
	if d := h.C.Now().Sub(start); d != 3*time.Second {
		t.Errorf("paused tick advanced to %v", d)
	}
	h.Advance(10 * time.Second)
	if d := h.C.Now().Sub(start); d != 13*time.Second {
		t.Errorf("advance: %v", d)
	}
}

func TestBadInputDoesNotHurt(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	for _, line := range []string{"sleep -1", "sleep abc", "kubectl apply -f -  <<EOF\nkind: [\nEOF", "))((", "kubectl get nosuchthing", "sleep"} {
		out.Reset()
		h.Run(line, &out, true)
		if out.Len() == 0 {
			t.Errorf("%q printed nothing", line)
		}
	}
}

func TestSaveAndLoad(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	h.Run(pinnedPod+"\nmkdir -p dir && echo hello > dir/f.txt && cd dir", &out, false)
	h.Run("sleep 5", &out, false)
	data, err := h.Save()
	if err != nil {
		t.Fatal(err)
	}
	at := h.Now()

	h2, _ := newTestHost(t)
	if err := h2.Load(data); err != nil {
		t.Fatal(err)
	}
	if !h2.Now().Equal(at) {
		t.Errorf("restored clock %v, want %v", h2.Now(), at)
	}
	out.Reset()
	h2.Run("kubectl get pod pinned --no-headers; cat f.txt; pwd", &out, false)
	if !strings.Contains(out.String(), "Running") || !strings.Contains(out.String(), "hello\n/root/dir\n") {
		t.Errorf("after restore:\n%s", out.String())
	}
	for _, bad := range []string{"", "{", `{"version":2}`, `{"version":1,"cluster":{"version":1,"objects":[{"kind":"Nope"}]}}`,
		`{"version":1,"cluster":{},"files":{"/etc/passwd":"x"}}`, `{"version":1,"cluster":{},"extra":1}`} {
		if err := h2.Load([]byte(bad)); err == nil {
			t.Errorf("Load(%q) accepted", bad)
		}
	}
	out.Reset()
	h2.Run("kubectl get pod pinned --no-headers", &out, false)
	if !strings.Contains(out.String(), "pinned") {
		t.Errorf("bad state changed the cluster: %s", out.String())
	}
}

func TestJobsRunWhileAWatchWaits(t *testing.T) {
	h, w := newTestHost(t)
	var out bytes.Buffer
	h.Run("kubectl create deployment web --image=nginx", &out, false)
	done := make(chan Details, 1)
	w.onSleep = func(slept time.Duration) {
		if slept >= time.Second && slept < time.Second+60*time.Millisecond {
			go func() { done <- h.Describe("Node", "", "node01") }()
		}
		if slept >= 3*time.Second {
			h.Interrupt()
		}
	}
	h.Run("kubectl get pods -w", &out, true)
	select {
	case d := <-done:
		if !d.Found || !strings.Contains(d.YAML, "name: node01") {
			t.Errorf("describe during a watch: %+v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("describe did not run while the watch waited")
	}
}

func TestDescribePod(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	h.Run(pinnedPod+"\nsleep 5", &out, false)
	d := h.Describe("Pod", "default", "pinned")
	if !d.Found || !strings.Contains(d.YAML, "nodeName: node01") {
		t.Fatalf("%+v", d)
	}
	if len(d.Events) == 0 || !strings.Contains(d.DescribeText(), "Started") {
		t.Errorf("events: %s", d.DescribeText())
	}
	if d := h.Describe("Pod", "default", "nope"); d.Found {
		t.Errorf("a missing pod was found")
	}
}

func TestTraceNamesTheComponents(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	h.Run("kubectl create deployment web --image=nginx; sleep 5", &out, false)
	tr := h.Trace()
	if tr.Command == "" || len(tr.Rows) == 0 {
		t.Fatalf("%+v", tr)
	}
	var text []string
	for _, r := range tr.Rows {
		text = append(text, fmt.Sprintf("%s %s %s %s/%s %s", r.At, r.Actor, r.Action, r.Kind, r.Name, r.Change))
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"kubectl created Deployment/web", "deployment-controller created ReplicaSet/web-", "replicaset-controller created Pod/web-", "Pod/web-"} {
		if !strings.Contains(all, want) {
			t.Errorf("trace lacks %q:\n%s", want, all)
		}
	}
	t.Logf("trace:\n%s", all)
	if !strings.Contains(all, "status") {
		t.Errorf("no status updates named:\n%s", all)
	}
	// The next command starts a new trace.
	h.Run("echo hi", &out, false)
	if tr := h.Trace(); len(tr.Rows) != 0 || tr.Command != "echo hi" {
		t.Errorf("trace of echo: %+v", tr)
	}
}

func TestKubectlEditOpensTheEditor(t *testing.T) {
	h, _ := newTestHost(t)
	var out bytes.Buffer
	h.Run("kubectl create deployment web --image=nginx", &out, false)
	opened := make(chan string, 4)
	h.SetEditor(func(path, text string) {
		opened <- text
		go func() {
			if text == "" {
				return
			}
			h.EditDone(true, strings.Replace(text, "replicas: 1", "replicas: 3", 1))
		}()
	})
	out.Reset()
	code := h.Run("kubectl edit deployment web", &out, true)
	if code != 0 || !strings.Contains(out.String(), "deployment.apps/web edited") {
		t.Fatalf("edit: %d %q", code, out.String())
	}
	if text := <-opened; !strings.Contains(text, "kind: Deployment") || !strings.Contains(text, "# Please edit the object below") {
		t.Errorf("the editor got %q", text)
	}
	out.Reset()
	h.Run("kubectl get deployment web -o jsonpath={.spec.replicas}", &out, false)
	if out.String() != "3" {
		t.Errorf("replicas after edit: %q", out.String())
	}
	// Cancel leaves the object as it was.
	h.SetEditor(func(path, text string) {
		if text != "" {
			go h.EditDone(false, "")
		}
	})
	out.Reset()
	h.Run("kubectl edit deployment web", &out, true)
	if !strings.Contains(out.String(), "Edit cancelled, no changes made.") {
		t.Errorf("cancel: %q", out.String())
	}
}

func TestLessonFlow(t *testing.T) {
	h, _ := newTestHost(t)
	list := LessonList()
	if len(list) == 0 {
		t.Skip("no lessons")
	}
	l, err := FindLesson(list[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.StartLesson(l.Name, 0, sim.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, cmd := range l.Steps[0].Commands {
		h.Run(cmd, &out, false)
	}
	res, err := h.CheckLesson()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.OK {
			t.Errorf("check %q failed after the step's commands:\n%s", r.Text.En, out.String())
		}
	}
	if err := h.SetLessonStep(1); err != nil && len(l.Steps) > 1 {
		t.Fatal(err)
	}
	data, err := h.Save()
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := newTestHost(t)
	if err := h2.Load(data); err != nil {
		t.Fatal(err)
	}
	if ls := h2.Lesson(); ls == nil || ls.Name != l.Name {
		t.Errorf("lesson after restore: %+v", ls)
	}
	if err := h.StartLesson("no-such-lesson", 0, sim.Options{Seed: 1}); err == nil {
		t.Error("an unknown lesson started")
	}
	bad := strings.Replace(string(data), `"name":"`+l.Name+`"`, `"name":"nope"`, 1)
	if err := h2.Load([]byte(bad)); err == nil {
		t.Error("state naming an unknown lesson was accepted")
	}
}
