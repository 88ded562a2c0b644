package daemon_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// Three nodes, one a tainted control plane: a pod on each worker, pinned
// by node affinity, with the daemon tolerations and revision labels. A
// node added later gets its pod.
func TestOnePodPerEligibleNode(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "control-plane", map[string]string{"node-role.kubernetes.io/control-plane": ""}, controlPlaneTaint)
	addNode(t, c, cl, "worker-1", nil)
	addNode(t, c, cl, "worker-2", nil)
	mustCreate(t, c, cl, newDS("agent"))
	if got := placement(cl); got != "worker-1=nginx:1.25 worker-2=nginx:1.25" {
		t.Fatalf("placement %s", got)
	}
	p := podOn(t, cl, "worker-1")
	if p.Spec.NodeName != "" {
		t.Fatalf("the controller bound the pod to %s; the scheduler should", p.Spec.NodeName)
	}
	terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 1 || len(terms[0].MatchFields) != 1 || terms[0].MatchFields[0].Key != "metadata.name" ||
		terms[0].MatchFields[0].Operator != "In" || strings.Join(terms[0].MatchFields[0].Values, ",") != "worker-1" {
		t.Fatalf("affinity %+v", terms)
	}
	var tols []string
	for _, tol := range p.Spec.Tolerations {
		s := tol.Key + ":" + tol.Operator + ":" + tol.Effect
		if tol.TolerationSeconds != nil {
			s += ":seconds"
		}
		tols = append(tols, s)
	}
	wantTols := "node.kubernetes.io/not-ready:Exists:NoExecute node.kubernetes.io/unreachable:Exists:NoExecute " +
		"node.kubernetes.io/disk-pressure:Exists:NoSchedule node.kubernetes.io/memory-pressure:Exists:NoSchedule " +
		"node.kubernetes.io/pid-pressure:Exists:NoSchedule node.kubernetes.io/unschedulable:Exists:NoSchedule"
	if got := strings.Join(tols, " "); got != wantTols {
		t.Fatalf("tolerations\n got %s\nwant %s", got, wantTols)
	}
	ds := getDS(t, cl, "agent")
	crs := client.List[*api.ControllerRevision](cl, "default", nil)
	if len(crs) != 1 || crs[0].Revision != 1 || crs[0].Name != "agent-"+p.Labels["controller-revision-hash"] ||
		crs[0].Labels["controller-revision-hash"] != p.Labels["controller-revision-hash"] {
		t.Fatalf("revisions %+v, pod labels %v", crs, p.Labels)
	}
	if p.Labels["pod-template-generation"] != "1" || p.GenerateName != "agent-" {
		t.Fatalf("pod labels %v generateName %q", p.Labels, p.GenerateName)
	}
	if ref := p.GetControllerOf(); ref == nil || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" || ref.UID != ds.UID {
		t.Fatalf("owner %+v", p.OwnerReferences)
	}
	wantEvents := "SuccessfulCreate Created pod: " + podOn(t, cl, "worker-1").Name + "\nSuccessfulCreate Created pod: " + podOn(t, cl, "worker-2").Name
	if got := strings.Join(events(cl, "agent"), "\n"); got != wantEvents {
		t.Fatalf("events\n%s", got)
	}

	st := getDS(t, cl, "agent").Status
	if st.DesiredNumberScheduled != 2 || st.CurrentNumberScheduled != 2 || st.NumberReady != 0 || st.NumberUnavailable != 2 || st.UpdatedNumberScheduled != 2 {
		t.Fatalf("status before running %+v", st)
	}
	runAll(t, c, cl)
	st = getDS(t, cl, "agent").Status
	if st.DesiredNumberScheduled != 2 || st.CurrentNumberScheduled != 2 || st.NumberReady != 2 || st.NumberAvailable != 2 ||
		st.NumberUnavailable != 0 || st.UpdatedNumberScheduled != 2 || st.NumberMisscheduled != 0 || st.ObservedGeneration != 1 {
		t.Fatalf("status %+v", st)
	}

	addNode(t, c, cl, "worker-3", nil)
	if got := placement(cl); got != "worker-1=nginx:1.25 worker-2=nginx:1.25 worker-3=nginx:1.25" {
		t.Fatalf("placement after adding a node %s", got)
	}
	if st := getDS(t, cl, "agent").Status; st.DesiredNumberScheduled != 3 || st.NumberReady != 2 {
		t.Fatalf("status after adding a node %+v", st)
	}
}

