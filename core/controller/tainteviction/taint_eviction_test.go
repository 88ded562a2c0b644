package tainteviction_test

import (
	"fmt"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/nodelifecycle"
	"kubeplay/core/controller/tainteviction"
	"kubeplay/core/sim"
	"kubeplay/core/sim/simtest"
)

// newCluster runs the node lifecycle controller and the taint eviction
// controller, as kube-controller-manager v1.32 does.
func newCluster(t *testing.T) *sim.Cluster {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	ctx := c.ControllerContext()
	c.AddWorker(nodelifecycle.NewNodeLifecycleController(ctx))
	c.AddWorker(tainteviction.New(ctx))
	return c
}

func getPod(t *testing.T, c *sim.Cluster, name string) *api.Pod {
	t.Helper()
	p, err := client.Get[*api.Pod](c.Client("test"), "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func terminating(t *testing.T, c *sim.Cluster, name string) bool {
	t.Helper()
	return getPod(t, c, name).DeletionTimestamp != nil
}

func hasNoExecuteTaint(t *testing.T, c *sim.Cluster, node string) bool {
	t.Helper()
	n, err := client.Get[*api.Node](c.Client("test"), "", node)
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range n.Spec.Taints {
		if tn.Effect == api.TaintEffectNoExecute {
			return true
		}
	}
	return false
}

// evictionEvents lists the TaintManagerEviction events, "POD MESSAGE".
func evictionEvents(c *sim.Cluster) []string {
	var out []string
	for _, e := range client.List[*api.Event](c.Client("test"), "", nil) {
		if e.Reason == "TaintManagerEviction" {
			out = append(out, e.InvolvedObject.Name+" "+e.Message+" ("+e.Source.Component+")")
		}
	}
	return out
}

// advanceUntil steps a second at a time until cond holds and returns when.
func advanceUntil(t *testing.T, c *sim.Cluster, limit time.Duration, cond func() bool) time.Time {
	t.Helper()
	for end := c.Now().Add(limit); !cond(); c.Advance(time.Second) {
		if !c.Now().Before(end) {
			t.Fatalf("condition not met within %v", limit)
		}
	}
	return c.Now()
}

func unreachableFor(seconds *int64) api.Toleration {
	return api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: seconds}
}

// Seed 004 on v1.32: a node's kubelet stops. About 50 s after its last
// heartbeat the node is Unknown, then tainted unreachable:NoExecute; a pod
// tolerating that for 60 s is evicted 60 s after the taint, the pods with
// the API server's default 300 s tolerations 300 s after it, a pod that
// tolerates it forever stays; pods on the healthy node are left alone.
func TestNodeFailureEvictsPodsByTheirTolerations(t *testing.T) {
	c := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	simtest.StartNode(t, c, "node-b", nil)
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		simtest.RunningPod(t, c, name, "node-a")
	}
	simtest.RunningPod(t, c, "quick", "node-a", unreachableFor(api.Int64(60)))
	simtest.RunningPod(t, c, "forever", "node-a", unreachableFor(nil))
	simtest.RunningPod(t, c, "elsewhere", "node-b")
	if tol := getPod(t, c, "web-1").Spec.Tolerations; len(tol) != 2 || *tol[0].TolerationSeconds != 300 {
		t.Fatalf("admission should add the 300 s not-ready/unreachable tolerations, got %+v", tol)
	}
	c.Advance(30 * time.Second)

	a.Stop()
	lastHeartbeat := a.LastRenew
	taintedAt := advanceUntil(t, c, 2*time.Minute, func() bool { return hasNoExecuteTaint(t, c, "node-a") })
	if d := taintedAt.Sub(lastHeartbeat); d <= 50*time.Second || d > 65*time.Second {
		t.Errorf("tainted %v after the last heartbeat", d)
	}
	if got := evictionEvents(c); len(got) != 0 {
		t.Fatalf("evictions as soon as the taint came: %q", got)
	}

	c.Advance(59 * time.Second)
	if terminating(t, c, "quick") {
		t.Fatal("quick evicted before its 60 s toleration ran out")
	}
	c.Advance(time.Second)
	if !terminating(t, c, "quick") {
		t.Fatal("quick not evicted 60 s after the taint")
	}
	_, cond := api.GetPodCondition(&getPod(t, c, "quick").Status, api.DisruptionTarget)
	if cond == nil || cond.Status != api.ConditionTrue || cond.Reason != "DeletionByTaintManager" || cond.Message != "Taint manager: deleting due to NoExecute taint" {
		t.Errorf("DisruptionTarget = %+v", cond)
	}

	c.Advance(239 * time.Second)
	if terminating(t, c, "web-1") {
		t.Fatal("web-1 evicted before its 300 s toleration ran out")
	}
	c.Advance(time.Second)
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		if !terminating(t, c, name) {
			t.Errorf("%s not evicted 300 s after the taint", name)
		}
	}
	// Read before the hour below: events expire an hour after their last write.
	want := []string{
		"quick Marking for deletion Pod default/quick (taint-eviction-controller)",
		"web-1 Marking for deletion Pod default/web-1 (taint-eviction-controller)",
		"web-2 Marking for deletion Pod default/web-2 (taint-eviction-controller)",
		"web-3 Marking for deletion Pod default/web-3 (taint-eviction-controller)",
	}
	if got := evictionEvents(c); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %q\nwant %q", got, want)
	}
	c.Advance(time.Hour)
	if terminating(t, c, "forever") {
		t.Error("a pod tolerating unreachable forever was evicted")
	}
	if terminating(t, c, "elsewhere") {
		t.Error("a pod on the healthy node was evicted")
	}
}

