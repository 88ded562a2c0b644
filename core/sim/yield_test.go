package sim

import (
	"bytes"
	"encoding/json"
	"kubeplay/core/apiserver"
	"testing"
	"time"
)

// A host that pauses between pieces of work (Cluster.Yield), and lets time
// pass in many small steps instead of one, ends with the same cluster.
func TestYieldAndSlicedAdvanceKeepTheOutcome(t *testing.T) {
	run := func(sliced bool) ([]byte, int) {
		c := NewDefault(Options{Seed: 7})
		c.AddDefaultNode()
		yields := 0
		if sliced {
			c.Yield = func() { yields++ }
		}
		term := NewTerminal(c)
		term.Run("kubectl create deployment web --image=nginx --replicas=20")
		if sliced {
			for i := 0; i < 120; i++ {
				c.Advance(time.Second / 4)
			}
		} else {
			c.Advance(30 * time.Second)
		}
		term.Run("kubectl set image deployment/web nginx=nginx:1.27")
		c.Advance(2 * time.Minute)
		snap, err := c.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		return snap, yields
	}
	whole, _ := run(false)
	sliced, yields := run(true)
	if yields < 100 {
		t.Errorf("Yield was called %d times during a 20-pod rollout", yields)
	}
	if !bytes.Equal(whole, sliced) {
		t.Errorf("the cluster differs when the work is sliced (%d and %d bytes of snapshot)", len(whole), len(sliced))
	}
}

// A work item that writes many objects (the ReplicaSet controller creating
// a batch of pods) yields after each write, so no piece of work between
// two yields commits more than one write.
func TestYieldAfterEveryWrite(t *testing.T) {
	c := NewDefault(Options{Seed: 7})
	c.AddDefaultNode()
	writes, most := 0, 0
	c.API.Observe(func(*apiserver.Resource, apiserver.WatchEvent) {
		writes++
		most = max(most, writes)
	})
	c.Yield = func() { writes = 0 }
	term := NewTerminal(c)
	term.Run("kubectl create deployment web --image=nginx --replicas=50")
	c.Advance(30 * time.Second)
	if most != 1 {
		t.Errorf("%d writes were committed between two yields while 50 pods were created", most)
	}
}

// Snapshot writes the objects itself, yielding after each; what it writes
// is still exactly encoding/json's form of the snapshot.
func TestSnapshotYieldsPerObjectAndIsPlainJSON(t *testing.T) {
	c := NewDefault(Options{Seed: 7})
	c.AddDefaultNode()
	NewTerminal(c).Run("kubectl create deployment web --image=nginx --replicas=5")
	c.Advance(30 * time.Second)
	yields := 0
	c.Yield = func() { yields++ }
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var s snapshot
	if err := json.Unmarshal(snap, &s); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(snap, again) {
		t.Errorf("the snapshot is not encoding/json's form of itself:\n%.300s\n%.300s", snap, again)
	}
	if yields != len(s.Objects) || yields < 20 {
		t.Errorf("%d yields while saving %d objects", yields, len(s.Objects))
	}
}
