package playground

import (
	"strings"
	"testing"
	"time"
)

// writes records each write the terminal receives and the wall time it
// came at.
type writes struct {
	w   *fakeWall
	got []string
	at  []time.Duration
}

func (r *writes) Write(p []byte) (int, error) {
	r.got = append(r.got, string(p))
	r.at = append(r.at, r.w.slept)
	return len(p), nil
}

// A table reaches the terminal in one write, not cell by cell; output
// printed before a command waits is shown before the wait.
func TestOutputIsHandedOnWholeAndBeforeWaits(t *testing.T) {
	h, w := newTestHost(t)
	r := &writes{w: w}
	h.Run("kubectl create deployment web --image=nginx --replicas=5 >/dev/null; sleep 30", r, false)
	r.got, r.at = nil, nil
	h.Run("kubectl get pods -o wide", r, true)
	if len(r.got) != 1 || strings.Count(r.got[0], "\n") != 6 {
		t.Errorf("kubectl get pods -o wide came in %d writes: %q", len(r.got), r.got)
	}
	r.got, r.at = nil, nil
	h.Run("echo before; sleep 5; echo after", r, true)
	if strings.Join(r.got, "|") != "before\n|after\n" || r.at[0] != 0 || r.at[1] < 4*time.Second {
		t.Errorf("writes %q at wall times %v", r.got, r.at)
	}
}
