// Package nodeaffinity is the NodeAffinity plugin: a pod's nodeSelector
// and required node affinity filter nodes, and its preferred terms add
// their weights to the nodes they match.
package nodeaffinity

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// Rejection reasons.
const (
	ErrReasonPod      = "node(s) didn't match Pod's node affinity/selector"
	errReasonConflict = "pod affinity terms conflict"
)

const (
	preFilterStateKey = "PreFilter" + names.NodeAffinity
	preScoreStateKey  = "PreScore" + names.NodeAffinity
)

// NodeAffinity implements the plugin.
type NodeAffinity struct{}

// New returns the plugin.
func New() *NodeAffinity { return &NodeAffinity{} }

// Name implements framework.Plugin.
func (*NodeAffinity) Name() string { return names.NodeAffinity }

// NodeLocal implements framework.NodeLocalPlugin: it reads the pod's node selector and affinity and the node's labels.
func (*NodeAffinity) NodeLocal() {}

func requiredTerms(pod *api.Pod) *api.NodeSelector {
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

// PreFilter parses the constraints once, and narrows the nodes when every
// term names nodes by metadata.name.
func (*NodeAffinity) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	req := requiredTerms(pod)
	if req == nil && pod.Spec.NodeSelector == nil {
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(preFilterStateKey, helper.GetRequiredNodeAffinity(pod))
	if req == nil || len(req.NodeSelectorTerms) == 0 {
		return nil, nil
	}
	var nodeNames map[string]bool
	for _, t := range req.NodeSelectorTerms {
		var termNames map[string]bool
		for _, r := range t.MatchFields {
			if r.Key != "metadata.name" || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			s := map[string]bool{}
			for _, v := range r.Values {
				if termNames == nil || termNames[v] {
					s[v] = true
				}
			}
			termNames = s
		}
		if termNames == nil {
			// A term without a name requirement lets every node through (terms are ORed).
			return nil, nil
		}
		if nodeNames == nil {
			nodeNames = map[string]bool{}
		}
		for n := range termNames {
			nodeNames[n] = true
		}
	}
	if nodeNames != nil && len(nodeNames) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, errReasonConflict)
	}
	return &framework.PreFilterResult{NodeNames: nodeNames}, nil
}

// Filter rejects a node that fails the nodeSelector or the required terms.
func (*NodeAffinity) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	var req helper.RequiredNodeAffinity
	if v, ok := state.Read(preFilterStateKey); ok {
		req = v.(helper.RequiredNodeAffinity)
	} else {
		req = helper.GetRequiredNodeAffinity(pod)
	}
	if !req.Match(nodeInfo.Node()) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	}
	return nil
}

// PreScore parses the preferred terms; with none, the plugin does not score.
func (*NodeAffinity) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	if len(nodes) == 0 {
		return nil
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	terms, err := helper.NewPreferredSchedulingTerms(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	if err != nil {
		return framework.AsStatus(fmt.Errorf("parsing pod's preferred node affinity: %w", err))
	}
	state.Write(preScoreStateKey, terms)
	return nil
}

// Score sums the weights of the preferred terms the node matches.
func (*NodeAffinity) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	v, ok := state.Read(preScoreStateKey)
	if !ok {
		a := pod.Spec.Affinity
		if a == nil || a.NodeAffinity == nil {
			return 0, nil
		}
		terms, err := helper.NewPreferredSchedulingTerms(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return 0, framework.AsStatus(err)
		}
		return terms.Score(nodeInfo.Node()), nil
	}
	return v.(*helper.PreferredSchedulingTerms).Score(nodeInfo.Node()), nil
}

// NormalizeScore scales the sums so the best node gets MaxNodeScore.
func (*NodeAffinity) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, false, scores)
}

// EventsToRegister: a node added or its labels changed so that it now matches.
func (pl *NodeAffinity) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel | framework.UpdateNodeTaint}, QueueingHintFn: isSchedulableAfterNodeChange},
	}
}

func isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	n, ok := newObj.(*api.Node)
	if !ok {
		return framework.Queue
	}
	req := helper.GetRequiredNodeAffinity(pod)
	if !req.Match(n) {
		return framework.QueueSkip
	}
	if old, ok := oldObj.(*api.Node); ok && req.Match(old) {
		// It matched before too; this change did not unblock the pod.
		return framework.QueueSkip
	}
	return framework.Queue
}
