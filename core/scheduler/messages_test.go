package scheduler_test

import (
	"testing"

	"kubeplay/core/api"
)

// FailedScheduling messages as v1.32 words them, one case per plugin.
func TestFailedSchedulingMessages(t *testing.T) {
	const notHelpful = " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	const noVictims = " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
	tests := []struct {
		name  string
		setup func(c *cluster)
		pod   *api.Pod
		want  string
	}{
		{"cordoned nodes", func(c *cluster) {
			for _, n := range []string{"a", "b"} {
				c.updateNode(n, func(n *api.Node) { n.Spec.Unschedulable = true })
			}
		}, pod("p"), "0/2 nodes are available: 2 node(s) were unschedulable." + notHelpful},
		{"host port taken", func(c *cluster) {
			for _, n := range []string{"a", "b"} {
				c.addPod(pod("proxy-"+n, func(p *api.Pod) {
					p.Spec.NodeName = n
					p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 10080}}
				}))
			}
		}, pod("p", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 10080}}
		}),
			"0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports." + noVictims},
		{"too big", nil, pod("p", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: mustQ("8"), api.ResourceMemory: mustQ("16Gi")}
		}), "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory." + noVictims},
		{"matchFields names a missing node", nil, pod("p", func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"ghost"}}}}},
			}}}
		}), "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]." + notHelpful},
		{"anti-affinity to itself by hostname", func(c *cluster) {
			for _, n := range []string{"a", "b"} {
				c.addPod(pod("web-"+n, func(p *api.Pod) { p.Spec.NodeName = n }))
			}
		}, pod("p", func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}, TopologyKey: api.LabelHostname,
			}}}}
		}), "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules." + noVictims},
		{"spread constraint", func(c *cluster) {
			c.addPod(pod("web-a", func(p *api.Pod) { p.Spec.NodeName = "a" }))
		}, pod("p", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}},
				{MaxSkew: 1, TopologyKey: "rack", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}},
			}
		}), "0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints (missing required label)." + notHelpful},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, 1)
			c.addNode(node("a", nil))
			c.addNode(node("b", nil))
			if tt.setup != nil {
				tt.setup(c)
			}
			c.addPod(tt.pod)
			c.c.Settle()
			ev := c.events("p")
			if len(ev) != 1 || ev[0] != "Warning FailedScheduling "+tt.want {
				t.Fatalf("events %q\nwant %q", ev, tt.want)
			}
		})
	}
}

// A gated pod is not attempted until its last gate is removed.
func TestSchedulingGates(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("a", nil))
	c.addPod(pod("p", func(p *api.Pod) { p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/wait"}} }))
	c.c.Settle()
	if _, ok := c.sched.Decision("default", "p"); ok || c.sched.QueueOf("default", "p") != "Unschedulable" {
		t.Fatalf("a gated pod was attempted (queue %q)", c.sched.QueueOf("default", "p"))
	}
	p := c.get("p").DeepCopy()
	p.Spec.SchedulingGates = nil
	if _, err := updatePod(c, p); err != nil {
		t.Fatal(err)
	}
	c.c.Settle()
	if c.nodeOf("p") != "a" {
		t.Fatalf("not scheduled after the gate was removed")
	}
}
