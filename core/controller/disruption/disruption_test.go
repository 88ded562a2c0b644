package disruption_test

import (
	"fmt"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
	"kubeplay/core/controller/disruption"
	"kubeplay/core/sim"
)

func newCluster() *sim.Cluster {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(disruption.NewDisruptionController(c.ControllerContext()))
	return c
}

// pod creates a Running pod labelled app=web, Ready or not, controlled by
// owner when given.
func pod(t *testing.T, c *sim.Cluster, name string, ready bool, owner *api.OwnerReference) {
	t.Helper()
	cl := c.Client("test")
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-a", Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
	if owner != nil {
		p.OwnerReferences = []api.OwnerReference{*owner}
	}
	p, err := client.Create(cl, p)
	if err != nil {
		t.Fatal(err)
	}
	setReady(t, c, name, ready)
}

func setReady(t *testing.T, c *sim.Cluster, name string, ready bool) {
	t.Helper()
	cl := c.Client("test")
	p, err := client.Get[*api.Pod](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	p = p.DeepCopy()
	p.Status.Phase = api.PodRunning
	status := api.ConditionFalse
	if ready {
		status = api.ConditionTrue
	}
	api.UpdatePodCondition(&p.Status, &api.PodCondition{Type: api.PodReady, Status: status}, api.NewTime(c.Now()))
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
}

func budget(t *testing.T, c *sim.Cluster, minAvailable, maxUnavailable *intstr.IntOrString) {
	t.Helper()
	pdb := &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "web-pdb", Namespace: "default"},
		Spec: api.PodDisruptionBudgetSpec{
			MinAvailable: minAvailable, MaxUnavailable: maxUnavailable,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		},
	}
	if _, err := client.Create(c.Client("test"), pdb); err != nil {
		t.Fatal(err)
	}
}

func status(t *testing.T, c *sim.Cluster) api.PodDisruptionBudgetStatus {
	t.Helper()
	pdb, err := client.Get[*api.PodDisruptionBudget](c.Client("test"), "default", "web-pdb")
	if err != nil {
		t.Fatal(err)
	}
	return pdb.Status
}

// summary prints the counts and the condition the way a test reads them.
func summary(st api.PodDisruptionBudgetStatus) string {
	s := fmt.Sprintf("healthy %d/%d expected %d allowed %d gen %d", st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods, st.DisruptionsAllowed, st.ObservedGeneration)
	for _, cond := range st.Conditions {
		s += fmt.Sprintf(" %s=%s %s %q", cond.Type, cond.Status, cond.Reason, cond.Message)
	}
	return s
}

func events(c *sim.Cluster, reason string) []string {
	var out []string
	for _, e := range client.List[*api.Event](c.Client("test"), "", nil) {
		if e.Reason == reason {
			out = append(out, e.InvolvedObject.Kind+"/"+e.InvolvedObject.Name+": "+e.Message)
		}
	}
	return out
}

func intOrString(v intstr.IntOrString) *intstr.IntOrString { return &v }

func TestMinAvailableCountsReadyPods(t *testing.T) {
	c := newCluster()
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		pod(t, c, name, true, nil)
	}
	budget(t, c, intOrString(intstr.FromInt(2)), nil)
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 3/2 expected 3 allowed 1 gen 1 DisruptionAllowed=True SufficientPods ""`; got != want {
		t.Errorf("status = %s\nwant     %s", got, want)
	}
	setReady(t, c, "web-3", false)
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 2/2 expected 3 allowed 0 gen 1 DisruptionAllowed=False InsufficientPods ""`; got != want {
		t.Errorf("status = %s\nwant     %s", got, want)
	}
}

// maxUnavailable and percentages count the pods' controllers' scale: the
// Deployment's replicas for pods of its ReplicaSet.
func TestMaxUnavailableUsesControllerScale(t *testing.T) {
	c := newCluster()
	cl := c.Client("test")
	labels := map[string]string{"app": "web"}
	tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	d, err := client.Create(cl, &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:       api.DeploymentSpec{Replicas: api.Int32(4), Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl},
	})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := client.Create(cl, &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web-abc", Namespace: "default", OwnerReferences: []api.OwnerReference{
			{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.UID, Controller: api.Bool(true)}}},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(4), Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl},
	})
	if err != nil {
		t.Fatal(err)
	}
	ref := &api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Bool(true)}
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		pod(t, c, name, true, ref)
	}
	budget(t, c, nil, intOrString(intstr.FromString("50%")))
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 3/2 expected 4 allowed 1 gen 1 DisruptionAllowed=True SufficientPods ""`; got != want {
		t.Errorf("status = %s\nwant     %s", got, want)
	}
}

// A pod whose controller has no scale cannot be counted: the budget fails
// safe, allowing nothing and saying why.
func TestUncountableControllerFailsSafe(t *testing.T) {
	c := newCluster()
	pod(t, c, "web-1", true, &api.OwnerReference{APIVersion: "batch/v1", Kind: "Job", Name: "pi", UID: "u1", Controller: api.Bool(true)})
	budget(t, c, nil, intOrString(intstr.FromInt(1)))
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 0/0 expected 0 allowed 0 gen 0 DisruptionAllowed=False SyncFailed "jobs.batch does not implement the scale subresource"`; got != want {
		t.Errorf("status = %s\nwant     %s", got, want)
	}
	if got := events(c, "CalculateExpectedPodCountFailed"); len(got) != 1 || got[0] != "PodDisruptionBudget/web-pdb: Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource" {
		t.Errorf("events = %q", got)
	}
}

