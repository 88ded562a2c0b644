package statefulset_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/controller/statefulset"
	"kubeplay/core/sim"
)

// newCluster runs only the StatefulSet controller: the test plays the
// scheduler and the kubelet.
func newCluster(t *testing.T) (*sim.Cluster, client.Interface) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(newController(c))
	return c, c.Client("test")
}

func newController(c *sim.Cluster) *statefulset.StatefulSetController {
	return statefulset.NewStatefulSetController(c.ControllerContext())
}

// newSet is StatefulSet name with replicas nginx pods behind service
// "nginx", and a claim template "www" when withClaims.
func newSet(name string, replicas int32, withClaims bool) *api.StatefulSet {
	set := &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.StatefulSetSpec{
			Replicas:    api.Int32(replicas),
			ServiceName: "nginx",
			Selector:    &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.25"}}},
			},
		},
	}
	if withClaims {
		set.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{{
			ObjectMeta: api.ObjectMeta{Name: "www"},
			Spec: api.PersistentVolumeClaimSpec{
				AccessModes: []string{"ReadWriteOnce"},
				Resources:   api.VolumeResourceRequirements{Requests: api.ResourceList{"storage": resource.MustParse("1Gi")}},
			},
		}}
	}
	return set
}

func mustCreate(t *testing.T, cl client.Interface, set *api.StatefulSet) *api.StatefulSet {
	t.Helper()
	out, err := client.Create(cl, set)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func getSet(t *testing.T, cl client.Interface, name string) *api.StatefulSet {
	t.Helper()
	s, err := client.Get[*api.StatefulSet](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// update changes a set with fn and writes it.
func update(t *testing.T, cl client.Interface, name string, fn func(*api.StatefulSet)) {
	t.Helper()
	s := getSet(t, cl, name).DeepCopy()
	fn(s)
	if _, err := client.Update(cl, s); err != nil {
		t.Fatal(err)
	}
}

// pods lists the pods of the default namespace by ordinal.
func pods(cl client.Interface) []*api.Pod {
	out := client.List[*api.Pod](cl, "default", nil)
	sort.Slice(out, func(i, j int) bool { return ordinal(out[i]) < ordinal(out[j]) })
	return out
}

func ordinal(p *api.Pod) int {
	n, _ := strconv.Atoi(p.Name[strings.LastIndex(p.Name, "-")+1:])
	return n
}

// podStates is "web-0:Running/ready web-1:Pending …", terminating pods
// marked with a trailing "(terminating)".
func podStates(cl client.Interface) string {
	var s []string
	for _, p := range pods(cl) {
		st := p.Name + ":" + p.Status.Phase
		if api.IsPodReady(p) {
			st += "/ready"
		}
		if p.DeletionTimestamp != nil {
			st += "(terminating)"
		}
		s = append(s, st)
	}
	return strings.Join(s, " ")
}

// revisions is "web-0=<hash label> …".
func revisions(cl client.Interface) string {
	var s []string
	for _, p := range pods(cl) {
		s = append(s, p.Name+"="+p.Labels["controller-revision-hash"])
	}
	return strings.Join(s, " ")
}

// runPod plays scheduler and kubelet: pod name is bound to node-1 and
// becomes Running and Ready.
func runPod(t *testing.T, c *sim.Cluster, cl client.Interface, name string) {
	t.Helper()
	p, err := client.Get[*api.Pod](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec.NodeName == "" {
		if err := cl.Bind("default", &api.Binding{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Target: api.ObjectReference{Kind: "Node", Name: "node-1"}}); err != nil {
			t.Fatal(err)
		}
		p, _ = client.Get[*api.Pod](cl, "default", name)
	}
	p = p.DeepCopy()
	now := api.NewTime(c.Now())
	p.Status.Phase = api.PodRunning
	p.Status.PodIP = "10.244.0." + strconv.Itoa(ordinal(p)+1)
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: now}}
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

// setPhase sets a pod's phase (and unready), as a kubelet reports a crash
// or a container that cannot start.
func setPhase(t *testing.T, c *sim.Cluster, cl client.Interface, name, phase string) {
	t.Helper()
	p, err := client.Get[*api.Pod](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	p = p.DeepCopy()
	p.Status.Phase = phase
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(c.Now())}}
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

// reap plays the kubelet finishing graceful deletions: every terminating
// pod goes away.
func reap(t *testing.T, c *sim.Cluster, cl client.Interface) {
	t.Helper()
	for _, p := range pods(cl) {
		if p.DeletionTimestamp != nil {
			if err := client.Delete[*api.Pod](cl, "default", p.Name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.Settle()
}

func deletePod(t *testing.T, c *sim.Cluster, cl client.Interface, name string) {
	t.Helper()
	if err := client.Delete[*api.Pod](cl, "default", name, api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
}

// events lists the messages of the events about a StatefulSet, in order.
func events(cl client.Interface, set string) []string {
	var out []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Kind == "StatefulSet" && e.InvolvedObject.Name == set {
			out = append(out, e.Reason+" "+e.Message)
		}
	}
	return out
}

func claimNames(cl client.Interface) string {
	var s []string
	for _, c := range client.List[*api.PersistentVolumeClaim](cl, "default", nil) {
		s = append(s, c.Name)
	}
	return strings.Join(s, " ")
}
