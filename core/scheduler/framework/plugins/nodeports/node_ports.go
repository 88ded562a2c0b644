// Package nodeports is the NodePorts plugin: a pod asking for host ports
// fits only on a node where they are free.
package nodeports

import (
	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// ErrReason is the rejection reason.
const ErrReason = "node(s) didn't have free ports for the requested pod ports"

const preFilterStateKey = "PreFilter" + names.NodePorts

// NodePorts implements the plugin.
type NodePorts struct{}

// New returns the plugin.
func New() *NodePorts { return &NodePorts{} }

// Name implements framework.Plugin.
func (*NodePorts) Name() string { return names.NodePorts }

// NodeLocal implements framework.NodeLocalPlugin: it reads the pod's host ports and the node's ports in use.
func (*NodePorts) NodeLocal() {}

// wantPorts lists the host ports of the pod's containers.
func wantPorts(pod *api.Pod) []api.ContainerPort {
	var out []api.ContainerPort
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.HostPort > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// PreFilter collects the host ports; a pod with none skips the plugin.
func (*NodePorts) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	ports := wantPorts(pod)
	if len(ports) == 0 {
		return nil, framework.NewStatus(framework.Skip)
	}
	state.Write(preFilterStateKey, ports)
	return nil, nil
}

// Filter rejects a node where any of the ports is taken.
func (*NodePorts) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	var ports []api.ContainerPort
	if v, ok := state.Read(preFilterStateKey); ok {
		ports = v.([]api.ContainerPort)
	} else {
		ports = wantPorts(pod)
	}
	if !Fits(ports, nodeInfo) {
		return framework.NewStatus(framework.Unschedulable, ErrReason)
	}
	return nil
}

// Fits reports whether every port is free on the node.
func Fits(ports []api.ContainerPort, nodeInfo *framework.NodeInfo) bool {
	for _, p := range ports {
		if nodeInfo.UsedPorts.CheckConflict(p.HostIP, p.Protocol, p.HostPort) {
			return false
		}
	}
	return true
}

// EventsToRegister: a pod holding a wanted port went away; a node appeared.
func (pl *NodePorts) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: framework.Delete}, QueueingHintFn: isSchedulableAfterPodDeleted},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.Update}},
	}
}

func isSchedulableAfterPodDeleted(pod *api.Pod, oldObj, _ any) framework.QueueingHint {
	deleted, ok := oldObj.(*api.Pod)
	if !ok {
		return framework.Queue
	}
	used := framework.HostPortInfo{}
	for _, p := range wantPorts(deleted) {
		used.Add(p.HostIP, p.Protocol, p.HostPort)
	}
	for _, p := range wantPorts(pod) {
		if used.CheckConflict(p.HostIP, p.Protocol, p.HostPort) {
			return framework.Queue
		}
	}
	return framework.QueueSkip
}
