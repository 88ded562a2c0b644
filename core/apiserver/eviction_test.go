package apiserver

import (
	"testing"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/intstr"
)

// runningPod creates a Running pod on node-a, Ready or not.
func runningPod(t *testing.T, s *Server, name string, ready bool, phase string) *api.Pod {
	t.Helper()
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-a", Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
	o, err := s.Create(s.res("pods"), "default", p, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p = o.(*api.Pod).DeepCopy()
	p.Status.Phase = phase
	status := api.ConditionFalse
	if ready {
		status = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status}}
	o, err = s.Update(s.res("pods"), "default", p, UpdateOptions{Subresource: "status"})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.Pod)
}

// budget creates a PDB selecting app=web whose status, as the disruption
// controller would have written it, allows `allowed` disruptions.
func budget(t *testing.T, s *Server, name string, allowed, current, desired int32) *api.PodDisruptionBudget {
	t.Helper()
	min := intstr.FromInt32(desired)
	pdb := &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec:       api.PodDisruptionBudgetSpec{MinAvailable: &min, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
	}
	o, err := s.Create(s.res("poddisruptionbudgets"), "default", pdb, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pdb = o.(*api.PodDisruptionBudget).DeepCopy()
	pdb.Status = api.PodDisruptionBudgetStatus{
		ObservedGeneration: pdb.Generation, DisruptionsAllowed: allowed,
		CurrentHealthy: current, DesiredHealthy: desired, ExpectedPods: current,
	}
	o, err = s.Update(s.res("poddisruptionbudgets"), "default", pdb, UpdateOptions{Subresource: "status"})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.PodDisruptionBudget)
}

func evict(s *Server, name string, opts *api.DeleteOptions) error {
	return s.Evict("default", name, &api.Eviction{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, DeleteOptions: opts})
}

