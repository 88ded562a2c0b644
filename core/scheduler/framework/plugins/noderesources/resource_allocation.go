package noderesources

import (
	"fmt"
	"slices"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
)

func preScoreStateKey(plugin string) string { return "PreScore" + plugin }

// resourceAllocationScorer scores a node by what its resources would be
// after placing the pod. useRequested counts real requests; otherwise an
// unset cpu or memory request counts as the scoring default.
type resourceAllocationScorer struct {
	name         string
	useRequested bool
	scorer       func(requested, allocatable []int64) int64
	resources    []ResourceSpec
	// stateKey is where PreScore leaves the pod's requests.
	stateKey string
	// requested and allocatable are scratch rows reused node after node:
	// scoring runs on one goroutine and the scorer keeps neither.
	requested, allocatable []int64
	// keys are the resources' keys, made on first use.
	keys []framework.ResourceKey
	// memo keeps each node's score for the pod requests memoReqs (whose
	// identity is reqsID) as of the node's generation: a ReplicaSet's
	// pods ask for the same, and between two of them few nodes change,
	// so most nodes are scored from a small table instead of from their
	// own objects, each a cache miss in a big cluster.
	memo     framework.NodeMemo[resourceScore]
	memoReqs []int64
	reqsID   int64
}

// resourceScore is a node's score for the requests reqsID, as of the
// node's generation.
type resourceScore struct {
	generation int64
	reqsID     int64
	score      int64
}

// memoLimit bounds the scores kept for NodeInfos from outside the
// scheduler's snapshot (dry runs).
const memoLimit = 4096

// podRequests is the pod's request for each scored resource.
func (r *resourceAllocationScorer) podRequests(pod *api.Pod) []int64 {
	opts := framework.PodRequestsOptions{}
	if !r.useRequested {
		opts.NonMissing = framework.NonZeroDefaults()
	}
	reqs := framework.PodRequestsResource(pod, opts)
	out := make([]int64, len(r.resources))
	for i, res := range r.resources {
		out[i] = reqs.Get(res.Name)
	}
	return out
}

func (r *resourceAllocationScorer) score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	var podReqs []int64
	if v, ok := state.Read(r.stateKey); ok {
		podReqs = v.([]int64)
	} else {
		podReqs = r.podRequests(pod)
	}
	if len(r.resources) == 0 {
		return 0, framework.AsStatus(fmt.Errorf("resources not found"))
	}
	if len(r.requested) != len(r.resources) {
		r.requested, r.allocatable = make([]int64, len(r.resources)), make([]int64, len(r.resources))
		r.keys = make([]framework.ResourceKey, len(r.resources))
		for i, res := range r.resources {
			r.keys[i] = framework.KeyFor(res.Name)
		}
	}
	if r.reqsID == 0 || !slices.Equal(podReqs, r.memoReqs) {
		r.memoReqs = append(r.memoReqs[:0], podReqs...)
		r.reqsID++
	}
	m, found := r.memo.Lookup(nodeInfo, memoLimit)
	if found && m.generation == nodeInfo.Generation && m.reqsID == r.reqsID {
		return m.score, nil
	}
	*m = resourceScore{generation: nodeInfo.Generation, reqsID: r.reqsID, score: r.scoreNode(podReqs, nodeInfo)}
	return m.score, nil
}

// scoreNode scores the node for a pod requesting podReqs.
func (r *resourceAllocationScorer) scoreNode(podReqs []int64, nodeInfo *framework.NodeInfo) int64 {
	requested, allocatable := r.requested, r.allocatable
	clear(requested)
	clear(allocatable)
	used := nodeInfo.NonZeroRequested
	if r.useRequested {
		used = nodeInfo.Requested
	}
	for i, key := range r.keys {
		alloc := nodeInfo.Allocatable.Value(key)
		if !key.Native() && podReqs[i] == 0 {
			// An extended resource the pod does not ask for does not count.
			continue
		}
		if alloc == 0 {
			continue
		}
		allocatable[i] = alloc
		requested[i] = used.Value(key) + podReqs[i]
	}
	return r.scorer(requested, allocatable)
}
