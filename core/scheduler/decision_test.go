package scheduler_test

import (
	"fmt"
	"reflect"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler"
)

// The decision keeps each node's verdict and each plugin's score.
func TestDecisionExplainsPlacement(t *testing.T) {
	c := newCluster(t, 1)
	c.seedNodes()
	c.addPod(pod("web", func(p *api.Pod) {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
			{Weight: 10, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "cpu", Operator: api.NodeSelectorOpIn, Values: []string{"high"}}}}},
		}}}
	}))
	c.c.Settle()
	d, ok := c.sched.Decision("default", "web")
	if !ok {
		t.Fatal("no decision")
	}
	if d.Reason != "Scheduled" || d.SelectedNode != c.nodeOf("web") || d.NumAllNodes != 6 || d.FeasibleNodes != 3 || d.EvaluatedNodes != 6 {
		t.Fatalf("decision %+v", d)
	}
	for _, n := range d.NodeDecisions() {
		switch n.Name {
		case "centos-7-51", "centos-7-52", "centos-7-53":
			if n.Verdict != scheduler.VerdictRejected || n.Plugin != "TaintToleration" || n.Code != "UnschedulableAndUnresolvable" ||
				len(n.Reasons) != 1 || n.Reasons[0] != "node(s) had untolerated taint {node-role.kubernetes.io/master: }" {
				t.Errorf("%s: %+v", n.Name, n)
			}
		default:
			if n.Verdict != scheduler.VerdictFeasible {
				t.Errorf("%s: %+v", n.Name, n)
			}
			var sum int64
			var affinity int64 = -1
			for _, s := range n.Scores {
				if s.Score != s.Normalized*s.Weight {
					t.Errorf("%s %s: weighted %d != %d × %d", n.Name, s.Name, s.Score, s.Normalized, s.Weight)
				}
				if s.Name == "NodeAffinity" {
					affinity = s.Normalized
				}
				sum += s.Score
			}
			if sum != n.TotalScore {
				t.Errorf("%s: total %d, sum %d", n.Name, n.TotalScore, sum)
			}
			want := int64(0)
			if n.Name != "centos-7-55" {
				want = 100
			}
			if affinity != want {
				t.Errorf("%s: NodeAffinity %d, want %d", n.Name, affinity, want)
			}
		}
	}
}

// In a cluster of 150 nodes only 100 are filtered per pod, from a start
// index that moves on, so every node gets its turn.
func TestPercentageOfNodesToScore(t *testing.T) {
	c := newCluster(t, 1)
	for i := 0; i < 150; i++ {
		c.addNode(node(fmt.Sprintf("n%03d", i), nil))
	}
	c.addPod(pod("first"))
	c.c.Settle()
	d, _ := c.sched.Decision("default", "first")
	if d.EvaluatedNodes != 100 || d.FeasibleNodes != 100 {
		t.Fatalf("evaluated %d, feasible %d", d.EvaluatedNodes, d.FeasibleNodes)
	}
	nodes := d.NodeDecisions()
	if nodes[0].Verdict != scheduler.VerdictFeasible || nodes[99].Verdict != scheduler.VerdictFeasible || nodes[100].Verdict != scheduler.VerdictNotEvaluated {
		t.Fatalf("first pod: nodes 0-99 should be evaluated")
	}
	c.addPod(pod("second"))
	c.c.Settle()
	d, _ = c.sched.Decision("default", "second")
	nodes = d.NodeDecisions()
	// Starts at 100, wraps around to 49.
	if nodes[100].Verdict != scheduler.VerdictFeasible || nodes[49].Verdict != scheduler.VerdictFeasible || nodes[50].Verdict != scheduler.VerdictNotEvaluated {
		t.Fatalf("second pod: nodes 100-149 and 0-49 should be evaluated")
	}
}

// The same seed and inputs place pods the same way.
func TestDeterministicPlacement(t *testing.T) {
	run := func() string {
		c := seedCluster(t)
		c.workload("nginx", 9, nil)
		out := ""
		for _, p := range c.pods("nginx") {
			out += p.Name + "=" + p.Spec.NodeName + " "
		}
		return out
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("runs differ:\n%s\n%s", a, b)
	}
}

// Per-node verdicts are kept for the latest attempts only; older
// decisions keep their outcome and counts.
func TestOldDecisionsDropNodeVerdicts(t *testing.T) {
	c := newCluster(t, 1)
	c.addNode(node("n1", nil))
	c.addNode(node("n2", nil))
	for i := 0; i < 1001; i++ {
		c.addPod(pod(fmt.Sprintf("p%04d", i)))
	}
	c.c.Settle()
	first, _ := c.sched.Decision("default", "p0000")
	last, _ := c.sched.Decision("default", "p1000")
	if first.HasNodeDecisions() || first.NodeDecisions() != nil {
		t.Errorf("the oldest of 1001 attempts still has per-node verdicts")
	}
	if first.Reason != "Scheduled" || first.SelectedNode == "" || first.FeasibleNodes != 2 {
		t.Errorf("the oldest attempt lost its outcome: %+v", first)
	}
	if !last.HasNodeDecisions() || len(last.NodeDecisions()) != 2 {
		t.Errorf("the latest attempt has no per-node verdicts")
	}
	// A kept attempt reads back the scores it had when it was made, though
	// later cycles fill the tables of the attempts that drop theirs.
	// Twelve nodes take 1,001 pods, so every attempt scores.
	c = newCluster(t, 1)
	for n := 0; n < 12; n++ {
		c.addNode(node(fmt.Sprintf("n%02d", n), nil))
	}
	then := map[string][]scheduler.NodeDecision{}
	for i := 0; i < 1001; i++ {
		name := fmt.Sprintf("p%04d", i)
		c.addPod(pod(name))
		c.c.Settle()
		d, _ := c.sched.Decision("default", name)
		then[name] = d.NodeDecisions()
	}
	for i := 1; i < 1001; i++ {
		name := fmt.Sprintf("p%04d", i)
		d, _ := c.sched.Decision("default", name)
		if now := d.NodeDecisions(); !reflect.DeepEqual(now, then[name]) {
			t.Fatalf("attempt %d reads back\n%+v\nbut was\n%+v", i, now, then[name])
		}
	}
}
