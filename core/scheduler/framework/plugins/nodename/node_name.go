// Package nodename is the NodeName plugin: a pod that names a node fits
// only there.
package nodename

import (
	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// ErrReason is the rejection reason.
const ErrReason = "node(s) didn't match the requested node name"

// NodeName implements the plugin.
type NodeName struct{}

// New returns the plugin.
func New() *NodeName { return &NodeName{} }

// Name implements framework.Plugin.
func (*NodeName) Name() string { return names.NodeName }

// NodeLocal implements framework.NodeLocalPlugin: it reads the pod's node name and the node's.
func (*NodeName) NodeLocal() {}

// Filter rejects every node but the one the pod names.
func (*NodeName) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if !Fits(pod, nodeInfo) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReason)
	}
	return nil
}

// Fits reports whether the pod names no node or this one.
func Fits(pod *api.Pod, nodeInfo *framework.NodeInfo) bool {
	return pod.Spec.NodeName == "" || pod.Spec.NodeName == nodeInfo.Node().Name
}

// EventsToRegister: a node added with the requested name.
func (pl *NodeName) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{{
		Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add},
		QueueingHintFn: func(pod *api.Pod, _, newObj any) framework.QueueingHint {
			if n, ok := newObj.(*api.Node); ok && (pod.Spec.NodeName == "" || pod.Spec.NodeName == n.Name) {
				return framework.Queue
			}
			return framework.QueueSkip
		},
	}}
}
