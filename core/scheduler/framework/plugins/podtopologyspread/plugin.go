package podtopologyspread

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
)

// EventsToRegister: matching assigned pods coming, going or relabelled
// change the counts; nodes coming or relabelled change the domains.
func (pl *PodTopologySpread) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: framework.Add | framework.UpdatePodLabel | framework.Delete}, QueueingHintFn: pl.isSchedulableAfterPodChange},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.Delete | framework.UpdateNodeLabel | framework.UpdateNodeTaint}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
	}
}

func (pl *PodTopologySpread) isSchedulableAfterPodChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	cs, err := pl.getConstraints(pod, api.DoNotSchedule)
	if err != nil {
		return framework.Queue
	}
	matches := func(o any) bool {
		p, ok := o.(*api.Pod)
		if !ok || p.Namespace != pod.Namespace || p.Spec.NodeName == "" {
			return false
		}
		for _, c := range cs {
			if c.Selector.Matches(labels.Set(p.Labels)) {
				return true
			}
		}
		return false
	}
	if matches(oldObj) || matches(newObj) {
		return framework.Queue
	}
	return framework.QueueSkip
}

func (pl *PodTopologySpread) isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	cs, err := pl.getConstraints(pod, api.DoNotSchedule)
	if err != nil {
		return framework.Queue
	}
	oldNode, _ := oldObj.(*api.Node)
	newNode, _ := newObj.(*api.Node)
	switch {
	case oldNode == nil && newNode != nil:
		if nodeLabelsMatchSpreadConstraints(newNode.Labels, cs) {
			return framework.Queue
		}
	case newNode == nil && oldNode != nil:
		if nodeLabelsMatchSpreadConstraints(oldNode.Labels, cs) {
			return framework.Queue
		}
	case oldNode != nil && newNode != nil:
		for _, c := range cs {
			ov, oOK := oldNode.Labels[c.TopologyKey]
			nv, nOK := newNode.Labels[c.TopologyKey]
			if oOK != nOK || ov != nv {
				return framework.Queue
			}
			if c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
				return framework.Queue
			}
		}
	}
	return framework.QueueSkip
}
