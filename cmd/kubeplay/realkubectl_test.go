package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kubeplay/core/apiserver"
	"kubeplay/core/session"
	"kubeplay/core/sim"
)

// The real kubectl against kubeplay serve: every command of the
// conformance sessions runs through upstream kubectl v1.32 against a served
// cluster and through our own kubectl on a twin cluster (same seed), and
// the two outputs must match (modulo generated names, ages and IPs).

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

// servedTerminal runs scripts in bash with the real kubectl pointed at a
// served cluster whose clock moves only when a script sleeps.
type servedTerminal struct {
	t       *testing.T
	cluster *sim.Cluster
	eng     *engine
	env     []string
	dir     string
}

var sleepLine = regexp.MustCompile(`^sleep (\d+)$`)

func newServedTerminal(t *testing.T, f *session.File, seed uint64, kubectl string) *servedTerminal {
	twin := sim.NewSessionTerminal(f, sim.Options{Seed: seed})
	c := twin.Cluster
	e := &engine{cluster: c, speed: 1, last: time.Now()}
	api := &apiserver.Handler{Server: c.API, Actor: "kubectl"}
	srv := httptest.NewServer(e.locked(api))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	kc := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kc, []byte(kubeconfigFor(srv.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	for _, name := range []string{"kubectl", "k"} {
		os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\nexec "+kubectl+" \"$@\"\n"), 0o755)
	}
	return &servedTerminal{t: t, cluster: c, eng: e, dir: dir,
		env: []string{"PATH=" + bin + ":/usr/bin:/bin", "KUBECONFIG=" + kc, "HOME=" + dir, "KUBECTL_COMMAND_HEADERS=false"}}
}

func (s *servedTerminal) Run(script string) string {
	line := strings.TrimSpace(script)
	if m := sleepLine.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		s.eng.mu.Lock()
		s.cluster.Advance(time.Duration(n) * time.Second)
		s.eng.mu.Unlock()
		return ""
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = s.env
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	s.eng.mu.Lock()
	s.cluster.Settle()
	s.eng.mu.Unlock()
	return out.String()
}

func TestRealKubectlMatchesOurs(t *testing.T) {
	kubectl := realKubectl(t)
	// The conformance sessions, and the other transcripts whose commands
	// reach only the API (exec, logs -f and port-forward need streams).
	globs := []string{"../../testdata/conformance/*.session", "../../testdata/bad-input*.session",
		"../../testdata/generators.session", "../../testdata/output-formats.session", "../../testdata/control-plane.session"}
	if g := os.Getenv("KUBEPLAY_CONFORMANCE_GLOB"); g != "" {
		globs = []string{g} // explore other sessions
	}
	var files []string
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no conformance sessions")
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := session.Parse(path, string(data))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			ours := f.Run(sim.NewSessionTerminal(f, sim.Options{Seed: 1}))
			theirs := f.Run(newServedTerminal(t, f, 1, kubectl))
			for i := range ours {
				if ours[i].Step.Unchecked {
					continue
				}
				if !session.Equivalent(theirs[i].Output, ours[i].Output) {
					t.Errorf("%s:%d: $ %s\n%s", path, ours[i].Step.Line, ours[i].Step.Command, session.Diff(theirs[i].Output, ours[i].Output))
				}
			}
		})
	}
}
