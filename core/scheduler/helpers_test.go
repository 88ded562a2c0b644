package scheduler_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/scheduler"
	"kubeplay/core/sim"
)

// cluster is a bare simulated cluster with only the scheduler running.
type cluster struct {
	t     testing.TB
	c     *sim.Cluster
	cl    client.Interface
	sched *scheduler.Scheduler
	start time.Time
}

func newCluster(t testing.TB, seed uint64) *cluster {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: seed, Bare: true})
	s := scheduler.New(c.ControllerContext())
	c.AddWorker(s)
	return &cluster{t: t, c: c, cl: c.Client("test"), sched: s, start: c.Now()}
}

// node is a ready node with the seed's size: 4 cpu, 8Gi, 110 pods.
func node(name string, labels map[string]string, taints ...api.Taint) *api.Node {
	l := map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		l[k] = v
	}
	alloc := api.ResourceList{
		api.ResourceCPU:    resource.MustParse("4"),
		api.ResourceMemory: resource.MustParse("8Gi"),
		api.ResourcePods:   resource.MustParse("110"),
	}
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: l},
		Spec:       api.NodeSpec{Taints: taints},
		Status: api.NodeStatus{
			Capacity: alloc, Allocatable: alloc,
			Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
		},
	}
}

func (c *cluster) addNode(n *api.Node) {
	c.t.Helper()
	status := n.Status
	created, err := client.Create(c.cl, n)
	if err != nil {
		c.t.Fatal(err)
	}
	if created.Status.Allocatable == nil {
		created = created.DeepCopy()
		created.Status = status
		if _, err := client.UpdateStatus(c.cl, created); err != nil {
			c.t.Fatal(err)
		}
	}
	c.c.Settle()
}

func (c *cluster) updateNode(name string, change func(*api.Node)) {
	c.t.Helper()
	n, err := client.Get[*api.Node](c.cl, "", name)
	if err != nil {
		c.t.Fatal(err)
	}
	n = n.DeepCopy()
	change(n)
	if _, err := client.Update(c.cl, n); err != nil {
		c.t.Fatal(err)
	}
	c.c.Settle()
}

func pod(name string, mutate ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "nginx"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx-demo", Image: "linuxduduniao/nginx:v1.0.0"}}},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func (c *cluster) addPod(p *api.Pod) {
	c.t.Helper()
	if _, err := client.Create(c.cl, p); err != nil {
		c.t.Fatal(err)
	}
}

func (c *cluster) get(name string) *api.Pod {
	c.t.Helper()
	p, err := client.Get[*api.Pod](c.cl, "default", name)
	if err != nil {
		c.t.Fatal(err)
	}
	return p
}

func (c *cluster) nodeOf(name string) string { return c.get(name).Spec.NodeName }

// events lists "Type Reason Message" of a pod's events, oldest first.
func (c *cluster) events(name string) []string {
	var out []string
	for _, e := range client.List[*api.Event](c.cl, "default", nil) {
		if e.InvolvedObject.Kind == "Pod" && e.InvolvedObject.Name == name {
			out = append(out, e.Type+" "+e.Reason+" "+e.Message)
		}
	}
	return out
}

func (c *cluster) advance(d time.Duration) { c.c.Advance(d) }

// seedNodes are the six nodes of seed 002 after its labelling: three
// masters with the v1.18 master taint, and three workers.
func (c *cluster) seedNodes() {
	master := api.Taint{Key: "node-role.kubernetes.io/master", Effect: api.TaintEffectNoSchedule}
	for _, n := range []string{"centos-7-51", "centos-7-52", "centos-7-53"} {
		c.addNode(node(n, map[string]string{"node-role.kubernetes.io/master": ""}, master))
	}
	c.addNode(node("centos-7-54", map[string]string{"node-role.kubernetes.io/worker": "", "ssd": "true", "cpu": "high"}))
	c.addNode(node("centos-7-55", map[string]string{"node-role.kubernetes.io/worker": "", "ssd": "true"}))
	c.addNode(node("centos-7-56", map[string]string{"node-role.kubernetes.io/worker": "", "cpu": "high"}))
}

func mustQ(s string) resource.Quantity { return resource.MustParse(s) }

func (c *cluster) deletePod(name string) {
	c.t.Helper()
	if err := client.Delete[*api.Pod](c.cl, "default", name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil {
		c.t.Fatal(err)
	}
	c.c.Settle()
}

func (c *cluster) updateStatus(p *api.Pod) {
	c.t.Helper()
	if _, err := client.UpdateStatus(c.cl, p); err != nil {
		c.t.Fatal(err)
	}
	c.c.Settle()
}

func updatePod(c *cluster, p *api.Pod) (*api.Pod, error) { return client.Update(c.cl, p) }
