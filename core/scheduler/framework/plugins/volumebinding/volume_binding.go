// Package volumebinding is the VolumeBinding plugin, cut to what the
// simulation's storage needs: a pod whose claims are missing, being
// deleted, or not yet bound under an Immediate class waits (the PV
// controller binds them, then the pod is retried), and a pod whose claims
// are bound fits only on nodes its volumes' node affinity allows. Claims
// of a WaitForFirstConsumer class pass: the PV controller provisions them
// on the node the pod gets.
package volumebinding

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// The plugin's reasons, as upstream words them.
const (
	ErrReasonUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims"
	ErrReasonNodeConflict     = "node(s) had volume node affinity conflict"
)

// annBindCompleted marks a claim the PV controller finished binding.
const annBindCompleted = "pv.kubernetes.io/bind-completed"

// Listers are the storage objects the plugin reads.
type Listers interface {
	PersistentVolumeClaim(namespace, name string) (*api.PersistentVolumeClaim, bool)
	PersistentVolume(name string) (*api.PersistentVolume, bool)
	StorageClass(name string) (*api.StorageClass, bool)
}

// VolumeBinding implements the plugin.
type VolumeBinding struct {
	listers Listers
}

// New returns the plugin.
func New(l Listers) *VolumeBinding { return &VolumeBinding{listers: l} }

// Name implements framework.Plugin.
func (*VolumeBinding) Name() string { return names.VolumeBinding }

const stateKey = "PreFilter" + names.VolumeBinding

// stateData is the pod's bound volumes, for Filter.
type stateData struct {
	boundVolumes []*api.PersistentVolume
}

// claimNames lists the claims a pod's volumes name.
func claimNames(pod *api.Pod) []string {
	var out []string
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			out = append(out, v.PersistentVolumeClaim.ClaimName)
		}
	}
	return out
}

// PreFilter sorts the pod's claims: missing or deleted ones, and unbound
// ones of an Immediate class, make the pod wait whatever the node.
func (pl *VolumeBinding) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	names := claimNames(pod)
	if len(names) == 0 {
		state.Write(stateKey, &stateData{})
		return nil, framework.NewStatus(framework.Skip)
	}
	s := &stateData{}
	unboundImmediate := false
	for _, n := range names {
		claim, ok := pl.listers.PersistentVolumeClaim(pod.Namespace, n)
		if !ok {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q not found", n))
		}
		if claim.DeletionTimestamp != nil {
			return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q is being deleted", n))
		}
		if claim.Spec.VolumeName != "" && claim.Annotations[annBindCompleted] != "" {
			pv, ok := pl.listers.PersistentVolume(claim.Spec.VolumeName)
			if !ok {
				return nil, framework.AsStatus(fmt.Errorf("pvc %s/%s: persistentvolume %q not found", claim.Namespace, claim.Name, claim.Spec.VolumeName))
			}
			s.boundVolumes = append(s.boundVolumes, pv)
			continue
		}
		if !pl.delayBinding(claim) {
			unboundImmediate = true
		}
	}
	if unboundImmediate {
		// Retried once the PV controller has bound them.
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonUnboundImmediate)
	}
	state.Write(stateKey, s)
	return nil, nil
}

// delayBinding reports a claim whose class waits for its first consumer.
func (pl *VolumeBinding) delayBinding(claim *api.PersistentVolumeClaim) bool {
	if claim.Spec.StorageClassName == nil || *claim.Spec.StorageClassName == "" {
		return false
	}
	class, ok := pl.listers.StorageClass(*claim.Spec.StorageClassName)
	return ok && class.VolumeBindingMode != nil && *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer
}

// Filter keeps the nodes every bound volume's node affinity allows.
func (pl *VolumeBinding) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	v, ok := state.Read(stateKey)
	if !ok {
		return framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", stateKey))
	}
	node := nodeInfo.Node()
	for _, pv := range v.(*stateData).boundVolumes {
		if !volumeFitsNode(pv, node) {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeConflict)
		}
	}
	return nil
}

// volumeFitsNode checks a volume's required node affinity against a node.
func volumeFitsNode(pv *api.PersistentVolume, node *api.Node) bool {
	if pv.Spec.NodeAffinity == nil || pv.Spec.NodeAffinity.Required == nil {
		return true
	}
	return helper.NewNodeSelector(pv.Spec.NodeAffinity.Required).Match(node)
}

// EventsToRegister: claims and volumes being added or bound, classes
// appearing, and nodes that may suit a volume's node affinity.
func (pl *VolumeBinding) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.StorageClass, ActionType: framework.Add | framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolumeClaim, ActionType: framework.Add | framework.Update},
			QueueingHintFn: func(pod *api.Pod, _, newObj any) framework.QueueingHint {
				claim, ok := newObj.(*api.PersistentVolumeClaim)
				if !ok || claim.Namespace != pod.Namespace {
					return framework.QueueSkip
				}
				for _, n := range claimNames(pod) {
					if n == claim.Name {
						return framework.Queue
					}
				}
				return framework.QueueSkip
			}},
		{Event: framework.ClusterEvent{Resource: framework.PersistentVolume, ActionType: framework.Add | framework.Update}},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeLabel | framework.UpdateNodeTaint}},
	}
}
