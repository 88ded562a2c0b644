package nodelifecycle_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/nodelifecycle"
	"kubeplay/core/sim"
	"kubeplay/core/sim/simtest"
)

func newCluster(t *testing.T) (*sim.Cluster, *nodelifecycle.Controller) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	nc := nodelifecycle.NewNodeLifecycleController(c.ControllerContext())
	c.AddWorker(nc)
	return c, nc
}

func getNode(t *testing.T, c *sim.Cluster, name string) *api.Node {
	t.Helper()
	n, err := client.Get[*api.Node](c.Client("test"), "", name)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func condition(n *api.Node, t string) *api.NodeCondition {
	_, c := api.GetNodeCondition(&n.Status, t)
	return c
}

func readyStatus(t *testing.T, c *sim.Cluster, name string) string {
	t.Helper()
	if cond := condition(getNode(t, c, name), api.NodeReady); cond != nil {
		return cond.Status
	}
	return ""
}

// taints prints a node's taints as kubectl does, in stored order.
func taints(t *testing.T, c *sim.Cluster, name string) string {
	t.Helper()
	var out []string
	for _, tn := range getNode(t, c, name).Spec.Taints {
		out = append(out, tn.ToString())
	}
	return strings.Join(out, " ")
}

// events lists "REASON MESSAGE" of the events about an object, oldest first.
func events(c *sim.Cluster, kind, name string) []string {
	var out []string
	for _, e := range client.List[*api.Event](c.Client("test"), "", nil) {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name {
			out = append(out, e.Reason+" "+e.Message)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// advanceUntil steps the clock a second at a time until cond holds, and
// returns the time it first held; it fails after limit.
func advanceUntil(t *testing.T, c *sim.Cluster, limit time.Duration, cond func() bool) time.Time {
	t.Helper()
	for end := c.Now().Add(limit); c.Now().Before(end); {
		if cond() {
			return c.Now()
		}
		c.Advance(time.Second)
	}
	if cond() {
		return c.Now()
	}
	t.Fatalf("condition not met within %v", limit)
	return time.Time{}
}

// A node whose kubelet stops renewing its Lease keeps Ready True through
// the 50 s grace period; at the first pass after it, its kubelet-owned
// conditions turn Unknown, the NodeNotReady event is recorded, its pods'
// Ready condition turns False, and it is tainted unreachable (NoSchedule
// at once, NoExecute at the next pass, which acts on what it saw before).
func TestNodeStopsPostingStatus(t *testing.T) {
	c, _ := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	simtest.StartNode(t, c, "node-b", nil)
	simtest.RunningPod(t, c, "web-1", "node-a")
	c.Advance(30 * time.Second)
	if got := readyStatus(t, c, "node-a"); got != api.ConditionTrue {
		t.Fatalf("Ready = %q before the failure", got)
	}

	a.Stop()
	lastHeartbeat := a.LastRenew
	c.Advance(40 * time.Second)
	if got := readyStatus(t, c, "node-a"); got != api.ConditionTrue {
		t.Fatalf("Ready = %q 40 s after the last heartbeat, want True (grace period 50 s)", got)
	}
	unknownAt := advanceUntil(t, c, time.Minute, func() bool { return readyStatus(t, c, "node-a") == api.ConditionUnknown })
	if d := unknownAt.Sub(lastHeartbeat); d <= 50*time.Second || d > 55*time.Second {
		t.Errorf("Ready went Unknown %v after the last heartbeat, want within one 5 s monitor period after 50 s", d)
	}

	node := getNode(t, c, "node-a")
	for _, ct := range []string{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure} {
		cond := condition(node, ct)
		if cond.Status != api.ConditionUnknown || cond.Reason != "NodeStatusUnknown" || cond.Message != "Kubelet stopped posting node status." {
			t.Errorf("%s = %s %s %q", ct, cond.Status, cond.Reason, cond.Message)
		}
		if !cond.LastTransitionTime.Equal(unknownAt) {
			t.Errorf("%s lastTransitionTime %v, want %v", ct, cond.LastTransitionTime, unknownAt)
		}
	}
	if got := readyStatus(t, c, "node-b"); got != api.ConditionTrue {
		t.Errorf("node-b Ready = %q", got)
	}

	wantEvents := []string{
		"RegisteredNode Node node-a event: Registered Node node-a in Controller",
		"NodeNotReady Node node-a status is now: NodeNotReady",
	}
	if got := events(c, "Node", "node-a"); fmt.Sprint(got) != fmt.Sprint(wantEvents) {
		t.Errorf("node events = %q, want %q", got, wantEvents)
	}
	pod, _ := client.Get[*api.Pod](c.Client("test"), "default", "web-1")
	if api.IsPodReady(pod) {
		t.Error("pod on the silent node is still Ready")
	}
	if got := events(c, "Pod", "web-1"); !contains(got, "NodeNotReady Node is not ready") {
		t.Errorf("pod events = %q", got)
	}

	if got := taints(t, c, "node-a"); got != "node.kubernetes.io/unreachable:NoSchedule" {
		t.Errorf("taints right after Unknown = %q", got)
	}
	c.Advance(nodelifecycle.DefaultNodeMonitorPeriod)
	if got := taints(t, c, "node-a"); got != "node.kubernetes.io/unreachable:NoSchedule node.kubernetes.io/unreachable:NoExecute" {
		t.Errorf("taints a pass later = %q", got)
	}
	for _, tn := range getNode(t, c, "node-a").Spec.Taints {
		if tn.TimeAdded == nil {
			t.Errorf("taint %s has no timeAdded", tn.ToString())
		}
	}
	if got := taints(t, c, "node-b"); got != "" {
		t.Errorf("node-b taints = %q", got)
	}
}

// When the kubelet comes back and posts Ready, the next pass removes the
// NoExecute taint and the node update removes the NoSchedule one.
func TestRecoveryRemovesTaints(t *testing.T) {
	c, _ := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	simtest.StartNode(t, c, "node-b", nil)
	c.Advance(10 * time.Second)
	a.Stop()
	c.Advance(2 * time.Minute)
	if got := taints(t, c, "node-a"); got == "" {
		t.Fatal("no taints on the silent node")
	}
	a.Start()
	c.Advance(nodelifecycle.DefaultNodeMonitorPeriod)
	if got := readyStatus(t, c, "node-a"); got != api.ConditionTrue {
		t.Fatalf("Ready = %q after the kubelet came back", got)
	}
	if got := taints(t, c, "node-a"); got != "" {
		t.Errorf("taints after recovery = %q", got)
	}
}

// A node whose kubelet never posted a Ready condition gets the 60 s startup
// grace period from its creation, then NodeStatusNeverUpdated conditions.
func TestNodeNeverPostsStatus(t *testing.T) {
	c, _ := newCluster(t)
	simtest.StartNode(t, c, "node-b", nil)
	created := c.Now()
	if _, err := client.Create(c.Client("test"), &api.Node{ObjectMeta: api.ObjectMeta{Name: "ghost"}}); err != nil {
		t.Fatal(err)
	}
	c.Advance(55 * time.Second)
	if cond := condition(getNode(t, c, "ghost"), api.NodeReady); cond != nil {
		t.Fatalf("Ready set within the startup grace period: %+v", cond)
	}
	at := advanceUntil(t, c, 10*time.Second, func() bool { return condition(getNode(t, c, "ghost"), api.NodeReady) != nil })
	if d := at.Sub(created); d <= 60*time.Second || d > 65*time.Second {
		t.Errorf("conditions added %v after creation", d)
	}
	node := getNode(t, c, "ghost")
	var got []string
	for _, cond := range node.Status.Conditions {
		got = append(got, cond.Type+"="+cond.Status+" "+cond.Reason+" "+cond.Message)
	}
	want := []string{
		"Ready=Unknown NodeStatusNeverUpdated Kubelet never posted node status.",
		"MemoryPressure=Unknown NodeStatusNeverUpdated Kubelet never posted node status.",
		"DiskPressure=Unknown NodeStatusNeverUpdated Kubelet never posted node status.",
		"PIDPressure=Unknown NodeStatusNeverUpdated Kubelet never posted node status.",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("conditions = %q, want %q", got, want)
	}
	if !condition(node, api.NodeReady).LastHeartbeatTime.Equal(node.CreationTimestamp.Time) {
		t.Error("lastHeartbeatTime should be the node's creation time")
	}
}

// When every node is down, the controller blames itself ("master
// disruption mode"): conditions go Unknown but no NoExecute taint is put.
func TestFullDisruptionAddsNoNoExecuteTaints(t *testing.T) {
	c, nc := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	b := simtest.StartNode(t, c, "node-b", nil)
	c.Advance(10 * time.Second)
	a.Stop()
	b.Stop()
	c.Advance(3 * time.Minute)
	for _, n := range []string{"node-a", "node-b"} {
		if got := readyStatus(t, c, n); got != api.ConditionUnknown {
			t.Errorf("%s Ready = %q", n, got)
		}
		if got := taints(t, c, n); got != "node.kubernetes.io/unreachable:NoSchedule" {
			t.Errorf("%s taints = %q, want only the NoSchedule one", n, got)
		}
	}
	zones := nc.Zones()
	if len(zones) != 1 || zones[0].State != nodelifecycle.StateFullDisruption || zones[0].QPS != 0 {
		t.Errorf("zones = %+v", zones)
	}

	// One node back: the zone leaves full disruption and the other node,
	// given a fresh grace period, is tainted once it runs out.
	a.Start()
	c.Advance(nodelifecycle.DefaultNodeMonitorPeriod)
	if zones := nc.Zones(); zones[0].State != nodelifecycle.StateNormal {
		t.Errorf("zone state after one node came back = %s", zones[0].State)
	}
	advanceUntil(t, c, 2*time.Minute, func() bool {
		return strings.Contains(taints(t, c, "node-b"), "unreachable:NoExecute")
	})
}

// A zone is fully disrupted when none of its nodes is Ready, partially
// when more than two are not Ready and they are at least 55 % of it.
func TestComputeZoneState(t *testing.T) {
	_, nc := newCluster(t)
	ready := &api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue}
	notReady := &api.NodeCondition{Type: api.NodeReady, Status: api.ConditionFalse}
	unknown := &api.NodeCondition{Type: api.NodeReady, Status: api.ConditionUnknown}
	zone := func(r, nr int) []*api.NodeCondition {
		var out []*api.NodeCondition
		for i := 0; i < r; i++ {
			out = append(out, ready)
		}
		for i := 0; i < nr; i++ {
			out = append(out, []*api.NodeCondition{notReady, unknown, nil}[i%3])
		}
		return out
	}
	for _, tc := range []struct {
		ready, notReady int
		want            nodelifecycle.ZoneState
	}{
		{3, 0, nodelifecycle.StateNormal},
		{0, 1, nodelifecycle.StateFullDisruption},
		{0, 5, nodelifecycle.StateFullDisruption},
		{1, 2, nodelifecycle.StateNormal},             // two down is never a disruption
		{2, 3, nodelifecycle.StatePartialDisruption},  // 60 %
		{3, 3, nodelifecycle.StateNormal},             // 50 %
		{7, 3, nodelifecycle.StateNormal},             // 30 %
		{9, 11, nodelifecycle.StatePartialDisruption}, // 55 % exactly
		{10, 11, nodelifecycle.StateNormal},           // 52 %
	} {
		n, got := nc.ComputeZoneState(zone(tc.ready, tc.notReady))
		if got != tc.want || n != tc.notReady {
			t.Errorf("%d ready, %d not: %s with %d unhealthy, want %s", tc.ready, tc.notReady, got, n, tc.want)
		}
	}
	if got := nc.ReducedQPSFunc(50); got != 0 {
		t.Errorf("partially disrupted zone of 50 nodes taints at %v/s, want 0", got)
	}
	if got := nc.ReducedQPSFunc(51); got != 0.01 {
		t.Errorf("partially disrupted zone of 51 nodes taints at %v/s, want 0.01", got)
	}
}

func zoneLabels(zone string) map[string]string {
	return map[string]string{"topology.kubernetes.io/region": "r1", "topology.kubernetes.io/zone": zone}
}

// In a normal zone NoExecute taints come at 0.1 nodes a second: the first
// unhealthy node at once, the next 10 s later. A small zone in partial
// disruption stops tainting, while a healthy zone next to it keeps going.
func TestZoneRateLimits(t *testing.T) {
	c, nc := newCluster(t)
	var big, small []*simtest.FakeKubelet
	for i := 0; i < 10; i++ {
		big = append(big, simtest.StartNode(t, c, fmt.Sprintf("big-%d", i), zoneLabels("z1")))
	}
	for i := 0; i < 4; i++ {
		small = append(small, simtest.StartNode(t, c, fmt.Sprintf("small-%d", i), zoneLabels("z2")))
	}
	c.Advance(10 * time.Second)
	big[0].Stop()
	big[1].Stop()
	for _, k := range small[:3] {
		k.Stop()
	}
	hasNoExecute := func(name string) func() bool {
		return func() bool { return strings.Contains(taints(t, c, name), "NoExecute") }
	}
	first := advanceUntil(t, c, 2*time.Minute, hasNoExecute("big-0"))
	second := advanceUntil(t, c, time.Minute, hasNoExecute("big-1"))
	if d := second.Sub(first); d < 10*time.Second || d > 11*time.Second {
		t.Errorf("second node tainted %v after the first, want 10 s (0.1 nodes/s)", d)
	}
	c.Advance(2 * time.Minute)
	for _, k := range small[:3] {
		if hasNoExecute(k.Name())() {
			t.Errorf("%s tainted NoExecute in a small partially disrupted zone", k.Name())
		}
	}
	for _, z := range nc.Zones() {
		want := map[string]nodelifecycle.ZoneState{"r1:\x00:z1": nodelifecycle.StateNormal, "r1:\x00:z2": nodelifecycle.StatePartialDisruption}[z.Zone]
		if z.State != want {
			t.Errorf("zone %q state %s, want %s", z.Zone, z.State, want)
		}
	}
}

// NoSchedule taints follow the node's conditions and spec.unschedulable
// (kubectl cordon), and go when they clear.
func TestNoScheduleTaintsMirrorConditions(t *testing.T) {
	c, _ := newCluster(t)
	simtest.StartNode(t, c, "node-a", nil)
	c.Settle()
	cl := c.Client("test")
	update := func(change func(n *api.Node), status bool) {
		t.Helper()
		n := getNode(t, c, "node-a").DeepCopy()
		change(n)
		var err error
		if status {
			_, err = client.UpdateStatus(cl, n)
		} else {
			_, err = client.Update(cl, n)
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Settle()
	}
	update(func(n *api.Node) { condition(n, api.NodeMemoryPressure).Status = api.ConditionTrue }, true)
	update(func(n *api.Node) { n.Spec.Unschedulable = true }, false)
	if got := taints(t, c, "node-a"); got != "node.kubernetes.io/memory-pressure:NoSchedule node.kubernetes.io/unschedulable:NoSchedule" {
		t.Errorf("taints = %q", got)
	}
	update(func(n *api.Node) { condition(n, api.NodeMemoryPressure).Status = api.ConditionFalse }, true)
	update(func(n *api.Node) { n.Spec.Unschedulable = false }, false)
	if got := taints(t, c, "node-a"); got != "" {
		t.Errorf("taints after the pressure and the cordon went = %q", got)
	}
}

// The beta os and arch labels are kept equal to the GA ones.
func TestReconcileNodeLabels(t *testing.T) {
	c, _ := newCluster(t)
	simtest.StartNode(t, c, "node-a", map[string]string{"kubernetes.io/os": "linux", "kubernetes.io/arch": "arm64", "beta.kubernetes.io/arch": "amd64"})
	c.Settle()
	l := getNode(t, c, "node-a").Labels
	if l["beta.kubernetes.io/os"] != "linux" || l["beta.kubernetes.io/arch"] != "arm64" {
		t.Errorf("labels = %v", l)
	}
}

// A pod bound to a node that is already not Ready is marked not ready too.
func TestPodBoundToNotReadyNode(t *testing.T) {
	c, _ := newCluster(t)
	a := simtest.StartNode(t, c, "node-a", nil)
	simtest.StartNode(t, c, "node-b", nil)
	c.Advance(10 * time.Second)
	a.Stop()
	c.Advance(2 * time.Minute)
	simtest.RunningPod(t, c, "late", "node-a")
	c.Settle()
	pod, _ := client.Get[*api.Pod](c.Client("test"), "default", "late")
	if api.IsPodReady(pod) {
		t.Error("a pod bound to an Unknown node is still Ready")
	}
}