// When the node comes back before a pod's toleration runs out, the taint
// goes and the scheduled deletion is cancelled.
func TestRecoveryCancelsEviction(t *testing.T) {
	c := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	simtest.StartNode(t, c, "node-b", nil)
	simtest.RunningPod(t, c, "web-1", "node-a")
	c.Advance(10 * time.Second)
	a.Stop()
	advanceUntil(t, c, 2*time.Minute, func() bool { return hasNoExecuteTaint(t, c, "node-a") })
	c.Advance(time.Minute)
	a.Start()
	c.Advance(10 * time.Minute)
	if hasNoExecuteTaint(t, c, "node-a") || terminating(t, c, "web-1") {
		t.Fatal("the node came back but its pod was still evicted")
	}
	want := []string{"web-1 Cancelling deletion of Pod default/web-1 (taint-eviction-controller)"}
	if got := evictionEvents(c); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events = %q, want %q", got, want)
	}
}

// With every node down the controller suspects itself and taints nothing,
// so no pod is evicted however long the outage lasts.
func TestNoEvictionsInFullDisruption(t *testing.T) {
	c := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	b := simtest.StartNode(t, c, "node-b", nil)
	simtest.RunningPod(t, c, "web-1", "node-a")
	simtest.RunningPod(t, c, "web-2", "node-b")
	c.Advance(10 * time.Second)
	a.Stop()
	b.Stop()
	c.Advance(30 * time.Minute)
	for _, name := range []string{"web-1", "web-2"} {
		if terminating(t, c, name) {
			t.Errorf("%s evicted in full disruption", name)
		}
		if api.IsPodReady(getPod(t, c, name)) {
			t.Errorf("%s still Ready on an Unknown node", name)
		}
	}
}

// A NoExecute taint put by hand (kubectl taint) evicts the pods that do
// not tolerate it at once and leaves those that do.
func TestManualNoExecuteTaint(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(tainteviction.New(c.ControllerContext()))
	cl := c.Client("test")
	if _, err := client.Create(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-a"}}); err != nil {
		t.Fatal(err)
	}
	simtest.RunningPod(t, c, "plain", "node-a")
	simtest.RunningPod(t, c, "tolerant", "node-a", api.Toleration{Key: "monitor", Operator: api.TolerationOpEqual, Value: "true", Effect: api.TaintEffectNoExecute})
	simtest.RunningPod(t, c, "brief", "node-a", api.Toleration{Key: "monitor", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(30)})
	c.Settle()
	node, _ := client.Get[*api.Node](cl, "", "node-a")
	node = node.DeepCopy()
	node.Spec.Taints = []api.Taint{{Key: "monitor", Value: "true", Effect: api.TaintEffectNoExecute}}
	if _, err := client.Update(cl, node); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if !terminating(t, c, "plain") {
		t.Error("a pod without a matching toleration was not evicted at once")
	}
	if terminating(t, c, "tolerant") || terminating(t, c, "brief") {
		t.Error("tolerating pods evicted at once")
	}
	c.Advance(30 * time.Second)
	if !terminating(t, c, "brief") {
		t.Error("a pod tolerating the taint for 30 s was not evicted after 30 s")
	}
	c.Advance(time.Hour)
	if terminating(t, c, "tolerant") {
		t.Error("a pod tolerating the taint forever was evicted")
	}
}

// The same outage played twice writes the same objects, byte for byte in
// what matters here: every event's name, reason, message and time, and
// every pod's deletion time and resourceVersion.
func TestNodeFailureIsDeterministic(t *testing.T) {
	run := func() string {
		c := newCluster(t)
		a := simtest.StartNode(t, c, "node-a", map[string]string{"topology.kubernetes.io/zone": "z1"})
		simtest.StartNode(t, c, "node-b", map[string]string{"topology.kubernetes.io/zone": "z2"})
		simtest.StartNode(t, c, "node-c", map[string]string{"topology.kubernetes.io/zone": "z2"})
		for i := 0; i < 5; i++ {
			simtest.RunningPod(t, c, fmt.Sprintf("web-%d", i), "node-a")
		}
		simtest.RunningPod(t, c, "quick", "node-a", unreachableFor(api.Int64(60)))
		c.Advance(20 * time.Second)
		a.Stop()
		c.Advance(10 * time.Minute)
		out := ""
		for _, e := range client.List[*api.Event](c.Client("test"), "", nil) {
			out += fmt.Sprintf("%s %s %s %s\n", e.Name, e.Reason, e.Message, e.LastTimestamp.Time)
		}
		for _, p := range client.List[*api.Pod](c.Client("test"), "", nil) {
			out += fmt.Sprintf("%s %v %s\n", p.Name, p.DeletionTimestamp, p.ResourceVersion)
		}
		return out
	}
	first, second := run(), run()
	if first != second {
		t.Errorf("two runs differ:\n%s\n---\n%s", first, second)
	}
}
