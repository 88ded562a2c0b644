package runtime

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"kubeplay/core/clock"
	"kubeplay/core/vfs"
)

var epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestPiMatchesPerlAndBc(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int
	}{{"perl-bpi-1000.txt", 1000}, {"perl-bpi-2000.txt", 2000}} {
		want, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := Pi(tc.n) + "\n"; got != string(want) {
			t.Errorf("bpi(%d) differs from %s:\n got …%s\nwant …%s", tc.n, tc.file, got[len(got)-20:], want[len(want)-20:])
		}
	}
	if got := Pi(20); got != "3.1415926535897932385" {
		t.Errorf("bpi(20) = %s", got)
	}
}

type world struct {
	clk *clock.Clock
	rt  *Runtime
}

func newWorld() *world {
	clk := clock.New(epoch)
	return &world{clk: clk, rt: New(clk, NewCatalog(), "node01")}
}

// advance fires every timer due within d, as the simulation does.
func (w *world) advance(d time.Duration) {
	end := w.clk.Now().Add(d)
	for {
		next, ok := w.clk.Next()
		if !ok || next.After(end) {
			break
		}
		w.clk.Step(next)
		w.clk.Fire()
	}
	w.clk.Step(end)
	w.clk.Fire()
}

func (w *world) start(t *testing.T, image string, command ...string) (*Container, *int) {
	t.Helper()
	im, err := w.rt.Catalog.Resolve(image)
	if err != nil {
		t.Fatal(err)
	}
	exit := -1
	c, err := w.rt.Start(Config{Name: "c", Image: im, Command: command, FS: vfs.New(), Hostname: "pod", PodIP: "10.244.0.5",
		OnExit: func(code int) { exit = code }})
	if err != nil {
		t.Fatal(err)
	}
	return c, &exit
}

