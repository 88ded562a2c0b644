package noderesources

import (
	"math"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// BalancedAllocation implements NodeResourcesBalancedAllocation.
type BalancedAllocation struct {
	scorer resourceAllocationScorer
}

// NewBalancedAllocation returns the plugin over cpu and memory.
func NewBalancedAllocation() *BalancedAllocation {
	return &BalancedAllocation{scorer: resourceAllocationScorer{
		name: names.NodeResourcesBalancedAllocation, useRequested: true, scorer: balancedResourceScorer, resources: DefaultResources,
		stateKey: preScoreStateKey(names.NodeResourcesBalancedAllocation),
	}}
}

// Name implements framework.Plugin.
func (*BalancedAllocation) Name() string { return names.NodeResourcesBalancedAllocation }

// NodeLocal implements framework.NodeLocalPlugin: its score reads the pod's requests and the node's.
func (*BalancedAllocation) NodeLocal() {}

// PreScore computes the pod's real requests.
func (b *BalancedAllocation) PreScore(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) *framework.Status {
	state.Write(b.scorer.stateKey, b.scorer.podRequests(pod))
	return nil
}

// Score is (1 - the standard deviation of the used fractions) * MaxNodeScore.
func (b *BalancedAllocation) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	return b.scorer.score(state, pod, nodeInfo)
}

func balancedResourceScorer(requested, allocatable []int64) int64 {
	// Room for the usual few resources without a heap allocation per node.
	var buf [8]float64
	fractions := buf[:0]
	var total float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := float64(requested[i]) / float64(allocatable[i])
		if f > 1 {
			f = 1
		}
		total += f
		fractions = append(fractions, f)
	}
	std := 0.0
	// With two resources the deviation is half their difference; with more,
	// the usual root mean square around the mean.
	if len(fractions) == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	} else if len(fractions) > 2 {
		mean := total / float64(len(fractions))
		var sum float64
		for _, f := range fractions {
			sum += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}
