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
	// Nodes are in the order the scheduler keeps them.
	Nodes []NodeDecision
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

// Decision returns the latest attempt for a pod.
func (s *Scheduler) Decision(namespace, name string) (*Decision, bool) {
	d, ok := s.decisions[namespace+"/"+name]
	return d, ok
}
