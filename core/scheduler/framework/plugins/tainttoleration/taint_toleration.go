// Package tainttoleration is the TaintToleration plugin: a node's
// NoSchedule and NoExecute taints keep off pods that do not tolerate
// them, and each untolerated PreferNoSchedule taint lowers the node's score.
package tainttoleration

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

const preScoreStateKey = "PreScore" + names.TaintToleration

// TaintToleration implements the plugin.
type TaintToleration struct{}

// New returns the plugin.
func New() *TaintToleration { return &TaintToleration{} }

// Name implements framework.Plugin.
func (*TaintToleration) Name() string { return names.TaintToleration }

// NodeLocal implements framework.NodeLocalPlugin: it reads the pod's tolerations and the node's taints.
func (*TaintToleration) NodeLocal() {}

// Filter rejects a node with a NoSchedule or NoExecute taint the pod does
// not tolerate, naming the first such taint.
func (*TaintToleration) Filter(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	taint, untolerated := helper.FindMatchingUntoleratedTaint(nodeInfo.Taints(), pod.Spec.Tolerations, helper.DoNotScheduleTaints)
	if !untolerated {
		return nil
	}
	return framework.NewStatus(framework.UnschedulableAndUnresolvable,
		fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value))
}

type preScoreState struct {
	tolerationsPreferNoSchedule []api.Toleration
}

// PreScore keeps the tolerations that can tolerate PreferNoSchedule taints.
func (*TaintToleration) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	if len(nodes) == 0 {
		return nil
	}
	var tols []api.Toleration
	for _, t := range pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			tols = append(tols, t)
		}
	}
	state.Write(preScoreStateKey, &preScoreState{tolerationsPreferNoSchedule: tols})
	return nil
}

// Score counts the node's untolerated PreferNoSchedule taints.
func (*TaintToleration) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	v, ok := state.Read(preScoreStateKey)
	if !ok {
		return 0, framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", preScoreStateKey))
	}
	tols := v.(*preScoreState).tolerationsPreferNoSchedule
	var n int64
	taints := nodeInfo.Taints()
	for i := range taints {
		t := &taints[i]
		if t.Effect == api.TaintEffectPreferNoSchedule && !api.TolerationsTolerateTaint(tols, t) {
			n++
		}
	}
	return n, nil
}

// NormalizeScore turns fewer untolerated taints into a higher score.
func (*TaintToleration) NormalizeScore(_ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	return helper.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)
}

// EventsToRegister: a node added or its taints changed; the pod's tolerations changed.
func (pl *TaintToleration) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeTaint}, QueueingHintFn: isSchedulableAfterNodeChange},
		{Event: framework.ClusterEvent{Resource: framework.UnscheduledPod, ActionType: framework.UpdatePodTolerations}, QueueingHintFn: isSchedulableAfterPodTolerationChange},
	}
}

func untolerated(pod *api.Pod, n *api.Node) bool {
	_, u := helper.FindMatchingUntoleratedTaint(n.Spec.Taints, pod.Spec.Tolerations, helper.DoNotScheduleTaints)
	return u
}

func isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	n, ok := newObj.(*api.Node)
	if !ok {
		return framework.Queue
	}
	if untolerated(pod, n) {
		return framework.QueueSkip
	}
	if old, ok := oldObj.(*api.Node); ok && !untolerated(pod, old) {
		// The node was already fine for this plugin; the change is not what blocked the pod.
		return framework.QueueSkip
	}
	return framework.Queue
}

func isSchedulableAfterPodTolerationChange(pod *api.Pod, _, newObj any) framework.QueueingHint {
	if p, ok := newObj.(*api.Pod); ok && p.UID == pod.UID {
		return framework.Queue
	}
	return framework.QueueSkip
}
