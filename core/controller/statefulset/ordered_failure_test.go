package statefulset_test

import (
	"testing"

	"kubeplay/core/api"
)

// OrderedReady halts at the first pod that is not Running and Ready, even
// one that was ready before: a predecessor failing mid-way is recreated
// and its successors wait for it again.
func TestOrderedReadyHaltsWhenAPodFailsMidWay(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 4, false))
	c.Settle()
	steps := []struct {
		what string
		do   func()
		want string
	}{
		{"web-0 runs", func() { runPod(t, c, cl, "web-0") }, "web-0:Running/ready web-1:Pending"},
		{"web-1 fails before it is ready", func() { setPhase(t, c, cl, "web-1", api.PodFailed) },
			"web-0:Running/ready web-1:Pending"},
		{"the new web-1 runs", func() { runPod(t, c, cl, "web-1") },
			"web-0:Running/ready web-1:Running/ready web-2:Pending"},
		{"web-0 turns unready", func() { setPhase(t, c, cl, "web-0", api.PodRunning) },
			"web-0:Running web-1:Running/ready web-2:Pending"},
		{"web-2 runs, but web-3 waits for web-0", func() { runPod(t, c, cl, "web-2") },
			"web-0:Running web-1:Running/ready web-2:Running/ready"},
		{"web-0 ready again", func() { runPod(t, c, cl, "web-0") },
			"web-0:Running/ready web-1:Running/ready web-2:Running/ready web-3:Pending"},
		{"web-3 runs", func() { runPod(t, c, cl, "web-3") },
			"web-0:Running/ready web-1:Running/ready web-2:Running/ready web-3:Running/ready"},
	}
	for _, s := range steps {
		s.do()
		if got := podStates(cl); got != s.want {
			t.Fatalf("%s: %s, want %s", s.what, got, s.want)
		}
	}
	got := events(cl, "web")
	want := []string{
		"SuccessfulCreate create Pod web-0 in StatefulSet web successful",
		"SuccessfulCreate create Pod web-1 in StatefulSet web successful",
		"SuccessfulDelete delete Pod web-1 in StatefulSet web successful",
		"SuccessfulCreate create Pod web-2 in StatefulSet web successful",
		"SuccessfulCreate create Pod web-3 in StatefulSet web successful",
	}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %q, want %q", got, want)
		}
	}
}
