// Package fake is a framework.Handle over plain lists, for plugin tests.
package fake

import (
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
)

// Handle serves a fixed set of nodes (with their pods) and objects.
type Handle struct {
	Nodes        framework.NodeInfoList
	Namespaces   []*api.Namespace
	ServiceList  []*api.Service
	ReplicaSets  []*api.ReplicaSet
	StatefulSets []*api.StatefulSet
}

// NewHandle builds NodeInfos from nodes and places pods on them by spec.nodeName.
func NewHandle(nodes []*api.Node, pods []*api.Pod) *Handle {
	h := &Handle{}
	for _, n := range nodes {
		ni := framework.NewNodeInfo()
		ni.SetNode(n)
		for _, p := range pods {
			if p.Spec.NodeName == n.Name {
				ni.AddPod(p)
			}
		}
		h.Nodes = append(h.Nodes, ni)
	}
	return h
}

// NodeInfos implements framework.Handle.
func (h *Handle) NodeInfos() framework.NodeInfoLister { return h.Nodes }

// NamespaceLabels implements framework.Handle.
func (h *Handle) NamespaceLabels(ns string) labels.Set {
	for _, n := range h.Namespaces {
		if n.Name == ns {
			return labels.Set(n.Labels)
		}
	}
	return nil
}

// NamespacesMatching implements framework.Handle.
func (h *Handle) NamespacesMatching(sel labels.Selector) []string {
	var out []string
	for _, n := range h.Namespaces {
		if sel.Matches(labels.Set(n.Labels)) {
			out = append(out, n.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Services implements framework.Handle.
func (h *Handle) Services(ns string) []*api.Service {
	var out []*api.Service
	for _, s := range h.ServiceList {
		if s.Namespace == ns {
			out = append(out, s)
		}
	}
	return out
}

// ReplicaSet implements framework.Handle.
func (h *Handle) ReplicaSet(ns, name string) (*api.ReplicaSet, bool) {
	for _, r := range h.ReplicaSets {
		if r.Namespace == ns && r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// StatefulSet implements framework.Handle.
func (h *Handle) StatefulSet(ns, name string) (*api.StatefulSet, bool) {
	for _, s := range h.StatefulSets {
		if s.Namespace == ns && s.Name == name {
			return s, true
		}
	}
	return nil, false
}

// RunFilter runs PreFilter (when the plugin has it) and Filter for each
// node, and returns each node's status message ("" when it fits). A
// PreFilter Skip means every node fits; a PreFilter rejection is every
// node's status.
func RunFilter(pl framework.FilterPlugin, h *Handle, pod *api.Pod) map[string]string {
	out := map[string]string{}
	state := framework.NewCycleState()
	if pf, ok := pl.(framework.PreFilterPlugin); ok {
		_, s := pf.PreFilter(state, pod)
		if s.IsSkip() {
			for _, n := range h.Nodes {
				out[n.Node().Name] = ""
			}
			return out
		}
		if !s.IsSuccess() {
			for _, n := range h.Nodes {
				out[n.Node().Name] = s.Message()
			}
			return out
		}
	}
	for _, n := range h.Nodes {
		out[n.Node().Name] = pl.Filter(state, pod, n).Message()
	}
	return out
}

// RunScore runs PreScore, Score and NormalizeScore over all nodes and
// returns the final (unweighted) scores by node; nil when PreScore skips.
func RunScore(pl framework.ScorePlugin, h *Handle, pod *api.Pod) map[string]int64 {
	return runScore(pl, h, pod, true)
}

// RunScoreEachNode is RunScore asking Score node by node, also of a
// plugin that can score all nodes in one call (which RunScore uses, as
// the framework does): the two must agree.
func RunScoreEachNode(pl framework.ScorePlugin, h *Handle, pod *api.Pod) map[string]int64 {
	return runScore(pl, h, pod, false)
}

func runScore(pl framework.ScorePlugin, h *Handle, pod *api.Pod, batch bool) map[string]int64 {
	state := framework.NewCycleState()
	if ps, ok := pl.(framework.PreScorePlugin); ok {
		s := ps.PreScore(state, pod, h.Nodes)
		if s.IsSkip() {
			return nil
		}
	}
	list := make(framework.NodeScoreList, len(h.Nodes))
	if ns, ok := pl.(framework.NodesScorer); ok && batch {
		scores := make([]int64, len(h.Nodes))
		ns.ScoreNodes(state, pod, h.Nodes, scores)
		for i, n := range h.Nodes {
			list[i] = framework.NodeScore{Name: n.Node().Name, Score: scores[i]}
		}
	} else {
		for i, n := range h.Nodes {
			sc, _ := pl.Score(state, pod, n)
			list[i] = framework.NodeScore{Name: n.Node().Name, Score: sc}
		}
	}
	if norm, ok := pl.(framework.ScoreNormalizer); ok {
		norm.NormalizeScore(state, pod, list)
	}
	out := map[string]int64{}
	for _, s := range list {
		out[s.Name] = s.Score
	}
	return out
}
