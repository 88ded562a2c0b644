package framework

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// AffinityTerm is a parsed PodAffinityTerm: the namespaces it looks in (a
// set, or a selector over namespace labels), the pods it selects, and the
// topology key that groups nodes into domains.
type AffinityTerm struct {
	Namespaces        map[string]bool
	Selector          labels.Selector
	TopologyKey       string
	NamespaceSelector labels.Selector
}

// Matches reports whether pod is selected by the term; nsLabels are the
// labels of pod's namespace.
func (at *AffinityTerm) Matches(pod *api.Pod, nsLabels labels.Set) bool {
	if at.Namespaces[pod.Namespace] || at.NamespaceSelector.Matches(nsLabels) {
		return at.Selector.Matches(labels.Set(pod.Labels))
	}
	return false
}

// WeightedAffinityTerm is a parsed preferred term.
type WeightedAffinityTerm struct {
	AffinityTerm
	Weight int32
}

// PodInfo is a pod with its affinity terms parsed once.
type PodInfo struct {
	Pod                        *api.Pod
	RequiredAffinityTerms      []AffinityTerm
	RequiredAntiAffinityTerms  []AffinityTerm
	PreferredAffinityTerms     []WeightedAffinityTerm
	PreferredAntiAffinityTerms []WeightedAffinityTerm
	// ParseError is the first term that did not parse; the terms are then empty.
	ParseError error
	// requests and nonZeroRequests are what the pod asks of a node
	// (PodRequests without and with the scoring defaults), worked out when
	// the pod is first added to a NodeInfo, so that taking it out again
	// (each update of a bound pod is a removal and an addition) does not
	// work them out anew.
	requests, nonZeroRequests *Resource
}

// resources are the pod's requests without and with the scoring defaults.
func (pi *PodInfo) resources() (req, nonZero *Resource) {
	if pi.requests == nil {
		pi.requests = ComputePodResourceRequest(pi.Pod)
		pi.nonZeroRequests = PodRequestsResource(pi.Pod, PodRequestsOptions{NonMissing: NonZeroDefaults()})
	}
	return pi.requests, pi.nonZeroRequests
}

// NewPodInfo parses pod's affinity terms.
func NewPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{Pod: pod}
	var podAff *api.PodAffinity
	var antiAff *api.PodAntiAffinity
	if a := pod.Spec.Affinity; a != nil {
		podAff, antiAff = a.PodAffinity, a.PodAntiAffinity
	}
	var err error
	if podAff != nil {
		if pi.RequiredAffinityTerms, err = AffinityTerms(pod, podAff.RequiredDuringSchedulingIgnoredDuringExecution); err != nil && pi.ParseError == nil {
			pi.ParseError = err
		}
		if pi.PreferredAffinityTerms, err = WeightedAffinityTerms(pod, podAff.PreferredDuringSchedulingIgnoredDuringExecution); err != nil && pi.ParseError == nil {
			pi.ParseError = err
		}
	}
	if antiAff != nil {
		if pi.RequiredAntiAffinityTerms, err = AffinityTerms(pod, antiAff.RequiredDuringSchedulingIgnoredDuringExecution); err != nil && pi.ParseError == nil {
			pi.ParseError = err
		}
		if pi.PreferredAntiAffinityTerms, err = WeightedAffinityTerms(pod, antiAff.PreferredDuringSchedulingIgnoredDuringExecution); err != nil && pi.ParseError == nil {
			pi.ParseError = err
		}
	}
	return pi
}

// NewAffinityTerm parses one term of pod. With neither namespaces nor a
// namespace selector, the term looks in the pod's own namespace.
func NewAffinityTerm(pod *api.Pod, t *api.PodAffinityTerm) (*AffinityTerm, error) {
	sel, err := labels.SelectorFromLabelSelector(t.LabelSelector)
	if err != nil {
		return nil, err
	}
	ns := map[string]bool{}
	if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
		ns[pod.Namespace] = true
	}
	for _, n := range t.Namespaces {
		ns[n] = true
	}
	nsSel, err := labels.SelectorFromLabelSelector(t.NamespaceSelector)
	if err != nil {
		return nil, err
	}
	return &AffinityTerm{Namespaces: ns, Selector: sel, TopologyKey: t.TopologyKey, NamespaceSelector: nsSel}, nil
}

// AffinityTerms parses required terms; on an error it returns none.
func AffinityTerms(pod *api.Pod, terms []api.PodAffinityTerm) ([]AffinityTerm, error) {
	var out []AffinityTerm
	for i := range terms {
		t, err := NewAffinityTerm(pod, &terms[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *t)
	}
	return out, nil
}

// WeightedAffinityTerms parses preferred terms; on an error it returns none.
func WeightedAffinityTerms(pod *api.Pod, terms []api.WeightedPodAffinityTerm) ([]WeightedAffinityTerm, error) {
	var out []WeightedAffinityTerm
	for i := range terms {
		t, err := NewAffinityTerm(pod, &terms[i].PodAffinityTerm)
		if err != nil {
			return nil, err
		}
		out = append(out, WeightedAffinityTerm{AffinityTerm: *t, Weight: terms[i].Weight})
	}
	return out, nil
}

// PodMatchesAllAffinityTerms reports whether pod matches every term (and
// there is at least one). Namespace selectors are expected to be merged
// into the namespace sets already, so no namespace labels are needed.
func PodMatchesAllAffinityTerms(terms []AffinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].Matches(pod, nil) {
			return false
		}
	}
	return true
}

// PodPriority is the pod's priority (0 when unset).
func PodPriority(pod *api.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}