// A toleration for the control-plane taint puts a pod there too; a host-
// network pod also tolerates network-unavailable.
func TestTolerationsReachTaintedNodes(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "control-plane", nil, controlPlaneTaint)
	addNode(t, c, cl, "worker-1", nil)
	ds := newDS("proxy")
	ds.Spec.Template.Spec.HostNetwork = true
	ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	mustCreate(t, c, cl, ds)
	if got := placement(cl); got != "control-plane=nginx:1.25 worker-1=nginx:1.25" {
		t.Fatalf("placement %s", got)
	}
	tols := podOn(t, cl, "worker-1").Spec.Tolerations
	if len(tols) != 8 || tols[0].Key != "node-role.kubernetes.io/control-plane" || tols[7].Key != "node.kubernetes.io/network-unavailable" {
		t.Fatalf("tolerations %+v", tols)
	}
}

// Relabelling a node moves it in and out of a node-selected DaemonSet.
func TestNodeLabelChangeAddsAndRemovesPods(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "node-a", map[string]string{"disk": "ssd"})
	addNode(t, c, cl, "node-b", nil)
	ds := newDS("ssd-agent")
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	mustCreate(t, c, cl, ds)
	runAll(t, c, cl)
	if got := placement(cl); got != "node-a=nginx:1.25" {
		t.Fatalf("placement %s", got)
	}
	relabel := func(node string, labels map[string]string) {
		n, _ := client.Get[*api.Node](cl, "", node)
		n = n.DeepCopy()
		n.Labels = labels
		if _, err := client.Update(cl, n); err != nil {
			t.Fatal(err)
		}
		c.Settle()
	}
	relabel("node-b", map[string]string{"disk": "ssd"})
	if got := placement(cl); got != "node-a=nginx:1.25 node-b=nginx:1.25" {
		t.Fatalf("placement after labelling node-b %s", got)
	}
	relabel("node-a", nil)
	if got := placement(cl); got != "node-a=nginx:1.25(terminating) node-b=nginx:1.25" {
		t.Fatalf("placement after unlabelling node-a %s", got)
	}
	if st := getDS(t, cl, "ssd-agent").Status; st.DesiredNumberScheduled != 1 {
		t.Fatalf("status %+v", st)
	}
}

// The default rolling update (maxUnavailable 1) replaces one node's pod at
// a time, nodes in name order, and records a second revision.
func TestRollingUpdateOneNodeAtATime(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "control-plane", nil, controlPlaneTaint)
	addNode(t, c, cl, "worker-1", nil)
	addNode(t, c, cl, "worker-2", nil)
	mustCreate(t, c, cl, newDS("agent"))
	runAll(t, c, cl)
	old1, old2 := podOn(t, cl, "worker-1").Name, podOn(t, cl, "worker-2").Name
	update(t, c, cl, "agent", func(ds *api.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "nginx:1.26" })
	if got := placement(cl); got != "worker-1=nginx:1.25(terminating) worker-2=nginx:1.25" {
		t.Fatalf("first step %s", got)
	}
	runAll(t, c, cl) // worker-1's old pod goes and its new pod is created,
	runAll(t, c, cl) // then runs: now worker-2's turn.
	if got := placement(cl); got != "worker-1=nginx:1.26 worker-2=nginx:1.25(terminating)" {
		t.Fatalf("second step %s", got)
	}
	runAll(t, c, cl)
	runAll(t, c, cl)
	if got := placement(cl); got != "worker-1=nginx:1.26 worker-2=nginx:1.26" {
		t.Fatalf("after rollout %s", got)
	}
	st := getDS(t, cl, "agent").Status
	if st.UpdatedNumberScheduled != 2 || st.NumberAvailable != 2 || st.ObservedGeneration != 2 {
		t.Fatalf("status %+v", st)
	}
	if p := podOn(t, cl, "worker-2"); p.Labels["pod-template-generation"] != "2" {
		t.Fatalf("labels %v", p.Labels)
	}
	evs := events(cl, "agent")
	want := []string{
		"SuccessfulDelete Deleted pod: " + old1,
		"SuccessfulCreate Created pod: " + podOn(t, cl, "worker-1").Name,
		"SuccessfulDelete Deleted pod: " + old2,
		"SuccessfulCreate Created pod: " + podOn(t, cl, "worker-2").Name,
	}
	if got := strings.Join(evs[2:], "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("events\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	var revs []int64
	for _, cr := range client.List[*api.ControllerRevision](cl, "default", nil) {
		revs = append(revs, cr.Revision)
	}
	if len(revs) != 2 {
		t.Fatalf("revisions %v", revs)
	}
}

