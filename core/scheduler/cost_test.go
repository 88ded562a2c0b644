package scheduler_test

import (
	"fmt"
	"testing"

	"kubeplay/core/controller/replicaset"
)

// A pod's scheduling work is the nodes filtered and scored for it: every
// node in a small cluster, upstream's adaptive share of a big one (at
// least 100), and never more as pods pile up on the nodes. Counted from
// the scheduler's own record of each attempt, not timed.
func TestNodesScoredPerPodFollowPercentageOfNodesToScore(t *testing.T) {
	for _, tc := range []struct {
		nodes, pods, scored int
	}{
		{nodes: 10, pods: 40, scored: 10},
		{nodes: 99, pods: 40, scored: 99},
		{nodes: 100, pods: 40, scored: 100},
		{nodes: 250, pods: 40, scored: 120},  // 48%
		{nodes: 1000, pods: 40, scored: 420}, // 42%
		{nodes: 2500, pods: 20, scored: 750}, // 30%
	} {
		t.Run(fmt.Sprintf("%d nodes", tc.nodes), func(t *testing.T) {
			c := newCluster(t, 1)
			c.c.AddWorker(replicaset.NewReplicaSetController(c.c.ControllerContext()))
			for i := range tc.nodes {
				c.addNode(node(fmt.Sprintf("n%04d", i), nil))
			}
			c.workload("web", int32(tc.pods), nil)
			pods := c.pods("web")
			if len(pods) != tc.pods {
				t.Fatalf("%d pods, want %d", len(pods), tc.pods)
			}
			for _, p := range pods {
				d, ok := c.sched.Decision(p.Namespace, p.Name)
				if !ok || p.Spec.NodeName == "" {
					t.Fatalf("pod %s was not scheduled", p.Name)
				}
				if d.NumAllNodes != tc.nodes || d.EvaluatedNodes != tc.scored || d.FeasibleNodes != tc.scored {
					t.Fatalf("pod %s: %d nodes known, %d filtered, %d feasible; want %d, %d, %d",
						p.Name, d.NumAllNodes, d.EvaluatedNodes, d.FeasibleNodes, tc.nodes, tc.scored, tc.scored)
				}
				scored := 0
				for _, nd := range d.NodeDecisions() {
					if len(nd.Scores) > 0 {
						scored++
					}
				}
				if scored != tc.scored {
					t.Fatalf("pod %s: %d nodes scored, want %d", p.Name, scored, tc.scored)
				}
			}
		})
	}
}
