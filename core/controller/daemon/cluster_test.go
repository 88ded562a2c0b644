package daemon_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/daemon"
	"kubeplay/core/sim"
)

// On a whole cluster the scheduler places each daemon pod on the node its
// affinity names and the kubelets run them.
func TestDaemonSetOnWholeCluster(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddWorker(daemon.NewDaemonSetsController(c.ControllerContext()))
	cl := c.Client("test")
	for _, n := range []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "cp", Labels: map[string]string{"node-role.kubernetes.io/control-plane": ""}},
			Spec: api.NodeSpec{Taints: []api.Taint{controlPlaneTaint}}},
		{ObjectMeta: api.ObjectMeta{Name: "w1"}},
		{ObjectMeta: api.ObjectMeta{Name: "w2"}},
	} {
		if _, err := client.Create(cl, n); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(10 * time.Second)
	if _, err := client.Create(cl, newDS("agent")); err != nil {
		t.Fatal(err)
	}
	c.Advance(30 * time.Second)
	got := map[string]string{}
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		got[p.Spec.NodeName] = p.Status.Phase
	}
	if len(got) != 2 || got["w1"] != api.PodRunning || got["w2"] != api.PodRunning {
		t.Fatalf("pods by node %v", got)
	}
	st := getDS(t, cl, "agent").Status
	if st.DesiredNumberScheduled != 2 || st.NumberReady != 2 || st.NumberAvailable != 2 {
		t.Fatalf("status %+v", st)
	}
}
