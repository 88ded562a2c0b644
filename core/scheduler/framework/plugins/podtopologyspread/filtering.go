package podtopologyspread

import (
	"fmt"
	"math"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// Rejection reasons.
const (
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	ErrReasonNodeLabelNotMatch   = ErrReasonConstraintsNotMatch + " (missing required label)"
)

const preFilterStateKey = "PreFilter" + names.PodTopologySpread

type preFilterState struct {
	Constraints []topologySpreadConstraint
	// TpValueToMatchNum counts, per constraint, matching pods per domain value.
	TpValueToMatchNum []map[string]int
	// minMatch is each constraint's smallest count over its domains.
	minMatch []int
}

// minMatchNum is the global minimum for a constraint; with fewer domains
// than minDomains it is 0.
func (s *preFilterState) minMatchNum(i int, minDomains int32) int {
	if len(s.TpValueToMatchNum[i]) < int(minDomains) {
		return 0
	}
	return s.minMatch[i]
}

// PreFilter counts the matching pods in every domain of every hard
// constraint, over the nodes the constraint's inclusion policies admit.
func (pl *PodTopologySpread) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	cs, err := pl.getConstraints(pod, api.DoNotSchedule)
	if err != nil {
		return nil, framework.AsStatus(fmt.Errorf("obtaining pod's hard topology spread constraints: %w", err))
	}
	if len(cs) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	pl.counts.startCycle(len(pl.handle.NodeInfos().List()))
	for i := range cs {
		cs[i].countKey = pl.counts.countKey(cs[i].Selector, pod.Namespace)
	}
	s := &preFilterState{Constraints: cs, TpValueToMatchNum: make([]map[string]int, len(cs)), minMatch: make([]int, len(cs))}
	for i := range cs {
		s.TpValueToMatchNum[i] = map[string]int{}
	}
	req := helper.GetRequiredNodeAffinity(pod)
	for _, ni := range pl.handle.NodeInfos().List() {
		node := ni.Node()
		if node == nil || !nodeLabelsMatchSpreadConstraints(node.Labels, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if !c.matchNodeInclusionPolicies(pod, node, req) {
				continue
			}
			s.TpValueToMatchNum[i][node.Labels[c.TopologyKey]] += pl.counts.count(ni, c.Selector, c.countKey, pod.Namespace)
		}
	}
	for i := range cs {
		m := math.MaxInt
		for _, n := range s.TpValueToMatchNum[i] {
			if n < m {
				m = n
			}
		}
		if m == math.MaxInt {
			m = 0
		}
		s.minMatch[i] = m
	}
	state.Write(preFilterStateKey, s)
	return nil, nil
}

// Filter rejects a node lacking a topology key, or whose domain would be
// more than maxSkew above the least crowded one with this pod added.
func (pl *PodTopologySpread) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	v, ok := state.Read(preFilterStateKey)
	if !ok {
		return framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", preFilterStateKey))
	}
	s := v.(*preFilterState)
	node := nodeInfo.Node()
	podLabels := labels.Set(pod.Labels)
	for i, c := range s.Constraints {
		tv, ok := node.Labels[c.TopologyKey]
		if !ok {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch)
		}
		self := 0
		if c.Selector.Matches(podLabels) {
			self = 1
		}
		skew := s.TpValueToMatchNum[i][tv] + self - s.minMatchNum(i, c.MinDomains)
		if skew > int(c.MaxSkew) {
			return framework.NewStatus(framework.Unschedulable, ErrReasonConstraintsNotMatch)
		}
	}
	return nil
}
