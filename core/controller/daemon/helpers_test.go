package daemon_test

import (
	"sort"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/daemon"
	"kubeplay/core/sim"
)

// newCluster runs only the DaemonSet controller; the test plays the
// scheduler and the kubelets.
func newCluster(t *testing.T) (*sim.Cluster, client.Interface) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(daemon.NewDaemonSetsController(c.ControllerContext()))
	return c, c.Client("test")
}

// addNode creates a node with labels and taints.
func addNode(t *testing.T, c *sim.Cluster, cl client.Interface, name string, labels map[string]string, taints ...api.Taint) {
	t.Helper()
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}, Spec: api.NodeSpec{Taints: taints}}
	if _, err := client.Create(cl, n); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

var controlPlaneTaint = api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}

func newDS(name string) *api.DaemonSet {
	return &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
}

func mustCreate(t *testing.T, c *sim.Cluster, cl client.Interface, ds *api.DaemonSet) {
	t.Helper()
	if _, err := client.Create(cl, ds); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

func getDS(t *testing.T, cl client.Interface, name string) *api.DaemonSet {
	t.Helper()
	ds, err := client.Get[*api.DaemonSet](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func update(t *testing.T, c *sim.Cluster, cl client.Interface, name string, fn func(*api.DaemonSet)) {
	t.Helper()
	ds := getDS(t, cl, name).DeepCopy()
	fn(ds)
	if _, err := client.Update(cl, ds); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

// target is the node a daemon pod's affinity pins it to.
func target(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	n, _ := daemon.GetTargetNodeName(p)
	return n
}

// placement is "node=image…" for live pods, sorted by node then
// creation; terminating pods are marked.
func placement(cl client.Interface) string {
	ps := client.List[*api.Pod](cl, "default", nil)
	sort.SliceStable(ps, func(i, j int) bool {
		if target(ps[i]) != target(ps[j]) {
			return target(ps[i]) < target(ps[j])
		}
		return ps[i].CreationTimestamp.Before(ps[j].CreationTimestamp.Time)
	})
	var s []string
	for _, p := range ps {
		e := target(p) + "=" + p.Spec.Containers[0].Image
		if p.DeletionTimestamp != nil {
			e += "(terminating)"
		}
		s = append(s, e)
	}
	return strings.Join(s, " ")
}

// runAll plays scheduler and kubelets: each pod is bound to the node its
// affinity names and becomes Running and Ready; terminating pods go.
func runAll(t *testing.T, c *sim.Cluster, cl client.Interface) {
	t.Helper()
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if p.DeletionTimestamp != nil {
			if err := client.Delete[*api.Pod](cl, "default", p.Name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if p.Status.Phase == api.PodRunning {
			continue
		}
		if p.Spec.NodeName == "" {
			if err := cl.Bind("default", &api.Binding{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: "default"},
				Target: api.ObjectReference{Kind: "Node", Name: target(p)}}); err != nil {
				t.Fatal(err)
			}
		}
		setPhase(t, c, cl, p.Name, api.PodRunning, true)
	}
	c.Settle()
}

func setPhase(t *testing.T, c *sim.Cluster, cl client.Interface, name, phase string, ready bool) {
	t.Helper()
	p, err := client.Get[*api.Pod](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	p = p.DeepCopy()
	p.Status.Phase = phase
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: api.NewTime(c.Now())}}
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

// events lists "Reason Message" of a DaemonSet's events, in order.
func events(cl client.Interface, name string) []string {
	var out []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Kind == "DaemonSet" && e.InvolvedObject.Name == name {
			out = append(out, e.Reason+" "+e.Message)
		}
	}
	return out
}

func podOn(t *testing.T, cl client.Interface, node string) *api.Pod {
	t.Helper()
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if target(p) == node && p.DeletionTimestamp == nil {
			return p
		}
	}
	t.Fatalf("no pod on %s", node)
	return nil
}
