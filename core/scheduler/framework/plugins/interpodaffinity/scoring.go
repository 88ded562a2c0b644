package interpodaffinity

import (
	"fmt"
	"math"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

const preScoreStateKey = "PreScore" + names.InterPodAffinity

// scoreMap sums weights per topology key and value.
type scoreMap map[string]map[string]int64

type preScoreState struct {
	topologyScore scoreMap
	podInfo       *framework.PodInfo
	nsLabels      labels.Set
}

func (m scoreMap) processTerm(t *framework.AffinityTerm, weight int32, pod *api.Pod, nsLabels labels.Set, node *api.Node, multiplier int32) {
	if !t.Matches(pod, nsLabels) {
		return
	}
	tv, ok := node.Labels[t.TopologyKey]
	if !ok {
		return
	}
	if m[t.TopologyKey] == nil {
		m[t.TopologyKey] = map[string]int64{}
	}
	m[t.TopologyKey][tv] += int64(weight * multiplier)
}

func (m scoreMap) processTerms(terms []framework.WeightedAffinityTerm, pod *api.Pod, nsLabels labels.Set, node *api.Node, multiplier int32) {
	for i := range terms {
		m.processTerm(&terms[i].AffinityTerm, terms[i].Weight, pod, nsLabels, node, multiplier)
	}
}

// PreScore sums, per topology domain, the weights of the preferred terms
// linking the incoming pod with existing pods, in both directions, and of
// existing pods' required affinity to it.
func (pl *InterPodAffinity) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	if len(nodes) == 0 {
		return nil
	}
	a := pod.Spec.Affinity
	hasPreferred := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	// Without preferred terms of its own, only nodes hosting pods with
	// affinity can contribute.
	var all []*framework.NodeInfo
	if hasPreferred {
		all = pl.handle.NodeInfos().List()
	} else {
		all = pl.handle.NodeInfos().HavePodsWithAffinityList()
	}
	pi := framework.NewPodInfo(pod)
	if pi.ParseError != nil {
		return framework.AsStatus(fmt.Errorf("failed to parse pod: %w", pi.ParseError))
	}
	for i := range pi.PreferredAffinityTerms {
		pl.mergeNamespaces(&pi.PreferredAffinityTerms[i].AffinityTerm)
	}
	for i := range pi.PreferredAntiAffinityTerms {
		pl.mergeNamespaces(&pi.PreferredAntiAffinityTerms[i].AffinityTerm)
	}
	s := &preScoreState{topologyScore: scoreMap{}, podInfo: pi, nsLabels: pl.handle.NamespaceLabels(pod.Namespace)}
	for _, ni := range all {
		node := ni.Node()
		if node == nil || len(node.Labels) == 0 {
			continue
		}
		pods := ni.PodsWithAffinity
		if hasPreferred {
			pods = ni.Pods
		}
		for _, existing := range pods {
			pl.processExistingPod(s, existing, node, pod)
		}
	}
	if len(s.topologyScore) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	state.Write(preScoreStateKey, s)
	return nil
}

func (pl *InterPodAffinity) processExistingPod(s *preScoreState, existing *framework.PodInfo, node *api.Node, incoming *api.Pod) {
	// The incoming pod's preferred terms, matched against the existing pod
	// (namespace selectors already merged, so no labels needed).
	s.topologyScore.processTerms(s.podInfo.PreferredAffinityTerms, existing.Pod, nil, node, 1)
	s.topologyScore.processTerms(s.podInfo.PreferredAntiAffinityTerms, existing.Pod, nil, node, -1)
	// The existing pod's terms, matched against the incoming pod.
	if pl.hardPodAffinityWeight > 0 {
		for i := range existing.RequiredAffinityTerms {
			s.topologyScore.processTerm(&existing.RequiredAffinityTerms[i], pl.hardPodAffinityWeight, incoming, s.nsLabels, node, 1)
		}
	}
	s.topologyScore.processTerms(existing.PreferredAffinityTerms, incoming, s.nsLabels, node, 1)
	s.topologyScore.processTerms(existing.PreferredAntiAffinityTerms, incoming, s.nsLabels, node, -1)
}

// Score adds up the sums of the domains the node is in.
func (pl *InterPodAffinity) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	v, ok := state.Read(preScoreStateKey)
	if !ok {
		return 0, framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", preScoreStateKey))
	}
	s := v.(*preScoreState)
	var score int64
	for key, values := range s.topologyScore {
		if tv, ok := nodeInfo.Node().Labels[key]; ok {
			score += values[tv]
		}
	}
	return score, nil
}

// NormalizeScore maps the range of sums (which may be negative) onto 0-100.
func (pl *InterPodAffinity) NormalizeScore(state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	v, ok := state.Read(preScoreStateKey)
	if !ok || len(v.(*preScoreState).topologyScore) == 0 {
		return nil
	}
	var minCount int64 = math.MaxInt64
	var maxCount int64 = math.MinInt64
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
		if scores[i].Score < minCount {
			minCount = scores[i].Score
		}
	}
	diff := maxCount - minCount
	for i := range scores {
		f := float64(0)
		if diff > 0 {
			f = float64(framework.MaxNodeScore) * (float64(scores[i].Score-minCount) / float64(diff))
		}
		scores[i].Score = int64(f)
	}
	return nil
}
