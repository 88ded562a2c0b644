package scheduler_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/controller/replicaset"
)

// The cases of seed 002, sections 8.2-8.5 (shared/seeds/real-v1.32/s2-scheduling.session):
// six nodes, three of them tainted masters; workloads placed by nodeName,
// nodeSelector, node affinity, pod affinity and tolerations.

// workload creates a ReplicaSet (its controller runs in the test cluster)
// whose pods carry app=name and whatever spec changes are given.
func (c *cluster) workload(name string, replicas int32, spec func(*api.PodSpec)) {
	c.t.Helper()
	lbl := map[string]string{"app": name}
	rs := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: lbl},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: lbl},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: name + "-demo", Image: "linuxduduniao/nginx:v1.0.0"}}},
			},
		},
	}
	if spec != nil {
		spec(&rs.Spec.Template.Spec)
	}
	if _, err := client.Create(c.cl, rs); err != nil {
		c.t.Fatal(err)
	}
	c.c.Settle()
}

func (c *cluster) deleteWorkload(name string) {
	c.t.Helper()
	if err := client.Delete[*api.ReplicaSet](c.cl, "default", name, api.DeleteOptions{}); err != nil {
		c.t.Fatal(err)
	}
	for _, p := range c.pods(name) {
		_ = client.Delete[*api.Pod](c.cl, "default", p.Name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0)})
	}
	c.c.Settle()
}

func (c *cluster) pods(app string) []*api.Pod {
	sel := labels.SelectorFromSet(labels.Set{"app": app})
	return client.List[*api.Pod](c.cl, "default", func(o api.Object) bool {
		return sel.Matches(labels.Set(o.(*api.Pod).Labels))
	})
}

// placement counts an app's pods per node ("" for pending), as
// `kubectl get pod -o custom-columns=NODE:.spec.nodeName | sort | uniq -c`.
func (c *cluster) placement(app string) map[string]int {
	out := map[string]int{}
	for _, p := range c.pods(app) {
		out[p.Spec.NodeName]++
	}
	return out
}

func seedCluster(t *testing.T) *cluster {
	c := newCluster(t, 2)
	c.c.AddWorker(replicaset.NewReplicaSetController(c.c.ControllerContext()))
	c.seedNodes()
	return c
}

func samePlacement(got, want map[string]int) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func TestSeed002NodeNameBypassesTheScheduler(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, func(s *api.PodSpec) { s.NodeName = "centos-7-56" })
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-56": 5}) {
		t.Fatalf("placement %v", got)
	}
	for _, p := range c.pods("nginx") {
		if ev := c.events(p.Name); len(ev) != 0 {
			t.Fatalf("the scheduler touched %s: %v", p.Name, ev)
		}
	}
}

func TestSeed002NodeSelectorIsAnAnd(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, func(s *api.PodSpec) { s.NodeSelector = map[string]string{"ssd": "true", "cpu": "high"} })
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-54": 5}) {
		t.Fatalf("placement %v", got)
	}
	for _, p := range c.pods("nginx") {
		want := "Normal Scheduled Successfully assigned default/" + p.Name + " to centos-7-54"
		if ev := c.events(p.Name); len(ev) != 1 || ev[0] != want {
			t.Fatalf("events %v, want %q", ev, want)
		}
		if _, cond := api.GetPodCondition(&p.Status, api.PodScheduled); cond == nil || cond.Status != api.ConditionTrue {
			t.Fatalf("PodScheduled %+v", cond)
		}
	}
}

func requiredAffinity(exprs ...api.NodeSelectorRequirement) func(*api.PodSpec) {
	return func(s *api.PodSpec) {
		s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: exprs}},
		}}}
	}
}

func preferredAffinity(weight int32, exprs ...api.NodeSelectorRequirement) func(*api.PodSpec) {
	return func(s *api.PodSpec) {
		s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
			{Weight: weight, Preference: api.NodeSelectorTerm{MatchExpressions: exprs}},
		}}}
	}
}

var (
	noSSD   = api.NodeSelectorRequirement{Key: "ssd", Operator: api.NodeSelectorOpDoesNotExist}
	cpuHigh = api.NodeSelectorRequirement{Key: "cpu", Operator: api.NodeSelectorOpIn, Values: []string{"high"}}
	notHigh = api.NodeSelectorRequirement{Key: "cpu", Operator: api.NodeSelectorOpNotIn, Values: []string{"high"}}
)

func TestSeed002RequiredNodeAffinityPlaces(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, requiredAffinity(noSSD, cpuHigh))
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-56": 5}) {
		t.Fatalf("placement %v", got)
	}
}

const seedNotInMessage = "0/6 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, " +
	"3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. " +
	"preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling."

func TestSeed002RequiredNodeAffinityUnsatisfiable(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, requiredAffinity(noSSD, notHigh))
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"": 5}) {
		t.Fatalf("placement %v", got)
	}
	for _, p := range c.pods("nginx") {
		if ev := c.events(p.Name); len(ev) != 1 || ev[0] != "Warning FailedScheduling "+seedNotInMessage {
			t.Fatalf("events %q", ev)
		}
		_, cond := api.GetPodCondition(&p.Status, api.PodScheduled)
		if cond == nil || cond.Status != api.ConditionFalse || cond.Reason != "Unschedulable" || cond.Message != seedNotInMessage {
			t.Fatalf("PodScheduled %+v", cond)
		}
		if q := c.sched.QueueOf("default", p.Name); q != "Unschedulable" {
			t.Fatalf("%s waits in %q", p.Name, q)
		}
	}
}

