package scheduler

import (
	"time"

	"kubeplay/core/scheduler/framework"
)

// Verdicts of a node in one attempt.
const (
	VerdictFeasible     = "Feasible"
	VerdictRejected     = "Rejected"
	VerdictNotEvaluated = "NotEvaluated"
)

// Decision is what one scheduling attempt saw and chose, kept so the
// playground can show why a pod landed where it did (or nowhere).
type Decision struct {
	Namespace, Name string
	UID             string
	Time            time.Time
	// Attempt counts the pod's attempts so far; Cycle is the scheduler's.
	Attempt int
	Cycle   int64
	// NumAllNodes is every node known; EvaluatedNodes were filtered and
	// FeasibleNodes passed (filtering stops early in big clusters).
	NumAllNodes    int
	EvaluatedNodes int
	FeasibleNodes  int
	// detail is what NodeDecisions reads; nil once the attempt is no
	// longer among the latest decisionDetailLimit.
	detail *decisionDetail
	// SelectedNode is the chosen node, "" when the pod fits nowhere.
	SelectedNode string
	// Reason is "Scheduled", "Unschedulable" or "SchedulerError"; Message
	// is the event's message.
	Reason  string
	Message string
	// NominatedNode is set when preemption cleared room on a node.
	NominatedNode string
}

// NodeDecision is one node's part in an attempt.
type NodeDecision struct {
	Name    string
	Verdict string
	// Plugin, Code and Reasons say why a node was rejected.
	Plugin  string
	Code    string
	Reasons []string
	// Scores are each score plugin's part (raw, normalized, weighted) when
	// the node was scored; TotalScore is their sum.
	Scores     []framework.PluginScore
	TotalScore int64
}

// decisionDetail is the raw material of the per-node verdicts, kept as
// the cycle left it: building a verdict per node on every cycle cost more
// than the cycle itself in big clusters, and is only wanted when a
// learner opens a pod.
type decisionDetail struct {
	// nodes are all node names in the scheduler's order; consecutive
	// cycles share the slice while the nodes stay the same.
	nodes []string
	// feasible names the nodes that passed when none were scored.
	feasible  []string
	diagnosis framework.Diagnosis
	scores    *keptScores
}

// decisionDetailLimit bounds how many attempts keep per-node verdicts:
// each holds a score list per feasible node.
const decisionDetailLimit = 1000

// Decision returns the latest attempt for a pod.
func (s *Scheduler) Decision(namespace, name string) (*Decision, bool) {
	d, ok := s.decisions[namespace+"/"+name]
	return d, ok
}

// HasNodeDecisions says whether the per-node verdicts are still kept
// (they are for the latest decisionDetailLimit attempts).
func (d *Decision) HasNodeDecisions() bool { return d.detail != nil }

// NodeDecisions are every node's verdict in the scheduler's order: the
// nodes that passed with their scores, the rejected ones with the plugin
// and reasons, and the ones filtering never reached.
func (d *Decision) NodeDecisions() []NodeDecision {
	if d.detail == nil {
		return nil
	}
	dt := d.detail
	feasible := map[string]bool{}
	for _, n := range dt.feasible {
		feasible[n] = true
	}
	var scored []scoredNode
	if dt.scores != nil {
		scored = dt.scores.byNode(len(dt.nodes))
	}
	diag := dt.diagnosis
	out := make([]NodeDecision, len(dt.nodes))
	for i, name := range dt.nodes {
		nd := NodeDecision{Name: name}
		var sc scoredNode
		if scored != nil {
			sc = scored[i]
		}
		st, has := diag.NodeToStatus.Lookup(name)
		switch {
		case sc.scored:
			nd.Verdict, nd.Scores, nd.TotalScore = VerdictFeasible, sc.scores, sc.total
		case feasible[name]:
			nd.Verdict = VerdictFeasible
		case has:
			nd.Verdict, nd.Plugin, nd.Code, nd.Reasons = VerdictRejected, st.Plugin(), st.Code().String(), st.Reasons()
		case diag.PreFilterMsg != "" || len(diag.NodeToStatus.AbsentNodesStatus().Reasons()) > 0:
			st := diag.NodeToStatus.AbsentNodesStatus()
			nd.Verdict, nd.Plugin, nd.Code, nd.Reasons = VerdictRejected, st.Plugin(), st.Code().String(), st.Reasons()
		default:
			nd.Verdict = VerdictNotEvaluated
		}
		out[i] = nd
	}
	return out
}

// keepDetail makes d one of the attempts with per-node verdicts, dropping
// them from the oldest once there are more than decisionDetailLimit.
func (s *Scheduler) keepDetail(d *Decision) {
	s.detailed = append(s.detailed, d)
	if len(s.detailed) > decisionDetailLimit {
		if old := s.detailed[0].detail; old != nil && old.scores != nil && cap(old.scores.data) > cap(s.spareScores) {
			// Nothing reads a dropped decision's scores: the next
			// cycle's are packed into them.
			s.spareScores = old.scores.data
		}
		s.detailed[0].detail = nil
		s.detailed[0] = nil
		s.detailed = s.detailed[1:]
	}
}

// nodeNames are the names of the snapshot's nodes, in its order; the
// slice (and nodeIndex, each name's position in it) is made anew only
// when the snapshot rebuilt its list, so that a decision costs no copy
// (nor comparison) of the node list.
func (s *Scheduler) nodeNames() []string {
	if s.lastNodeNames == nil || s.lastNodeNamesList != s.snapshot.ListChanges() {
		all := s.snapshot.List()
		names := make([]string, len(all))
		s.nodeIndex = make(map[string]int, len(all))
		clear(s.slotIndex)
		for i, ni := range all {
			names[i] = ni.Node().Name
			s.nodeIndex[names[i]] = i
			if slot := ni.Slot(); slot > 0 {
				if slot >= len(s.slotIndex) {
					s.slotIndex = append(s.slotIndex, make([]int32, slot+1-len(s.slotIndex))...)
				}
				s.slotIndex[slot] = int32(i + 1)
			}
		}
		s.lastNodeNames, s.lastNodeNamesList = names, s.snapshot.ListChanges()
	}
	return s.lastNodeNames
}
