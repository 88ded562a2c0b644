package scheduler_test

import (
	"fmt"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler"
)

// Keeping node-local answers from one replica to the next changes no
// placement and no score: a workload scheduled with them, through node
// changes and a second shape, reads back exactly as one scheduled with
// every pod filtered and scored afresh.
func TestNodeLocalAnswersChangeNoDecision(t *testing.T) {
	run := func(fresh bool) string {
		c := seedCluster(t)
		if fresh {
			scheduler.GiveEveryPodItsOwnShape(c.sched)
		}
		small := func(s *api.PodSpec) {
			s.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: mustQ("300m"), api.ResourceMemory: mustQ("256Mi")}
		}
		c.workload("web", 12, small)
		c.updateNode("centos-7-55", func(n *api.Node) { n.Spec.Unschedulable = true })
		c.workload("big", 6, func(s *api.PodSpec) {
			small(s)
			s.Containers[0].Resources.Requests[api.ResourceCPU] = mustQ("1")
			s.Tolerations = []api.Toleration{{Key: "node-role.kubernetes.io/master", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
		})
		c.updateNode("centos-7-55", func(n *api.Node) { n.Spec.Unschedulable = false })
		c.workload("more", 9, small)
		var b strings.Builder
		for _, app := range []string{"web", "big", "more"} {
			for _, p := range c.pods(app) {
				fmt.Fprintf(&b, "%s -> %s\n", p.Name, p.Spec.NodeName)
				d, ok := c.sched.Decision("default", p.Name)
				if !ok {
					t.Fatalf("%s: no decision", p.Name)
				}
				for _, nd := range d.NodeDecisions() {
					fmt.Fprintf(&b, "  %s %s %s %v %d\n", nd.Name, nd.Verdict, nd.Plugin, nd.Reasons, nd.TotalScore)
					for _, s := range nd.Scores {
						fmt.Fprintf(&b, "    %+v\n", s)
					}
				}
			}
		}
		return b.String()
	}
	kept, fresh := run(false), run(true)
	if kept != fresh {
		t.Fatalf("decisions differ with node-local answers kept:\n%s\nfiltered and scored afresh:\n%s", kept, fresh)
	}
	if !strings.Contains(kept, "NodeResourcesFit") || !strings.Contains(kept, "Rejected") {
		t.Fatalf("the decisions show no scores or no rejections:\n%s", kept)
	}
}
