package framework

import (
	"maps"
	"reflect"

	"kubeplay/core/api"
)

// ActionType is what happened to an object, as a bit set so a plugin can
// register for several at once.
type ActionType int64

// The actions upstream distinguishes. Update is split by what changed so
// that, say, a node heartbeat does not wake pods waiting for a label.
const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeAllocatable
	UpdateNodeLabel
	UpdateNodeTaint
	UpdateNodeCondition
	UpdateNodeAnnotation
	UpdatePodLabel
	UpdatePodScaleDown
	UpdatePodTolerations
	UpdatePodSchedulingGatesEliminated
	updatePodOther

	Update = UpdateNodeAllocatable | UpdateNodeLabel | UpdateNodeTaint | UpdateNodeCondition | UpdateNodeAnnotation |
		UpdatePodLabel | UpdatePodScaleDown | UpdatePodTolerations | UpdatePodSchedulingGatesEliminated | updatePodOther
	All ActionType = 1<<iota - 1
)

var actionNames = []string{"Add", "Delete", "UpdateNodeAllocatable", "UpdateNodeLabel", "UpdateNodeTaint",
	"UpdateNodeCondition", "UpdateNodeAnnotation", "UpdatePodLabel", "UpdatePodScaleDown", "UpdatePodTolerations",
	"UpdatePodSchedulingGatesEliminated", "UpdatePodOther"}

func (a ActionType) String() string {
	if a == All {
		return "All"
	}
	for i, n := range actionNames {
		if a == 1<<i {
			return n
		}
	}
	return "Update"
}

// EventResource is the kind of object an event is about. Pod matches both
// AssignedPod and UnscheduledPod.
type EventResource string

// The resources the scheduler watches.
const (
	Node           EventResource = "Node"
	Pod            EventResource = "Pod"
	AssignedPod    EventResource = "AssignedPod"
	UnscheduledPod EventResource = "UnscheduledPod"
	Namespace      EventResource = "Namespace"
	// The storage objects VolumeBinding waits on.
	PersistentVolumeClaim EventResource = "PersistentVolumeClaim"
	PersistentVolume      EventResource = "PersistentVolume"
	StorageClass          EventResource = "storage.k8s.io/StorageClass"
	WildCard              EventResource = "*"
)

// ClusterEvent is a change in the cluster that may make pods schedulable.
type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
	label      string
}

// Label names the event ("NodeAdd", "AssignedPodDelete", "UnschedulableTimeout").
func (e ClusterEvent) Label() string {
	if e.label != "" {
		return e.label
	}
	return string(e.Resource) + e.ActionType.String()
}

// Events the queue itself raises.
var (
	EventUnscheduledPodAdd    = ClusterEvent{Resource: UnscheduledPod, ActionType: Add}
	EventUnscheduledPodUpdate = ClusterEvent{Resource: UnscheduledPod, ActionType: Update}
	EventAssignedPodAdd       = ClusterEvent{Resource: AssignedPod, ActionType: Add}
	EventAssignedPodDelete    = ClusterEvent{Resource: AssignedPod, ActionType: Delete}
	EventNodeAdd              = ClusterEvent{Resource: Node, ActionType: Add}
	EventUnschedulableTimeout = ClusterEvent{Resource: WildCard, ActionType: All, label: "UnschedulableTimeout"}
	EventForceActivate        = ClusterEvent{Resource: WildCard, ActionType: All, label: "ForceActivate"}
)

// IsWildCard reports an event that moves every pod, whatever rejected it.
func (e ClusterEvent) IsWildCard() bool { return e.Resource == WildCard && e.ActionType == All }

// Match reports whether an event a plugin registered (e) covers the event
// that happened (incoming).
func (e ClusterEvent) Match(incoming ClusterEvent) bool {
	if e.IsWildCard() {
		return true
	}
	if e.ActionType&incoming.ActionType == 0 {
		return false
	}
	if e.Resource == incoming.Resource {
		return true
	}
	return e.Resource == Pod && (incoming.Resource == AssignedPod || incoming.Resource == UnscheduledPod)
}