func TestNoPodsEvent(t *testing.T) {
	c := newCluster()
	budget(t, c, intOrString(intstr.FromInt(1)), nil)
	c.Settle()
	if got := events(c, "NoPods"); len(got) != 1 || got[0] != "PodDisruptionBudget/web-pdb: No matching pods found" {
		t.Errorf("events = %q", got)
	}
	if got, want := summary(status(t, c)), `healthy 0/1 expected 0 allowed 0 gen 1 DisruptionAllowed=False InsufficientPods ""`; got != want {
		t.Errorf("status = %s\nwant     %s", got, want)
	}
}

// An eviction spends a disruption and notes the pod; the pod does not count
// as healthy meanwhile. A pod evicted but never deleted is dropped from
// disruptedPods after two minutes, and counts again.
func TestEvictionThroughTheAPIAndDisruptedPods(t *testing.T) {
	c := newCluster()
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		pod(t, c, name, true, nil)
	}
	budget(t, c, intOrString(intstr.FromInt(1)), nil)
	c.Settle()
	if err := c.API.Evict("default", "web-1", &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "web-1"}}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 2/1 expected 3 allowed 1 gen 1 DisruptionAllowed=True SufficientPods ""`; got != want {
		t.Errorf("after one eviction: %s\nwant %s", got, want)
	}
	if st := status(t, c); len(st.DisruptedPods) != 0 {
		t.Errorf("a terminating pod stays in disruptedPods: %v", st.DisruptedPods)
	}

	// An approved eviction whose delete never came (written by hand here).
	pdb, _ := client.Get[*api.PodDisruptionBudget](c.Client("test"), "default", "web-pdb")
	pdb = pdb.DeepCopy()
	pdb.Status.DisruptedPods = map[string]api.Time{"web-2": api.NewTime(c.Now())}
	if _, err := client.UpdateStatus(c.Client("test"), pdb); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if got, want := summary(status(t, c)), `healthy 1/1 expected 3 allowed 0 gen 1 DisruptionAllowed=False InsufficientPods ""`; got != want {
		t.Errorf("with web-2 about to go: %s\nwant %s", got, want)
	}
	c.Advance(disruption.DeletionTimeout + time.Second)
	if got, want := summary(status(t, c)), `healthy 2/1 expected 3 allowed 1 gen 1 DisruptionAllowed=True SufficientPods ""`; got != want {
		t.Errorf("after the deletion timeout: %s\nwant %s", got, want)
	}
	if got := events(c, "NotDeleted"); len(got) != 1 || got[0] != "Pod/web-2: Pod was expected by PDB default/default to be deleted but it wasn't" {
		t.Errorf("events = %q", got)
	}
}

// A DisruptionTarget condition that no deletion followed is reset to False
// after two minutes.
func TestStaleDisruptionConditionIsReset(t *testing.T) {
	c := newCluster()
	pod(t, c, "web-1", true, nil)
	cl := c.Client("test")
	p, _ := client.Get[*api.Pod](cl, "default", "web-1")
	p = p.DeepCopy()
	api.UpdatePodCondition(&p.Status, &api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "EvictionByEvictionAPI"}, api.NewTime(c.Now()))
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
	c.Advance(119 * time.Second)
	cond := func() *api.PodCondition {
		p, _ := client.Get[*api.Pod](cl, "default", "web-1")
		_, c := api.GetPodCondition(&p.Status, api.DisruptionTarget)
		return c
	}
	if got := cond(); got.Status != api.ConditionTrue {
		t.Fatalf("reset early: %+v", got)
	}
	c.Advance(time.Second)
	if got := cond(); got.Status != api.ConditionFalse || got.Reason != "" {
		t.Errorf("condition after 2 minutes = %+v", got)
	}
}