// maxSurge starts the new pod beside the old one and removes the old one
// once the new one is available.
func TestRollingUpdateWithSurge(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "worker-1", nil)
	ds := newDS("agent")
	one, zero := intOrStr(1), intOrStr(0)
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
		RollingUpdate: &api.RollingUpdateDaemonSet{MaxSurge: &one, MaxUnavailable: &zero}}
	mustCreate(t, c, cl, ds)
	runAll(t, c, cl)
	update(t, c, cl, "agent", func(ds *api.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "nginx:1.26" })
	// Both pods were made at the same instant: compare as a set.
	has := func(want ...string) bool {
		got := " " + placement(cl) + " "
		for _, w := range want {
			if !strings.Contains(got, " "+w+" ") {
				return false
			}
		}
		return len(strings.Fields(got)) == len(want)
	}
	if !has("worker-1=nginx:1.25", "worker-1=nginx:1.26") {
		t.Fatalf("surge %s", placement(cl))
	}
	runAll(t, c, cl)
	if !has("worker-1=nginx:1.25(terminating)", "worker-1=nginx:1.26") {
		t.Fatalf("after the new pod is ready %s", placement(cl))
	}
}

// OnDelete leaves pods on the old template until they are deleted.
func TestOnDeleteUpdateStrategy(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "worker-1", nil)
	addNode(t, c, cl, "worker-2", nil)
	ds := newDS("agent")
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	mustCreate(t, c, cl, ds)
	runAll(t, c, cl)
	update(t, c, cl, "agent", func(ds *api.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "nginx:1.26" })
	runAll(t, c, cl)
	if got := placement(cl); got != "worker-1=nginx:1.25 worker-2=nginx:1.25" {
		t.Fatalf("placement %s", got)
	}
	if st := getDS(t, cl, "agent").Status; st.UpdatedNumberScheduled != 0 {
		t.Fatalf("status %+v", st)
	}
	if err := client.Delete[*api.Pod](cl, "default", podOn(t, cl, "worker-2").Name, api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	runAll(t, c, cl)
	runAll(t, c, cl)
	if got := placement(cl); got != "worker-1=nginx:1.25 worker-2=nginx:1.26" {
		t.Fatalf("placement after delete %s", got)
	}
}

// A failed daemon pod is deleted and replaced; a second failure on the same
// node waits out the back-off.
func TestFailedPodReplacedWithBackoff(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "worker-1", nil)
	mustCreate(t, c, cl, newDS("agent"))
	runAll(t, c, cl)
	first := podOn(t, cl, "worker-1").Name
	setPhase(t, c, cl, first, api.PodFailed, false)
	evs := strings.Join(events(cl, "agent"), "\n")
	if !strings.Contains(evs, "FailedDaemonPod Found failed daemon pod default/"+first+" on node worker-1, will try to kill it") ||
		!strings.Contains(evs, "SuccessfulDelete Deleted pod: "+first) {
		t.Fatalf("events\n%s", evs)
	}
	runAll(t, c, cl)
	second := podOn(t, cl, "worker-1").Name
	if second == first {
		t.Fatal("failed pod not replaced")
	}
	setPhase(t, c, cl, second, api.PodFailed, false)
	if podOn(t, cl, "worker-1").Name != second {
		t.Fatal("second failure replaced at once, without back-off")
	}
	c.Advance(3 * time.Second)
	runAll(t, c, cl)
	if podOn(t, cl, "worker-1").Name == second {
		t.Fatal("second failed pod never replaced")
	}
}

// Without a template generation annotation, a selector matching everything
// is refused with upstream's warning.
func TestEmptySelectorIsRefused(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "worker-1", nil)
	ds := newDS("all")
	ds.Spec.Selector = &api.LabelSelector{}
	if _, err := client.Create(cl, ds); err != nil {
		// Validation may already refuse it; nothing for the controller to do.
		return
	}
	c.Settle()
	if got := strings.Join(events(cl, "all"), "\n"); got != "SelectingAll This daemon set is selecting all pods. A non-empty selector is required." {
		t.Fatalf("events %q", got)
	}
}
