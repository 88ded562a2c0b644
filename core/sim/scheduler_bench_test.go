package sim

import (
	"fmt"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/scheduler"
)

// benchmarkSchedulerThroughput measures the scheduler alone: nodes nodes
// that already report Ready and their room, and pods pending pods of one
// ReplicaSet created before the clock starts, sitting in the scheduler's
// queue. The timed part is the settle that pops each pod and runs
// scheduleOne (every default plugin, the snapshot, the bind and its event)
// until the queue is empty; no kubelet or controller runs.
func benchmarkSchedulerThroughput(b *testing.B, pods, nodes int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := NewDefault(Options{Seed: 1, Bare: true})
		yieldLikeAHost(c)
		c.AddWorker(scheduler.New(c.ControllerContext()))
		cl := c.Client("bench")
		for j := 0; j < nodes; j++ {
			createReadyNode(b, cl, fmt.Sprintf("node%04d", j))
		}
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}}}
		rs, err := client.Create(cl, rs)
		if err != nil {
			b.Fatal(err)
		}
		c.Settle()
		owner := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: api.Bool(true)}
		for j := 0; j < pods; j++ {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%05d", j), Namespace: "default",
				Labels: map[string]string{"app": "web"}, OwnerReferences: []api.OwnerReference{owner}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}
			if _, err := client.Create(cl, p); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		stopProfile := startTimedProfile(b)
		c.Settle()
		stopProfile()
		b.StopTimer()
		for _, p := range client.List[*api.Pod](cl, "default", nil) {
			if p.Spec.NodeName == "" {
				b.Fatalf("pod %s was not scheduled", p.Name)
			}
		}
		c.Close()
	}
	b.ReportMetric(float64(pods)*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
}

// createReadyNode creates a node and posts the status its kubelet would:
// Ready, with four cores, 8Gi and room for 110 pods.
func createReadyNode(b *testing.B, cl client.Interface, name string) {
	room := api.ResourceList{
		api.ResourceCPU:    resource.MustParse("4"),
		api.ResourceMemory: resource.MustParse("8Gi"),
		api.ResourcePods:   resource.MustParse("110"),
	}
	n, err := client.Create(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}}})
	if err != nil {
		b.Fatal(err)
	}
	n = n.DeepCopy()
	n.Status = api.NodeStatus{Capacity: room, Allocatable: room,
		Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}
	if _, err := client.UpdateStatus(cl, n); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSchedulerThroughput5000Nodes is issue 7's throughput target:
// at 5,000 nodes the scheduler places at least 5,000 pods a second.
func BenchmarkSchedulerThroughput5000Nodes(b *testing.B) {
	benchmarkSchedulerThroughput(b, 10000, 5000)
}
