package kubectl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kubeplay/core/session"
	"kubeplay/core/sim"
)

// testdata/describe/*.session are real-v1.32 transcripts of the seeds'
// sessions (shared/seeds/real-v1.32), each cut after its last describe.
// Replayed on kubeplay, every describe step must print what the real
// cluster printed, up to generated names, ages, times and IPs.
func TestDescribeMatchesRealClusterSessions(t *testing.T) {
	files, err := filepath.Glob("testdata/describe/*.session")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sessions: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := session.Parse(filepath.Base(path), string(text))
			if err != nil {
				t.Fatal(err)
			}
			term := sim.NewSessionTerminal(f, sim.Options{Seed: 1})
			t.Cleanup(term.Cluster.Close)
			checked := 0
			for _, r := range f.Run(term) {
				if !strings.Contains(r.Step.Command, "describe ") || kwokNodeSteps[fmt.Sprintf("%s:%d", f.Name, r.Step.Line)] {
					continue
				}
				checked++
				want, got := r.Step.Expected, r.Output
				if r.Step.Unchecked {
					// What the file leaves unchecked is the event
					// aggregator's timing: its combined row.
					want, got = withoutCombinedEvents(want), withoutCombinedEvents(got)
				}
				if !session.Equivalent(normalizeHashes(want), normalizeHashes(got)) {
					t.Errorf("%s:%d: $ %s\n%s", f.Name, r.Step.Line, r.Step.Command, session.Diff(want, got))
				}
			}
			if checked == 0 {
				t.Fatal("no describe step in the session")
			}
		})
	}
}

// kwokNodeSteps describe whole nodes, which on the recording cluster were
// KWOK's: its system info, no kubelet events, Ready listed first. The
// describer's node layout is pinned by describe_test.go instead.
var kwokNodeSteps = map[string]bool{
	"s2-scheduling.session:537":  true,
	"s4-node-failure.session:73": true,
}

// templateHash is a pod-template-hash label value, which session's
// normalisation only recognises after a dash.
var templateHash = regexp.MustCompile(`pod-template-hash=[a-z0-9]+`)

func normalizeHashes(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = templateHash.ReplaceAllString(l, "pod-template-hash=<hash>")
	}
	return out
}

func withoutCombinedEvents(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.Contains(l, "(combined from similar events)") {
			out = append(out, l)
		}
	}
	return out
}
