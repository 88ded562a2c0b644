package scheduler_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
)

func priority(v int32) func(*api.Pod) {
	return func(p *api.Pod) { p.Spec.Priority = api.Int32(v) }
}

func cpu(q string) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: mustQ(q)}
	}
}

// A higher-priority pod that fits nowhere evicts the least important
// lower-priority pods that make room, and is nominated to their node.
func TestPreemptionEvictsLowerPriority(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	c.addPod(pod("low-a", cpu("2"), priority(1)))
	c.addPod(pod("low-b", cpu("1500m"), priority(5)))
	c.c.Settle()
	c.addPod(pod("high", cpu("2"), priority(100)))
	c.c.Settle()

	high := c.get("high")
	if high.Status.NominatedNodeName != "n1" || high.Spec.NodeName != "" {
		t.Fatalf("nominated %q, node %q", high.Status.NominatedNodeName, high.Spec.NodeName)
	}
	if ev := c.events("high"); len(ev) != 1 || ev[0] != "Warning FailedScheduling 0/1 nodes are available: 1 Insufficient cpu." {
		t.Fatalf("events %q", ev)
	}
	// Evicting low-a (2 cpu, priority 1) is enough; low-b is spared.
	victim := c.get("low-a")
	if victim.DeletionTimestamp == nil {
		t.Fatalf("low-a not evicted")
	}
	if c.get("low-b").DeletionTimestamp != nil {
		t.Fatalf("low-b evicted too")
	}
	_, cond := api.GetPodCondition(&victim.Status, api.DisruptionTarget)
	if cond == nil || cond.Reason != "PreemptionByScheduler" || cond.Message != "default-scheduler: preempting to accommodate a higher priority pod" {
		t.Fatalf("DisruptionTarget %+v", cond)
	}
	want := "Normal Preempted Preempted by pod " + high.UID + " on node n1"
	if ev := c.events("low-a"); len(ev) != 2 || ev[1] != want {
		t.Fatalf("victim events %q", ev)
	}

	// While the victim terminates, a retry does not preempt again.
	c.advance(6 * time.Minute)
	ev := c.events("high")
	if last := ev[len(ev)-1]; !strings.HasSuffix(last, "preemption: not eligible due to a terminating pod on the nominated node.") {
		t.Fatalf("retry event %q", last)
	}
	// The victim is gone: the pod lands on its nominated node.
	c.deletePod("low-a")
	c.advance(10 * time.Second)
	if got := c.nodeOf("high"); got != "n1" {
		t.Fatalf("high on %q", got)
	}
}

// Preemption never helps a pod that cannot fit even on an empty node
// because of an unresolvable filter, nor one with preemptionPolicy Never.
func TestPreemptionNotHelpful(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	c.addNode(node("n2", nil, api.Taint{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}))
	c.addPod(pod("low", cpu("3"), priority(1)))
	c.c.Settle()
	never := api.PreemptNever
	c.addPod(pod("polite", cpu("3"), priority(100), func(p *api.Pod) { p.Spec.PreemptionPolicy = &never }))
	c.c.Settle()
	want := "Warning FailedScheduling 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: db}. " +
		"preemption: not eligible due to preemptionPolicy=Never."
	if ev := c.events("polite"); len(ev) != 1 || ev[0] != want {
		t.Fatalf("events %q\nwant %q", ev, want)
	}
	c.addPod(pod("equal", cpu("3"), priority(1)))
	c.c.Settle()
	want = "Warning FailedScheduling 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: db}. " +
		"preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
	if ev := c.events("equal"); len(ev) != 1 || ev[0] != want {
		t.Fatalf("events %q\nwant %q", ev, want)
	}
}
