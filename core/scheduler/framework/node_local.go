package framework

import (
	"reflect"
	"slices"

	"kubeplay/core/api"
)

// NodeLocalPlugin marks a Filter or Score plugin whose answer for a node
// follows from the pod's spec (what SamePodShape compares) and that
// node's NodeInfo alone: not from other nodes, other pods elsewhere or
// the time. For a pod shaped like the one before it (a workload's
// replicas, one after another), the framework then keeps those plugins'
// answers per node until the node's generation changes, instead of
// asking every plugin again for each of the hundreds of nodes a cycle
// looks at. Between two replicas only the node the first went to changes.
type NodeLocalPlugin interface {
	Plugin
	NodeLocal()
}

// SamePodShape says whether the node-local plugins see a and b alike:
// the same containers' and init containers' requests, limits, host ports
// and restart policies, the same overhead, pod-level resources, node
// selector, affinity, tolerations and node name. (Whole containers
// differ between replicas: each mounts its own service account volume.)
func SamePodShape(a, b *api.Pod) bool {
	x, y := &a.Spec, &b.Spec
	return x.NodeName == y.NodeName &&
		sameContainerShapes(x.Containers, y.Containers) &&
		sameContainerShapes(x.InitContainers, y.InitContainers) &&
		(x.Overhead == nil && y.Overhead == nil || reflect.DeepEqual(&x.Overhead, &y.Overhead)) &&
		(x.Resources == y.Resources || reflect.DeepEqual(&x.Resources, &y.Resources)) &&
		api.EqualStringMaps(x.NodeSelector, y.NodeSelector) &&
		(x.Affinity == y.Affinity || reflect.DeepEqual(&x.Affinity, &y.Affinity)) &&
		api.EqualTolerations(x.Tolerations, y.Tolerations)
}

// sameResources is reflect.DeepEqual of two containers' resources, at once
// for the usual replica that sets none.
func sameResources(a, b *api.ResourceRequirements) bool {
	none := func(r *api.ResourceRequirements) bool { return r.Limits == nil && r.Requests == nil && r.Claims == nil }
	return none(a) && none(b) || reflect.DeepEqual(a, b)
}

func sameContainerShapes(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if !sameResources(&x.Resources, &y.Resources) || (x.Ports == nil) != (y.Ports == nil) || !slices.Equal(x.Ports, y.Ports) ||
			!(x.RestartPolicy == y.RestartPolicy || reflect.DeepEqual(&x.RestartPolicy, &y.RestartPolicy)) {
			return false
		}
	}
	return true
}

// SetPodShape numbers the cycle's pod by its shape: two cycles given the
// same number promise pods SamePodShape finds alike. Zero, the default,
// keeps nothing.
func (c *CycleState) SetPodShape(id int64) { c.podShape = id }

// nodeLocalAnswers are a node's node-local answers for the pods of one
// shape, as of the node's generation: whether it passed the cycle's
// node-local filters (the set filterMask names, bit i for the
// framework's i-th Filter plugin), and its raw scores from the
// node-local Score plugins scoreMask names, in their order.
type nodeLocalAnswers struct {
	generation, shape int64
	filterKnown       bool
	filterMask        uint64
	scoresKnown       bool
	scoreMask         uint64
	scores            []int64
}

// localMask is the set of the node-local plugins of all (an extension
// point's list) that active (a subsequence of all) holds. An extension
// point of more than 64 plugins keeps nothing.
func localMask[P Plugin](all, active []P) uint64 {
	if len(all) > 64 {
		return 0
	}
	var mask uint64
	j := 0
	for i, pl := range all {
		if j == len(active) {
			break
		}
		if any(active[j]) != any(pl) {
			continue
		}
		j++
		if _, local := any(pl).(NodeLocalPlugin); local {
			mask |= 1 << i
		}
	}
	return mask
}

// localAnswers returns ni's kept answers for the cycle's pod shape, and
// whether they were kept before (else they are emptied, to fill); nil
// when none are kept (no shape, or a NodeInfo outside the snapshot).
func (f *Framework) localAnswers(state *CycleState, ni *NodeInfo) (a *nodeLocalAnswers, kept bool) {
	if state.podShape == 0 || ni.slot == 0 {
		return nil, false
	}
	a, found := f.local.Lookup(ni, 0)
	if found && a.generation == ni.Generation && a.shape == state.podShape {
		return a, true
	}
	*a = nodeLocalAnswers{generation: ni.Generation, shape: state.podShape, scores: a.scores[:0]}
	return a, false
}