// QueueingHint is a plugin's answer to "may this event make the pod schedulable?".
type QueueingHint int

// QueueSkip leaves the pod where it is; Queue moves it back.
const (
	QueueSkip QueueingHint = iota
	Queue
)

// QueueingHintFn answers for one pod and one event; old or new is nil for
// an add or a delete. A nil function always answers Queue.
type QueueingHintFn func(pod *api.Pod, oldObj, newObj any) QueueingHint

// ClusterEventWithHint is a registration: the event and its hint.
type ClusterEventWithHint struct {
	Event          ClusterEvent
	QueueingHintFn QueueingHintFn
}

// NodeSchedulingPropertiesChange lists the kinds of change between two
// versions of a node that can matter to scheduling (none for a heartbeat).
func NodeSchedulingPropertiesChange(newNode, oldNode *api.Node) []ClusterEvent {
	var out []ClusterEvent
	add := func(a ActionType) { out = append(out, ClusterEvent{Resource: Node, ActionType: a}) }
	// Only becoming schedulable counts: becoming unschedulable helps no pod.
	if newNode.Spec.Unschedulable != oldNode.Spec.Unschedulable && !newNode.Spec.Unschedulable {
		add(UpdateNodeTaint)
	}
	if !reflect.DeepEqual(newNode.Status.Allocatable, oldNode.Status.Allocatable) {
		add(UpdateNodeAllocatable)
	}
	if !api.EqualStringMaps(newNode.Labels, oldNode.Labels) {
		add(UpdateNodeLabel)
	}
	if !reflect.DeepEqual(newNode.Spec.Taints, oldNode.Spec.Taints) {
		add(UpdateNodeTaint)
	}
	if !sameConditionStatuses(newNode.Status.Conditions, oldNode.Status.Conditions) {
		add(UpdateNodeCondition)
	}
	if !api.EqualStringMaps(newNode.Annotations, oldNode.Annotations) {
		add(UpdateNodeAnnotation)
	}
	return out
}

func sameConditionStatuses(a, b []api.NodeCondition) bool {
	m := map[string]string{}
	for _, c := range a {
		m[c.Type] = c.Status
	}
	n := map[string]string{}
	for _, c := range b {
		n[c.Type] = c.Status
	}
	return maps.Equal(m, n)
}

// PodSchedulingPropertiesChange lists the kinds of change between two
// versions of a pod that can matter to scheduling.
func PodSchedulingPropertiesChange(newPod, oldPod *api.Pod) []ClusterEvent {
	r := AssignedPod
	if newPod.Spec.NodeName == "" {
		r = UnscheduledPod
	}
	var out []ClusterEvent
	if !api.EqualStringMaps(newPod.Labels, oldPod.Labels) {
		out = append(out, ClusterEvent{Resource: r, ActionType: UpdatePodLabel})
	}
	if podScaledDown(newPod, oldPod) {
		out = append(out, ClusterEvent{Resource: r, ActionType: UpdatePodScaleDown})
	}
	if len(oldPod.Spec.SchedulingGates) > 0 && len(newPod.Spec.SchedulingGates) == 0 {
		out = append(out, ClusterEvent{Resource: r, ActionType: UpdatePodSchedulingGatesEliminated})
	}
	// Every status write of a placed pod asks.
	if !api.EqualTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations) {
		out = append(out, ClusterEvent{Resource: r, ActionType: UpdatePodTolerations})
	}
	if len(out) == 0 {
		out = append(out, ClusterEvent{Resource: r, ActionType: updatePodOther})
	}
	return out
}

// podScaledDown reports a request that went down (an in-place resize).
func podScaledDown(newPod, oldPod *api.Pod) bool {
	if sameRequests(newPod, oldPod) {
		return false
	}
	oldReq := ComputePodResourceRequest(oldPod)
	newReq := ComputePodResourceRequest(newPod)
	return newReq.MilliCPU < oldReq.MilliCPU || newReq.Memory < oldReq.Memory || newReq.EphemeralStorage < oldReq.EphemeralStorage
}
