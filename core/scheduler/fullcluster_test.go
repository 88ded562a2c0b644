package scheduler_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/scheduler"
	"kubeplay/core/sim"
)

// With the whole control plane and kubelets running, scheduled pods start.
func TestWithKubelets(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 3})
	defer c.Close()
	c.AddWorker(scheduler.New(c.ControllerContext()))
	c.AddDefaultNode()
	cl := c.Client("test")
	if _, err := client.Create(cl, pod("web")); err != nil {
		t.Fatal(err)
	}
	c.Advance(20 * time.Second)
	p, err := client.Get[*api.Pod](cl, "default", "web")
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec.NodeName != sim.DefaultNodeName {
		t.Fatalf("node %q; events %v", p.Spec.NodeName, p.Status)
	}
	if p.Status.Phase != api.PodRunning {
		t.Fatalf("phase %s", p.Status.Phase)
	}
	var reasons []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Name == "web" {
			reasons = append(reasons, e.Reason)
		}
	}
	if len(reasons) == 0 || reasons[0] != "Scheduled" {
		t.Fatalf("events %v", reasons)
	}
}
