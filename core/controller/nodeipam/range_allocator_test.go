package nodeipam_test

import (
	"net/netip"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/nodeipam"
	"kubeplay/core/sim"
)

func node(name, cidr string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
	if cidr != "" {
		n.Spec.PodCIDR, n.Spec.PodCIDRs = cidr, []string{cidr}
	}
	return n
}

func TestNodesGetPodCIDRs(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	cl := c.Client("test")
	// A node that comes with its block keeps it and the block is not reused.
	if _, err := client.Create(cl, node("pre", "10.244.1.0/24")); err != nil {
		t.Fatal(err)
	}
	c.AddWorker(nodeipam.NewRangeAllocator(c.ControllerContext()))
	for _, n := range []string{"control-plane", "worker", "worker2"} {
		if _, err := client.Create(cl, node(n, "")); err != nil {
			t.Fatal(err)
		}
		c.Settle()
	}
	want := map[string]string{"control-plane": "10.244.0.0/24", "pre": "10.244.1.0/24", "worker": "10.244.2.0/24", "worker2": "10.244.3.0/24"}
	for name, cidr := range want {
		n, err := client.Get[*api.Node](cl, "", name)
		if err != nil {
			t.Fatal(err)
		}
		if n.Spec.PodCIDR != cidr || len(n.Spec.PodCIDRs) != 1 || n.Spec.PodCIDRs[0] != cidr {
			t.Errorf("%s: podCIDR %q podCIDRs %v, want %s", name, n.Spec.PodCIDR, n.Spec.PodCIDRs, cidr)
		}
	}
	// A deleted node's block goes back to the pool; the allocator moves on
	// round-robin, so the next node gets the next block, not the freed one.
	if err := client.Delete[*api.Node](cl, "", "worker", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if _, err := client.Create(cl, node("worker3", "")); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	n, _ := client.Get[*api.Node](cl, "", "worker3")
	if n.Spec.PodCIDR != "10.244.4.0/24" {
		t.Errorf("worker3: podCIDR %q, want 10.244.4.0/24", n.Spec.PodCIDR)
	}
}

func TestExhaustionRecordsEvent(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	cl := c.Client("test")
	r, err := nodeipam.NewRangeAllocatorFor(c.ControllerContext(), netip.MustParsePrefix("10.244.0.0/24"), nodeipam.DefaultServiceCIDR, 24)
	if err != nil {
		t.Fatal(err)
	}
	c.AddWorker(r)
	for _, n := range []string{"a", "b"} {
		if _, err := client.Create(cl, node(n, "")); err != nil {
			t.Fatal(err)
		}
		c.Settle()
	}
	b, _ := client.Get[*api.Node](cl, "", "b")
	if b.Spec.PodCIDR != "" {
		t.Errorf("b got %q from an exhausted range", b.Spec.PodCIDR)
	}
	var found bool
	for _, e := range client.List[*api.Event](cl, "", nil) {
		if e.InvolvedObject.Kind == "Node" && e.InvolvedObject.Name == "b" && e.Reason == "CIDRNotAvailable" {
			found = true
			if e.Message != "Node b status is now: CIDRNotAvailable" || e.Source.Component != "cidrAllocator" || e.Type != "Normal" {
				t.Errorf("event = %s %s %q from %s", e.Type, e.Reason, e.Message, e.Source.Component)
			}
		}
	}
	if !found {
		t.Error("no CIDRNotAvailable event for node b")
	}
}
