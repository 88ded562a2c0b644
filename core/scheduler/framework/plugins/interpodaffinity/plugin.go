// Package interpodaffinity is the InterPodAffinity plugin: a pod's required
// pod affinity and anti-affinity, and existing pods' required
// anti-affinity, filter nodes by topology domain; preferred terms (the
// pod's and existing pods') score them.
package interpodaffinity

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// DefaultHardPodAffinityWeight is how much an existing pod's required
// affinity to the incoming pod counts when scoring.
const DefaultHardPodAffinityWeight int32 = 1

// InterPodAffinity implements the plugin.
type InterPodAffinity struct {
	handle                framework.Handle
	hardPodAffinityWeight int32
}

// New returns the plugin.
func New(h framework.Handle) *InterPodAffinity {
	return &InterPodAffinity{handle: h, hardPodAffinityWeight: DefaultHardPodAffinityWeight}
}

// Name implements framework.Plugin.
func (*InterPodAffinity) Name() string { return names.InterPodAffinity }

// mergeNamespaces turns a term's namespace selector into namespace names
// now, so that later matching needs no namespace labels.
func (pl *InterPodAffinity) mergeNamespaces(t *framework.AffinityTerm) {
	if t.NamespaceSelector.Empty() {
		return
	}
	ns := make(map[string]bool, len(t.Namespaces))
	for n := range t.Namespaces {
		ns[n] = true
	}
	for _, n := range pl.handle.NamespacesMatching(t.NamespaceSelector) {
		ns[n] = true
	}
	t.Namespaces = ns
	t.NamespaceSelector = labels.Nothing()
}

// EventsToRegister: assigned pods coming, going or relabelled change the
// domains' counts; node labels change the domains.
func (pl *InterPodAffinity) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: framework.Add | framework.UpdatePodLabel | framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodChange},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}
}

func (pl *InterPodAffinity) isSchedulableAfterPodChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	oldPod, _ := oldObj.(*api.Pod)
	newPod, _ := newObj.(*api.Pod)
	if (newPod != nil && newPod.Spec.NodeName == "") || (oldPod != nil && oldPod.Spec.NodeName == "") {
		return framework.QueueSkip
	}
	pi := framework.NewPodInfo(pod)
	for i := range pi.RequiredAffinityTerms {
		pl.mergeNamespaces(&pi.RequiredAffinityTerms[i])
	}
	for i := range pi.RequiredAntiAffinityTerms {
		pl.mergeNamespaces(&pi.RequiredAntiAffinityTerms[i])
	}
	switch {
	case newPod != nil && oldPod != nil:
		if !framework.PodMatchesAllAffinityTerms(pi.RequiredAffinityTerms, oldPod) && framework.PodMatchesAllAffinityTerms(pi.RequiredAffinityTerms, newPod) {
			return framework.Queue
		}
		if matchesAny(pi.RequiredAntiAffinityTerms, oldPod) && !matchesAny(pi.RequiredAntiAffinityTerms, newPod) {
			return framework.Queue
		}
		return framework.QueueSkip
	case newPod != nil:
		if framework.PodMatchesAllAffinityTerms(pi.RequiredAffinityTerms, newPod) {
			return framework.Queue
		}
		return framework.QueueSkip
	case oldPod != nil:
		if matchesAny(pi.RequiredAntiAffinityTerms, oldPod) {
			return framework.Queue
		}
		// The deleted pod's own anti-affinity may have kept this one out.
		nsLabels := pl.handle.NamespaceLabels(pod.Namespace)
		for _, t := range framework.NewPodInfo(oldPod).RequiredAntiAffinityTerms {
			if t.Matches(pod, nsLabels) {
				return framework.Queue
			}
		}
		return framework.QueueSkip
	}
	return framework.Queue
}

func matchesAny(terms []framework.AffinityTerm, pod *api.Pod) bool {
	for i := range terms {
		if terms[i].Matches(pod, nil) {
			return true
		}
	}
	return false
}

func (pl *InterPodAffinity) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	n, ok := newObj.(*api.Node)
	if !ok {
		return framework.Queue
	}
	old, _ := oldObj.(*api.Node)
	pi := framework.NewPodInfo(pod)
	terms := append(append([]framework.AffinityTerm(nil), pi.RequiredAffinityTerms...), pi.RequiredAntiAffinityTerms...)
	if len(terms) == 0 {
		// Rejected for existing pods' anti-affinity: any new domain may help.
		return framework.Queue
	}
	for _, t := range terms {
		v, has := n.Labels[t.TopologyKey]
		if old == nil {
			if has {
				return framework.Queue
			}
			continue
		}
		if ov, oldHas := old.Labels[t.TopologyKey]; has != oldHas || ov != v {
			return framework.Queue
		}
	}
	return framework.QueueSkip
}