func logText(c *Container) string {
	var b strings.Builder
	for _, l := range c.Logs() {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func TestPerlJobPrintsPi(t *testing.T) {
	w := newWorld()
	c, exit := w.start(t, "perl:5.34.0", "perl", "-Mbignum=bpi", "-wle", "print bpi(2000)")
	want, _ := os.ReadFile("testdata/perl-bpi-2000.txt")
	if *exit != 0 || logText(c) != string(want) {
		t.Fatalf("exit %d, log %.40q", *exit, logText(c))
	}
}

func TestBcJobPrintsPi(t *testing.T) {
	w := newWorld()
	c, exit := w.start(t, "resouer/ubuntu-bc", "sh", "-c", "echo 'scale=100; 4*a(1)' | bc -l")
	want, _ := os.ReadFile("testdata/bc-pi-100.txt")
	if *exit != 0 || logText(c) != string(want) {
		t.Fatalf("exit %d, log %q", *exit, logText(c))
	}
}

// A script sleeps on the virtual clock: the health file exists for 30 s.
func TestScriptSleepsOnVirtualClock(t *testing.T) {
	w := newWorld()
	c, exit := w.start(t, "busybox", "sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600; exit 3")
	probe := func() int { return c.Exec([]string{"cat", "/tmp/healthy"}, ExecOptions{}).Code }
	if probe() != 0 || *exit != -1 {
		t.Fatalf("at start: probe %d exit %d", probe(), *exit)
	}
	w.advance(29 * time.Second)
	if probe() != 0 {
		t.Fatal("health file gone before 30 s")
	}
	w.advance(time.Second)
	if probe() == 0 {
		t.Fatal("health file still there at 30 s")
	}
	w.advance(599 * time.Second)
	if *exit != -1 {
		t.Fatal("exited early")
	}
	w.advance(time.Second)
	if *exit != 3 || !c.Exited {
		t.Fatalf("exit = %d", *exit)
	}
}

// PID 1 ignores SIGTERM unless it handles it; SIGKILL always works.
func TestSignals(t *testing.T) {
	w := newWorld()
	c, exit := w.start(t, "busybox", "sleep", "3600")
	c.Signal(SIGTERM)
	if *exit != -1 {
		t.Fatal("sleep as PID 1 died of SIGTERM")
	}
	c.Signal(SIGKILL)
	if *exit != 137 {
		t.Fatalf("after SIGKILL exit = %d", *exit)
	}
	sc, sexit := w.start(t, "busybox", "sh", "-c", "while true; do sleep 1; done")
	w.advance(5 * time.Second)
	sc.Signal(SIGTERM)
	if *sexit != -1 {
		t.Fatal("shell as PID 1 died of SIGTERM")
	}
	sc.Kill()
	if *sexit != 137 {
		t.Fatalf("shell after kill: %d", *sexit)
	}
	n, nexit := w.start(t, "nginx:1.14.2")
	n.Signal(SIGTERM)
	if *nexit != 0 {
		t.Fatalf("nginx after SIGTERM: %d", *nexit)
	}
}

func TestNginxServes(t *testing.T) {
	w := newWorld()
	c, _ := w.start(t, "harbor.od.com/public/nginx:v1.12")
	h, ok := c.Handler(80)
	if !ok {
		t.Fatal("nginx not listening on 80")
	}
	if r := h(&Request{Method: "GET", Path: "/info"}); r.Body != "2026-11-22T10:00:00Z|10.244.0.5|nginx:v1.12\n" {
		t.Errorf("/info = %q", r.Body)
	}
	if r := h(&Request{Method: "GET", Path: "/"}); r.Status != 200 || !strings.Contains(r.Body, "Welcome to nginx!") {
		t.Errorf("/ = %d", r.Status)
	}
	if r := h(&Request{Method: "GET", Path: "/nope"}); r.Status != 404 {
		t.Errorf("/nope = %d", r.Status)
	}
	if !strings.Contains(logText(c), `"GET /info HTTP/1.1" 200`) {
		t.Errorf("no access log: %s", logText(c))
	}
}

func TestPsShowsTheContainersProcesses(t *testing.T) {
	w := newWorld()
	c, _ := w.start(t, "harbor.od.com/public/centos:7", "sh", "-c", "sleep 3600")
	out := c.Exec([]string{"ps", "uax"}, ExecOptions{}).Stdout
	if !strings.Contains(out, "   1 ") || !strings.Contains(out, "0:00 sleep 3600\n") || !strings.Contains(out, "ps uax") {
		t.Fatalf("ps uax:\n%s", out)
	}
}

func TestImages(t *testing.T) {
	cat := NewCatalog()
	for _, ok := range []string{"nginx", "nginx:1.14.2", "busybox:1.28", "perl", "resouer/ubuntu-bc", "harbor.od.com/public/nginx:v1.15", "linuxduduniao/nginx:v1.0.1", "app:1.0.2", "registry.k8s.io/pause:3.10"} {
		if _, err := cat.Resolve(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	_, err := cat.Resolve("nginx:nonexist")
	if err == nil || err.Error() != `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nonexist": failed to resolve reference "docker.io/library/nginx:nonexist": docker.io/library/nginx:nonexist: not found` {
		t.Errorf("miss: %v", err)
	}
	for in, want := range map[string]string{"nginx": "docker.io/library/nginx:latest", "a/b:1": "docker.io/a/b:1", "harbor.od.com/public/nginx:v1.12": "harbor.od.com/public/nginx:v1.12", "localhost:5000/x": "localhost:5000/x:latest"} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%s) = %s", in, got)
		}
	}
}

func TestMissingCommandIsAStartError(t *testing.T) {
	w := newWorld()
	im, _ := w.rt.Catalog.Resolve("busybox")
	_, err := w.rt.Start(Config{Name: "c", Image: im, Command: []string{"nosuch"}, FS: vfs.New()})
	if err == nil || !strings.Contains(err.Error(), `exec: "nosuch": executable file not found in $PATH`) {
		t.Fatalf("err = %v", err)
	}
}

// Each version pattern accepts exactly what the expression it stands for
// accepts, over every short tag made of the characters that matter.
func TestVersionTagsAgreeWithTheirExpressions(t *testing.T) {
	cases := map[string]string{
		"3.*":     `3\.\d+`,
		"v1.*.*":  `v1\.\d+\.\d+`,
		"3.*.*-#": `3\.\d+\.\d+-\d`,
		"v?1.*.*": `v?1\.\d+\.\d+`,
		"1.0.#":   `1\.0\.\d`,
	}
	var tags []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		tags = append(tags, prefix)
		if n > 0 {
			for _, c := range []string{"v", "1", "3", "0", "12", ".", "-", "a"} {
				grow(prefix+c, n-1)
			}
		}
	}
	grow("", 6)
	for pattern, expr := range cases {
		re := regexp.MustCompile("^(?:" + expr + ")$")
		match := versionTags(pattern)
		for _, tag := range tags {
			if got, want := match(tag), re.MatchString(tag); got != want {
				t.Errorf("versionTags(%q)(%q) = %v, %s says %v", pattern, tag, got, expr, want)
			}
		}
	}
}
