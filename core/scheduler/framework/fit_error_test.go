package framework_test

import (
	"testing"

	"kubeplay/core/scheduler/framework"
)

func TestFitErrorMessage(t *testing.T) {
	taint := "node(s) had untolerated taint {node-role.kubernetes.io/master: }"
	aff := "node(s) didn't match Pod's node affinity/selector"
	tests := []struct {
		name       string
		all        int
		statuses   map[string]*framework.Status
		absent     *framework.Status
		preFilter  string
		postFilter string
		want       string
	}{
		{"counts per reason, sorted as strings", 6, map[string]*framework.Status{
			"51": framework.NewStatus(framework.UnschedulableAndUnresolvable, taint),
			"52": framework.NewStatus(framework.UnschedulableAndUnresolvable, taint),
			"53": framework.NewStatus(framework.UnschedulableAndUnresolvable, taint),
			"54": framework.NewStatus(framework.UnschedulableAndUnresolvable, aff),
			"55": framework.NewStatus(framework.UnschedulableAndUnresolvable, aff),
			"56": framework.NewStatus(framework.UnschedulableAndUnresolvable, aff),
		}, nil, "", "preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.",
			"0/6 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling."},
		{"every reason of a node counts", 2, map[string]*framework.Status{
			"a": framework.NewStatus(framework.Unschedulable, "Insufficient cpu", "Insufficient memory"),
			"b": framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
		}, nil, "", "", "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu."},
		{"absent nodes take the absent status", 3, map[string]*framework.Status{
			"a": framework.NewStatus(framework.Unschedulable, "No preemption victims found for incoming pod"),
		}, framework.NewStatus(framework.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"), "", "",
			"0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."},
		{"a PreFilter rejection is said once", 3, nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "pod affinity terms conflict"),
			"pod affinity terms conflict", "", "0/3 nodes are available: pod affinity terms conflict."},
		{"no reasons at all", 2, nil, nil, "", "", "0/2 nodes are available:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := framework.NewDefaultNodeToStatus()
			for n, s := range tt.statuses {
				m.Set(n, s)
			}
			if tt.absent != nil {
				m.SetAbsentNodesStatus(tt.absent)
			}
			e := &framework.FitError{NumAllNodes: tt.all, Diagnosis: framework.Diagnosis{NodeToStatus: m, PreFilterMsg: tt.preFilter, PostFilterMsg: tt.postFilter}}
			if got := e.Error(); got != tt.want {
				t.Errorf("\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestClusterEventMatch(t *testing.T) {
	tests := []struct {
		registered, happened framework.ClusterEvent
		want                 bool
	}{
		{framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel}, framework.EventNodeAdd, true},
		{framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeLabel}, framework.EventNodeAdd, false},
		{framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Update}, framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeTaint}, true},
		{framework.ClusterEvent{Resource: framework.Pod, ActionType: framework.Delete}, framework.EventAssignedPodDelete, true},
		{framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: framework.Delete}, framework.ClusterEvent{Resource: framework.UnscheduledPod, ActionType: framework.Delete}, false},
		{framework.EventUnschedulableTimeout, framework.EventNodeAdd, true},
	}
	for _, tt := range tests {
		if got := tt.registered.Match(tt.happened); got != tt.want {
			t.Errorf("%s matches %s: %v, want %v", tt.registered.Label(), tt.happened.Label(), got, tt.want)
		}
	}
}
