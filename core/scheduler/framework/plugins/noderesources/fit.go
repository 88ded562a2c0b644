// Package noderesources holds the NodeResourcesFit plugin (requests must
// fit the node's allocatable, scored LeastAllocated) and the
// NodeResourcesBalancedAllocation plugin (prefer nodes whose cpu and
// memory use stay even).
package noderesources

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

const preFilterStateKey = "PreFilter" + names.NodeResourcesFit

// ResourceSpec is a resource the scorers consider, with its weight.
type ResourceSpec struct {
	Name   string
	Weight int64
}

// DefaultResources are what both scorers weigh by default: cpu and memory, 1 each.
var DefaultResources = []ResourceSpec{{Name: api.ResourceCPU, Weight: 1}, {Name: api.ResourceMemory, Weight: 1}}

// Fit implements NodeResourcesFit.
type Fit struct {
	scorer resourceAllocationScorer
	// fits keeps, per node, whether a pod requesting fitReq (whose
	// identity is fitReqID) fits it, as of the node's generation, for the
	// same reason the scorer keeps its scores.
	fits     framework.NodeMemo[fitVerdict]
	fitReq   framework.Resource
	fitReqID int64
}

// fitVerdict is whether the requests reqID fit a node as of its generation.
type fitVerdict struct {
	generation int64
	reqID      int64
	fits       bool
}

// NewFit returns the plugin with the LeastAllocated strategy.
func NewFit() *Fit {
	return &Fit{scorer: resourceAllocationScorer{name: "LeastAllocated", scorer: leastResourceScorer(DefaultResources), resources: DefaultResources,
		stateKey: preScoreStateKey(names.NodeResourcesFit)}}
}

// Name implements framework.Plugin.
func (*Fit) Name() string { return names.NodeResourcesFit }

// NodeLocal implements framework.NodeLocalPlugin: its verdict and score read the pod's requests and the node's.
func (*Fit) NodeLocal() {}

// PreFilter computes the pod's request once.
func (*Fit) PreFilter(state *framework.CycleState, pod *api.Pod) (*framework.PreFilterResult, *framework.Status) {
	state.Write(preFilterStateKey, framework.ComputePodResourceRequest(pod))
	return nil, nil
}

// InsufficientResource is one way a pod does not fit a node.
type InsufficientResource struct {
	ResourceName string
	Reason       string
	Requested    int64
	Used         int64
	Capacity     int64
}

// Filter rejects a node without room for the pod, giving every missing
// resource as a reason ("Insufficient cpu", "Too many pods").
func (f *Fit) Filter(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	var req *framework.Resource
	if v, ok := state.Read(preFilterStateKey); ok {
		req = v.(*framework.Resource)
	} else {
		req = framework.ComputePodResourceRequest(pod)
	}
	if f.fitReqID == 0 || !req.Equal(&f.fitReq) {
		f.fitReq = *req.Clone()
		f.fitReqID++
	}
	m, found := f.fits.Lookup(nodeInfo, memoLimit)
	if found && m.generation == nodeInfo.Generation && m.reqID == f.fitReqID && m.fits {
		return nil
	}
	insufficient := Fits(req, nodeInfo)
	*m = fitVerdict{generation: nodeInfo.Generation, reqID: f.fitReqID, fits: len(insufficient) == 0}
	if len(insufficient) == 0 {
		return nil
	}
	reasons := make([]string, len(insufficient))
	for i, r := range insufficient {
		reasons[i] = r.Reason
	}
	return framework.NewStatus(framework.Unschedulable, reasons...)
}

