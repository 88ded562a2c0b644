package interpodaffinity

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// Rejection reasons.
const (
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	ErrReasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	ErrReasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
)

const preFilterStateKey = "PreFilter" + names.InterPodAffinity

type topologyPair struct {
	key, value string
}

// topologyToMatchedTermCount counts matching pods per topology domain.
type topologyToMatchedTermCount map[topologyPair]int64

func (m topologyToMatchedTermCount) update(node *api.Node, tk string, value int64) {
	if tv, ok := node.Labels[tk]; ok {
		p := topologyPair{tk, tv}
		m[p] += value
		if m[p] == 0 {
			delete(m, p)
		}
	}
}

// updateWithAffinityTerms counts pod in each term's domain when it matches all terms.
func (m topologyToMatchedTermCount) updateWithAffinityTerms(terms []framework.AffinityTerm, pod *api.Pod, node *api.Node, value int64) {
	if framework.PodMatchesAllAffinityTerms(terms, pod) {
		for _, t := range terms {
			m.update(node, t.TopologyKey, value)
		}
	}
}

// updateWithAntiAffinityTerms counts pod in the domain of each term it matches.
func (m topologyToMatchedTermCount) updateWithAntiAffinityTerms(terms []framework.AffinityTerm, pod *api.Pod, nsLabels map[string]string, node *api.Node, value int64) {
	for i := range terms {
		if terms[i].Matches(pod, nsLabels) {
			m.update(node, terms[i].TopologyKey, value)
		}
	}
}

type preFilterState struct {
	// existingAntiAffinityCounts: domains where existing pods' anti-affinity
	// terms match the incoming pod.
	existingAntiAffinityCounts topologyToMatchedTermCount
	// affinityCounts and antiAffinityCounts: domains holding pods that match
	// the incoming pod's affinity (all terms) and anti-affinity terms.
	affinityCounts     topologyToMatchedTermCount
	antiAffinityCounts topologyToMatchedTermCount
	podInfo            *framework.PodInfo
}

// PreFilter counts, per topology domain, the pods the incoming pod's terms
// select and the existing pods whose anti-affinity selects it.
func (pl *InterPodAffinity) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	all := pl.handle.NodeInfos().List()
	withAnti := pl.handle.NodeInfos().HavePodsWithRequiredAntiAffinityList()
	pi := framework.NewPodInfo(pod)
	if pi.ParseError != nil {
		return nil, framework.AsStatus(fmt.Errorf("parsing pod: %+v", pi.ParseError))
	}
	if len(pi.RequiredAffinityTerms) == 0 && len(pi.RequiredAntiAffinityTerms) == 0 && len(withAnti) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	for i := range pi.RequiredAffinityTerms {
		pl.mergeNamespaces(&pi.RequiredAffinityTerms[i])
	}
	for i := range pi.RequiredAntiAffinityTerms {
		pl.mergeNamespaces(&pi.RequiredAntiAffinityTerms[i])
	}
	nsLabels := pl.handle.NamespaceLabels(pod.Namespace)
	s := &preFilterState{
		existingAntiAffinityCounts: topologyToMatchedTermCount{},
		affinityCounts:             topologyToMatchedTermCount{},
		antiAffinityCounts:         topologyToMatchedTermCount{},
		podInfo:                    pi,
	}
	for _, ni := range withAnti {
		node := ni.Node()
		if node == nil {
			continue
		}
		for _, existing := range ni.PodsWithRequiredAntiAffinity {
			s.existingAntiAffinityCounts.updateWithAntiAffinityTerms(existing.RequiredAntiAffinityTerms, pod, nsLabels, node, 1)
		}
	}
	if len(pi.RequiredAffinityTerms) > 0 || len(pi.RequiredAntiAffinityTerms) > 0 {
		for _, ni := range all {
			node := ni.Node()
			if node == nil {
				continue
			}
			for _, existing := range ni.Pods {
				s.affinityCounts.updateWithAffinityTerms(pi.RequiredAffinityTerms, existing.Pod, node, 1)
				// The incoming pod's terms have their namespace selectors merged already.
				s.antiAffinityCounts.updateWithAntiAffinityTerms(pi.RequiredAntiAffinityTerms, existing.Pod, nil, node, 1)
			}
		}
	}
	state.Write(preFilterStateKey, s)
	return nil, nil
}

// Filter checks, in order, the pod's affinity, its anti-affinity and the
// existing pods' anti-affinity against the node's domains.
func (pl *InterPodAffinity) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	v, ok := state.Read(preFilterStateKey)
	if !ok {
		return framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", preFilterStateKey))
	}
	s := v.(*preFilterState)
	if !satisfyPodAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch)
	}
	if !satisfyPodAntiAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonAntiAffinityRulesNotMatch)
	}
	if !satisfyExistingPodsAntiAffinity(s, nodeInfo) {
		return framework.NewStatus(framework.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch)
	}
	return nil
}

func satisfyPodAffinity(s *preFilterState, nodeInfo *framework.NodeInfo) bool {
	podsExist := true
	for _, t := range s.podInfo.RequiredAffinityTerms {
		tv, ok := nodeInfo.Node().Labels[t.TopologyKey]
		if !ok {
			// Every term's topology label must be on the node.
			return false
		}
		if s.affinityCounts[topologyPair{t.TopologyKey, tv}] <= 0 {
			podsExist = false
		}
	}
	if !podsExist {
		// The first pod of a group with affinity to itself may go anywhere
		// with the labels, or the group could never start.
		return len(s.affinityCounts) == 0 && framework.PodMatchesAllAffinityTerms(s.podInfo.RequiredAffinityTerms, s.podInfo.Pod)
	}
	return true
}

func satisfyPodAntiAffinity(s *preFilterState, nodeInfo *framework.NodeInfo) bool {
	if len(s.antiAffinityCounts) == 0 {
		return true
	}
	for _, t := range s.podInfo.RequiredAntiAffinityTerms {
		if tv, ok := nodeInfo.Node().Labels[t.TopologyKey]; ok && s.antiAffinityCounts[topologyPair{t.TopologyKey, tv}] > 0 {
			return false
		}
	}
	return true
}

func satisfyExistingPodsAntiAffinity(s *preFilterState, nodeInfo *framework.NodeInfo) bool {
	if len(s.existingAntiAffinityCounts) == 0 {
		return true
	}
	for k, v := range nodeInfo.Node().Labels {
		if s.existingAntiAffinityCounts[topologyPair{k, v}] > 0 {
			return false
		}
	}
	return true
}