func TestSeed002PreferredNodeAffinityWithoutMatchSpreads(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, preferredAffinity(5, noSSD, notHigh))
	got := c.placement("nginx")
	for _, n := range []string{"centos-7-54", "centos-7-55", "centos-7-56"} {
		if got[n] == 0 || got[n] > 2 {
			t.Fatalf("placement %v: the workers should share the pods", got)
		}
	}
}

func TestSeed002PreferredNodeAffinityWeighs(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 5, preferredAffinity(10, noSSD, cpuHigh))
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-56": 5}) {
		t.Fatalf("placement %v", got)
	}
}

func podAffinityToNginx(required bool) func(*api.PodSpec) {
	term := api.PodAffinityTerm{
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
		Namespaces:    []string{"default"},
		TopologyKey:   "cpu",
	}
	return func(s *api.PodSpec) {
		if required {
			s.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term}}}
		} else {
			s.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: term}}}}
		}
	}
}

func TestSeed002PodAffinityByTopologyKey(t *testing.T) {
	c := seedCluster(t)
	c.updateNode("centos-7-55", func(n *api.Node) { n.Labels["cpu"] = "slow" })
	c.workload("nginx", 1, requiredAffinity(noSSD, cpuHigh))
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-56": 1}) {
		t.Fatalf("nginx placement %v", got)
	}
	// Required: the domain cpu=high holds nginx, so 54 and 56 qualify, 55 (cpu=slow) does not.
	c.workload("slb", 5, podAffinityToNginx(true))
	got := c.placement("slb")
	if got["centos-7-54"]+got["centos-7-56"] != 5 || got["centos-7-54"] == 0 || got["centos-7-56"] == 0 {
		t.Fatalf("slb placement %v", got)
	}
	c.deleteWorkload("slb")

	// Preferred: after 54 becomes cpu=slow, only 56 shares nginx's domain.
	c.updateNode("centos-7-54", func(n *api.Node) { n.Labels["cpu"] = "slow" })
	c.workload("slb", 5, podAffinityToNginx(false))
	if got := c.placement("slb"); !samePlacement(got, map[string]int{"centos-7-56": 5}) {
		t.Fatalf("preferred slb placement %v", got)
	}
}

func TestSeed002PodAffinityWithoutMatchingPod(t *testing.T) {
	c := seedCluster(t)
	c.workload("slb", 1, podAffinityToNginx(true))
	p := c.pods("slb")[0]
	want := "Warning FailedScheduling 0/6 nodes are available: 3 node(s) didn't match pod affinity rules, " +
		"3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. " +
		"preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling."
	if ev := c.events(p.Name); len(ev) != 1 || ev[0] != want {
		t.Fatalf("events %q\nwant %q", ev, want)
	}
	// The first matching pod arriving moves it back to be scheduled.
	c.workload("nginx", 1, requiredAffinity(noSSD, cpuHigh))
	c.advance(time.Second)
	if n := c.nodeOf(p.Name); n != "centos-7-54" && n != "centos-7-56" {
		t.Fatalf("slb on %q after nginx arrived", n)
	}
}

func TestSeed002Taints(t *testing.T) {
	c := seedCluster(t)
	c.workload("nginx", 6, nil)
	if got := c.placement("nginx"); !samePlacement(got, map[string]int{"centos-7-54": 2, "centos-7-55": 2, "centos-7-56": 2}) {
		t.Fatalf("placement %v", got)
	}
	// NoSchedule keeps running pods; new ones go elsewhere.
	c.updateNode("centos-7-54", func(n *api.Node) {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "monitor", Value: "true", Effect: api.TaintEffectNoSchedule})
	})
	if got := c.placement("nginx"); got["centos-7-54"] != 2 {
		t.Fatalf("a NoSchedule taint moved pods: %v", got)
	}
	c.workload("nginx2", 6, nil)
	if got := c.placement("nginx2"); !samePlacement(got, map[string]int{"centos-7-55": 3, "centos-7-56": 3}) {
		t.Fatalf("new pods placement %v", got)
	}
	// NoExecute also keeps new pods off (the eviction is the taint manager's).
	c.updateNode("centos-7-55", func(n *api.Node) {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "monitor", Value: "true", Effect: api.TaintEffectNoExecute})
	})
	c.workload("nginx3", 2, nil)
	if got := c.placement("nginx3"); !samePlacement(got, map[string]int{"centos-7-56": 2}) {
		t.Fatalf("placement after NoExecute %v", got)
	}
}

func TestSeed002DedicatedNode(t *testing.T) {
	c := seedCluster(t)
	c.updateNode("centos-7-56", func(n *api.Node) {
		n.Labels["prometheus"] = "true"
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "monitor", Value: "true", Effect: api.TaintEffectNoSchedule})
	})
	// Without the toleration, the dedicated node refuses it and no other node matches.
	c.workload("lost", 1, func(s *api.PodSpec) { s.NodeSelector = map[string]string{"prometheus": "true"} })
	lost := c.pods("lost")[0]
	want := "Warning FailedScheduling 0/6 nodes are available: 1 node(s) had untolerated taint {monitor: true}, " +
		"2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. " +
		"preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling."
	if ev := c.events(lost.Name); len(ev) != 1 || ev[0] != want {
		t.Fatalf("events %q\nwant %q", ev, want)
	}
	c.workload("prometheus", 1, func(s *api.PodSpec) {
		s.NodeSelector = map[string]string{"prometheus": "true"}
		s.Tolerations = []api.Toleration{{Key: "monitor", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	})
	if got := c.placement("prometheus"); !samePlacement(got, map[string]int{"centos-7-56": 1}) {
		t.Fatalf("placement %v", got)
	}
	// Other pods no longer go to the dedicated node.
	c.workload("nginx", 4, nil)
	got := c.placement("nginx")
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != "centos-7-54,centos-7-55" {
		t.Fatalf("placement %v", got)
	}
}