// Fits lists what the node lacks for a pod requesting req.
func Fits(req *framework.Resource, nodeInfo *framework.NodeInfo) []InsufficientResource {
	var out []InsufficientResource
	alloc, used := nodeInfo.Allocatable, nodeInfo.Requested
	if len(nodeInfo.Pods)+1 > alloc.AllowedPodNumber {
		out = append(out, InsufficientResource{ResourceName: api.ResourcePods, Reason: "Too many pods",
			Requested: 1, Used: int64(len(nodeInfo.Pods)), Capacity: int64(alloc.AllowedPodNumber)})
	}
	if req.MilliCPU == 0 && req.Memory == 0 && req.EphemeralStorage == 0 && len(req.ScalarResources) == 0 {
		return out
	}
	if req.MilliCPU > 0 && req.MilliCPU > alloc.MilliCPU-used.MilliCPU {
		out = append(out, InsufficientResource{ResourceName: api.ResourceCPU, Reason: "Insufficient cpu",
			Requested: req.MilliCPU, Used: used.MilliCPU, Capacity: alloc.MilliCPU})
	}
	if req.Memory > 0 && req.Memory > alloc.Memory-used.Memory {
		out = append(out, InsufficientResource{ResourceName: api.ResourceMemory, Reason: "Insufficient memory",
			Requested: req.Memory, Used: used.Memory, Capacity: alloc.Memory})
	}
	if req.EphemeralStorage > 0 && req.EphemeralStorage > alloc.EphemeralStorage-used.EphemeralStorage {
		out = append(out, InsufficientResource{ResourceName: api.ResourceEphemeralStorage, Reason: "Insufficient ephemeral-storage",
			Requested: req.EphemeralStorage, Used: used.EphemeralStorage, Capacity: alloc.EphemeralStorage})
	}
	for _, name := range req.ScalarNames() {
		q := req.ScalarResources[name]
		if q > 0 && q > alloc.ScalarResources[name]-used.ScalarResources[name] {
			out = append(out, InsufficientResource{ResourceName: name, Reason: fmt.Sprintf("Insufficient %v", name),
				Requested: q, Used: used.ScalarResources[name], Capacity: alloc.ScalarResources[name]})
		}
	}
	return out
}

// PreScore computes the pod's scoring request (with defaults for unset requests).
func (f *Fit) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	state.Write(f.scorer.stateKey, f.scorer.podRequests(pod))
	return nil
}

// Score is the LeastAllocated score: the free share of each resource after
// placing the pod, weighted, out of MaxNodeScore.
func (f *Fit) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	return f.scorer.score(state, pod, nodeInfo)
}

// EventsToRegister: an assigned pod deleted or scaled down frees room; a
// node added or grown may have room.
func (f *Fit) EventsToRegister() []framework.ClusterEventWithHint {
	return []framework.ClusterEventWithHint{
		{Event: framework.ClusterEvent{Resource: framework.AssignedPod, ActionType: framework.Delete | framework.UpdatePodScaleDown}, QueueingHintFn: isSchedulableAfterPodEvent},
		{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add | framework.UpdateNodeAllocatable | framework.UpdateNodeTaint | framework.UpdateNodeLabel}, QueueingHintFn: isSchedulableAfterNodeChange},
	}
}

func isSchedulableAfterPodEvent(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	old, ok := oldObj.(*api.Pod)
	if !ok || old.Spec.NodeName == "" {
		return framework.QueueSkip
	}
	if newObj == nil {
		// Any assigned pod that goes away frees room somewhere.
		return framework.Queue
	}
	return framework.Queue
}

// fitsAllocatable reports whether the pod fits an empty node.
func fitsAllocatable(pod *api.Pod, node *api.Node) bool {
	ni := framework.NewNodeInfo()
	ni.SetNode(node)
	for _, r := range Fits(framework.ComputePodResourceRequest(pod), ni) {
		if r.ResourceName != api.ResourcePods {
			return false
		}
	}
	return true
}

func isSchedulableAfterNodeChange(pod *api.Pod, oldObj, newObj any) framework.QueueingHint {
	n, ok := newObj.(*api.Node)
	if !ok {
		return framework.Queue
	}
	if !fitsAllocatable(pod, n) {
		return framework.QueueSkip
	}
	old, ok := oldObj.(*api.Node)
	if !ok || !fitsAllocatable(pod, old) {
		return framework.Queue
	}
	// It fit before as well: only more allocatable can help.
	req := framework.ComputePodResourceRequest(pod)
	oldAlloc, newAlloc := framework.NewResource(old.Status.Allocatable), framework.NewResource(n.Status.Allocatable)
	if (req.MilliCPU > 0 && newAlloc.MilliCPU > oldAlloc.MilliCPU) || (req.Memory > 0 && newAlloc.Memory > oldAlloc.Memory) ||
		(req.EphemeralStorage > 0 && newAlloc.EphemeralStorage > oldAlloc.EphemeralStorage) || newAlloc.AllowedPodNumber > oldAlloc.AllowedPodNumber {
		return framework.Queue
	}
	for name, q := range req.ScalarResources {
		if q > 0 && newAlloc.ScalarResources[name] > oldAlloc.ScalarResources[name] {
			return framework.Queue
		}
	}
	return framework.QueueSkip
}