func getPod(t *testing.T, s *Server, name string) *api.Pod {
	t.Helper()
	o, err := s.Get(s.res("pods"), "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.Pod)
}

func getBudget(t *testing.T, s *Server, name string) *api.PodDisruptionBudget {
	t.Helper()
	o, err := s.Get(s.res("poddisruptionbudgets"), "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.PodDisruptionBudget)
}

func wantEvicted(t *testing.T, s *Server, name string) {
	t.Helper()
	pod := getPod(t, s, name)
	if pod.DeletionTimestamp == nil {
		t.Fatalf("%s not terminating after its eviction", name)
	}
	_, c := api.GetPodCondition(&pod.Status, api.DisruptionTarget)
	if c == nil || c.Status != api.ConditionTrue || c.Reason != "EvictionByEvictionAPI" || c.Message != "Eviction API: evicting" {
		t.Errorf("DisruptionTarget condition = %+v", c)
	}
}

// wantTooManyRequests checks a refusal: 429, upstream's message, and the
// DisruptionBudget cause explaining it.
func wantTooManyRequests(t *testing.T, err error, cause string) {
	t.Helper()
	if !apierrors.IsTooManyRequests(err) {
		t.Fatalf("err = %v, want TooManyRequests", err)
	}
	st := err.(*apierrors.StatusError).ErrStatus
	if st.Code != 429 || st.Message != "Cannot evict pod as it would violate the pod's disruption budget." {
		t.Errorf("status = %d %q", st.Code, st.Message)
	}
	if st.Details == nil || len(st.Details.Causes) != 1 || st.Details.Causes[0].Type != "DisruptionBudget" || st.Details.Causes[0].Message != cause {
		t.Errorf("details = %+v, want cause %q", st.Details, cause)
	}
}

func TestEvictWithoutBudgetDeletesPod(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	if err := evict(s, "web-1", nil); err != nil {
		t.Fatal(err)
	}
	wantEvicted(t, s, "web-1")
	if g := getPod(t, s, "web-1").DeletionGracePeriodSeconds; g == nil || *g != 30 {
		t.Errorf("grace period = %v, want the pod's 30 s", g)
	}
}

func TestEvictUsesDeleteOptions(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	if err := evict(s, "web-1", &api.DeleteOptions{GracePeriodSeconds: api.Int64(5)}); err != nil {
		t.Fatal(err)
	}
	if g := getPod(t, s, "web-1").DeletionGracePeriodSeconds; g == nil || *g != 5 {
		t.Errorf("grace period = %v, want 5", g)
	}
}

// A budget that allows one disruption lets one pod go and records it; the
// next eviction is refused with the budget's numbers.
func TestEvictSpendsBudget(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	runningPod(t, s, "web-2", true, api.PodRunning)
	runningPod(t, s, "web-3", true, api.PodRunning)
	budget(t, s, "web-pdb", 1, 3, 2)

	if err := evict(s, "web-1", nil); err != nil {
		t.Fatal(err)
	}
	wantEvicted(t, s, "web-1")
	pdb := getBudget(t, s, "web-pdb")
	if pdb.Status.DisruptionsAllowed != 0 {
		t.Errorf("disruptionsAllowed = %d, want 0", pdb.Status.DisruptionsAllowed)
	}
	if at, ok := pdb.Status.DisruptedPods["web-1"]; !ok || !at.Equal(t0) {
		t.Errorf("disruptedPods = %v", pdb.Status.DisruptedPods)
	}
	if len(pdb.Status.Conditions) != 1 || pdb.Status.Conditions[0].Status != api.ConditionFalse || pdb.Status.Conditions[0].Reason != "InsufficientPods" {
		t.Errorf("conditions = %+v", pdb.Status.Conditions)
	}

	err := evict(s, "web-2", nil)
	wantTooManyRequests(t, err, "The disruption budget web-pdb needs 2 healthy pods and has 3 currently")
	if p := getPod(t, s, "web-2"); p.DeletionTimestamp != nil || len(p.Status.Conditions) != 1 {
		t.Errorf("refused eviction changed the pod: %+v", p.Status.Conditions)
	}
}

func TestEvictRefusedWhileBudgetStatusIsStale(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	pdb := budget(t, s, "web-pdb", 1, 2, 1).DeepCopy()
	pdb.Spec.MinAvailable = func() *intstr.IntOrString { v := intstr.FromInt(2); return &v }()
	if _, err := s.Update(s.res("poddisruptionbudgets"), "default", pdb, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	wantTooManyRequests(t, evict(s, "web-1", nil), "The disruption budget web-pdb is still being processed by the server.")
}

// Finished, pending and terminating pods go whatever their budget says.
func TestEvictIgnoresBudgetForPodsThatDisruptNothing(t *testing.T) {
	s := newTestServer(t)
	budget(t, s, "web-pdb", 0, 1, 1)
	runningPod(t, s, "done", false, api.PodSucceeded)
	runningPod(t, s, "pending", false, api.PodPending)
	for _, name := range []string{"done", "pending"} {
		if err := evict(s, name, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := s.Get(s.res("pods"), "default", "done"); !apierrors.IsNotFound(err) {
		t.Errorf("the finished pod should be gone at once, err = %v", err)
	}
	wantEvicted(t, s, "pending")
}

// An unready pod does not count as healthy: with the budget otherwise met
// it goes without spending a disruption.
func TestEvictUnreadyPodWithHealthyBudget(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	runningPod(t, s, "web-2", true, api.PodRunning)
	runningPod(t, s, "sick", false, api.PodRunning)
	budget(t, s, "web-pdb", 0, 2, 2)
	if err := evict(s, "sick", nil); err != nil {
		t.Fatal(err)
	}
	wantEvicted(t, s, "sick")
	if pdb := getBudget(t, s, "web-pdb"); len(pdb.Status.DisruptedPods) != 0 {
		t.Errorf("disruptedPods = %v, want none", pdb.Status.DisruptedPods)
	}
}

func TestEvictUnreadyPodAlwaysAllowPolicy(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "sick", false, api.PodRunning)
	pdb := budget(t, s, "web-pdb", 0, 0, 1).DeepCopy()
	policy := api.AlwaysAllow
	pdb.Spec.UnhealthyPodEvictionPolicy = &policy
	if _, err := s.Update(s.res("poddisruptionbudgets"), "default", pdb, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := evict(s, "sick", nil); err != nil {
		t.Fatal(err)
	}
	wantEvicted(t, s, "sick")
}

func TestEvictDryRunChangesNothing(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	budget(t, s, "web-pdb", 1, 2, 1)
	if err := evict(s, "web-1", &api.DeleteOptions{DryRun: []string{"All"}}); err != nil {
		t.Fatal(err)
	}
	if p := getPod(t, s, "web-1"); p.DeletionTimestamp != nil || len(p.Status.Conditions) != 1 {
		t.Error("dry run changed the pod")
	}
	if pdb := getBudget(t, s, "web-pdb"); pdb.Status.DisruptionsAllowed != 1 || len(pdb.Status.DisruptedPods) != 0 {
		t.Errorf("dry run changed the budget: %+v", pdb.Status)
	}
}

func TestEvictErrors(t *testing.T) {
	s := newTestServer(t)
	runningPod(t, s, "web-1", true, api.PodRunning)
	if err := evict(s, "nope", nil); !apierrors.IsNotFound(err) || err.Error() != `pods "nope" not found` {
		t.Errorf("missing pod: %v", err)
	}
	err := s.Evict("default", "web-1", &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "other"}})
	if !apierrors.IsBadRequest(err) || err.Error() != "name in URL does not match name in Eviction object" {
		t.Errorf("name mismatch: %v", err)
	}
	if err := s.Evict("default", "web-1", nil); !apierrors.IsBadRequest(err) {
		t.Errorf("nil eviction: %v", err)
	}

	budget(t, s, "a-pdb", 1, 1, 0)
	budget(t, s, "b-pdb", 1, 1, 0)
	err = evict(s, "web-1", nil)
	if apierrors.CodeForError(err) != 500 || err.Error() != "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support." {
		t.Errorf("two budgets: %v", err)
	}
	if getPod(t, s, "web-1").DeletionTimestamp != nil {
		t.Error("pod deleted despite the error")
	}
}
