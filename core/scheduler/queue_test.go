package scheduler_test

import (
	"reflect"
	"testing"
	"time"

	"kubeplay/core/api"
)

// attempts advances a second at a time and records, for each scheduling
// attempt of the pod, its number and when it ran (seconds from start).
func (c *cluster) attempts(name string, d time.Duration) [][2]int {
	start := c.c.Now()
	var out [][2]int
	last := 0
	record := func() {
		if dec, ok := c.sched.Decision("default", name); ok && dec.Attempt != last {
			last = dec.Attempt
			out = append(out, [2]int{dec.Attempt, int(dec.Time.Sub(start) / time.Second)})
		}
	}
	record()
	for i := 0; i < int(d/time.Second); i++ {
		c.advance(time.Second)
		record()
	}
	return out
}

// Failures no plugin can explain (here: no nodes at all) retry after a
// backoff that doubles from 1 s to at most 10 s.
func TestBackoffWithoutNodes(t *testing.T) {
	c := newCluster(t, 1)
	c.addPod(pod("web"))
	c.c.Settle()
	if q := c.sched.QueueOf("default", "web"); q != "Backoff" {
		t.Fatalf("queue %q, want Backoff", q)
	}
	got := c.attempts("web", 40*time.Second)
	want := [][2]int{{1, 0}, {2, 1}, {3, 3}, {4, 7}, {5, 15}, {6, 25}, {7, 35}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts (number, second) %v, want %v", got, want)
	}
	ev := c.events("web")
	if len(ev) != 1 || ev[0] != "Warning FailedScheduling no nodes available to schedule pods" {
		t.Fatalf("events %q", ev)
	}
	_, cond := api.GetPodCondition(&c.get("web").Status, api.PodScheduled)
	if cond == nil || cond.Reason != "Unschedulable" || cond.Message != "no nodes available to schedule pods" {
		t.Fatalf("PodScheduled %+v", cond)
	}
	// A node appears: the next retry succeeds.
	c.addNode(node("n1", nil))
	c.advance(10 * time.Second)
	if c.nodeOf("web") != "n1" {
		t.Fatalf("not scheduled after a node was added")
	}
}

// A pod rejected by a plugin waits for an event that plugin says may
// help: a non-matching node leaves it waiting, a matching one schedules it
// at once.
func TestMoveOnNodeAdd(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("plain", nil))
	c.addPod(pod("web", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }))
	c.c.Settle()
	if q := c.sched.QueueOf("default", "web"); q != "Unschedulable" {
		t.Fatalf("queue %q, want Unschedulable", q)
	}
	c.advance(20 * time.Second)
	c.addNode(node("other", map[string]string{"disk": "hdd"}))
	if q := c.sched.QueueOf("default", "web"); q != "Unschedulable" {
		t.Fatalf("a non-matching node moved it to %q", q)
	}
	c.advance(10 * time.Second)
	c.addNode(node("fast", map[string]string{"disk": "ssd"}))
	if got := c.nodeOf("web"); got != "fast" {
		t.Fatalf("on %q, want fast", got)
	}
	d, _ := c.sched.Decision("default", "web")
	if d.Attempt != 2 || d.Time.Sub(sim0(c)) != 30*time.Second {
		t.Fatalf("attempt %d at %v", d.Attempt, d.Time.Sub(sim0(c)))
	}
}

func sim0(c *cluster) time.Time { return c.start }

// A node label change that makes the node match moves the pod too; one
// arriving while the pod is still backing off waits out the backoff.
func TestMoveOnNodeLabelWaitsForBackoff(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	c.addPod(pod("web", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }))
	c.c.Settle()
	c.updateNode("n1", func(n *api.Node) { n.Labels["disk"] = "ssd" })
	if q := c.sched.QueueOf("default", "web"); q != "Backoff" {
		t.Fatalf("queue %q, want Backoff (1 s backoff after the first attempt)", q)
	}
	c.advance(time.Second)
	if got := c.nodeOf("web"); got != "n1" {
		t.Fatalf("on %q after the backoff", got)
	}
}

// Pods no event helps are retried after 5 minutes in the pool, on the
// 30-second flush tick that follows.
func TestUnschedulableFlushAfterFiveMinutes(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	c.addPod(pod("web", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }))
	got := c.attempts("web", 12*time.Minute)
	want := [][2]int{{1, 0}, {2, 330}, {3, 660}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts (number, second) %v, want %v", got, want)
	}
}

// Deleting a pod frees its share of the node; the waiting pod is retried.
func TestMoveOnAssignedPodDelete(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	big := func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: mustQ("3")}
	}
	c.addPod(pod("first", big))
	c.addPod(pod("second", big))
	c.c.Settle()
	if c.nodeOf("first") != "n1" || c.nodeOf("second") != "" {
		t.Fatalf("first on %q, second on %q", c.nodeOf("first"), c.nodeOf("second"))
	}
	want := "Warning FailedScheduling 0/1 nodes are available: 1 Insufficient cpu. " +
		"preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
	if ev := c.events("second"); len(ev) != 1 || ev[0] != want {
		t.Fatalf("events %q", ev)
	}
	c.advance(5 * time.Second)
	c.deletePod("first")
	if got := c.nodeOf("second"); got != "n1" {
		t.Fatalf("second on %q after first was deleted", got)
	}
}

// A finished pod no longer counts on its node.
func TestSucceededPodFreesItsShare(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	big := func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: mustQ("3")}
	}
	c.addPod(pod("job", big))
	c.addPod(pod("next", big))
	c.c.Settle()
	c.advance(5 * time.Second)
	p := c.get("job").DeepCopy()
	p.Status.Phase = api.PodSucceeded
	c.updateStatus(p)
	if got := c.nodeOf("next"); got != "n1" {
		t.Fatalf("next on %q after job succeeded", got)
	}
}

// activeQ serves higher priority first, then the pod queued first.
func TestActiveQueueOrder(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	for _, p := range []*api.Pod{pod("low", cpu("3"), priority(1)), pod("early", cpu("3"), priority(5)), pod("high", cpu("3"), priority(5))} {
		c.addPod(p)
	}
	c.c.Settle()
	if c.nodeOf("early") != "n1" || c.nodeOf("high") != "" || c.nodeOf("low") != "" {
		t.Fatalf("low %q, early %q, high %q", c.nodeOf("low"), c.nodeOf("early"), c.nodeOf("high"))
	}
}
