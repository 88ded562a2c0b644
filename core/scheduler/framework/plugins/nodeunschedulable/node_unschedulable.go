// Package nodeunschedulable is the NodeUnschedulable plugin: a cordoned
// node (spec.unschedulable) takes only pods tolerating the unschedulable taint.
package nodeunschedulable

import (
	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// ErrReasonUnschedulable is the rejection reason.
const ErrReasonUnschedulable = "node(s) were unschedulable"

// NodeUnschedulable implements the plugin.
type NodeUnschedulable struct{}

// New returns the plugin.
func New() *NodeUnschedulable { return &NodeUnschedulable{} }

// Name implements framework.Plugin.
func (*NodeUnschedulable) Name() string { return names.NodeUnschedulable }

// NodeLocal implements framework.NodeLocalPlugin: it reads the pod's tolerations and the node's spec.
func (*NodeUnschedulable) NodeLocal() {}

var unschedulableTaint = api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}

func toleratesUnschedulable(pod *api.Pod) bool {
	return api.TolerationsTolerateTaint(pod.Spec.Tolerations, &unschedulableTaint)
}

// Filter rejects a cordoned node unless the pod tolerates it.
func (*NodeUnschedulable) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !nodeInfo.Unschedulable() || toleratesUnschedulable(pod) {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnschedulable)
}

// EventsToRegister: a node added or uncordoned; the pod gaining the toleration.
func (pl *NodeUnschedulable) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}, QueueingHintFn: isSchedulableAfterNodeChange},
		{Event: framework.ClusterEvent{Resource: framework.UnscheduledPod, ActionType: framework.UpdatePodTolerations}, QueueingHintFn: isSchedulableAfterPodTolerationChange},
	}
}

func isSchedulableAfterNodeChange(pod *api.Pod, _, newObj any) framework.QueueingHint {
	n, ok := newObj.(*api.Node)
	if !ok {
		return framework.Queue
	}
	if !n.Spec.Unschedulable || toleratesUnschedulable(pod) {
		return framework.Queue
	}
	return framework.QueueSkip
}

func isSchedulableAfterPodTolerationChange(pod *api.Pod, _, newObj any) framework.QueueingHint {
	if p, ok := newObj.(*api.Pod); ok && p.UID == pod.UID && toleratesUnschedulable(p) {
		return framework.Queue
	}
	return framework.QueueSkip
}
