package noderesources

import "kubeplay/core/scheduler/framework"

// leastResourceScorer favours nodes with more left free:
// (allocatable - requested) * MaxNodeScore / allocatable per resource,
// averaged by weight.
func leastResourceScorer(resources []ResourceSpec) func(requested, allocatable []int64) int64 {
	return func(requested, allocatable []int64) int64 {
		var nodeScore, weightSum int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			w := resources[i].Weight
			nodeScore += leastRequestedScore(requested[i], allocatable[i]) * w
			weightSum += w
		}
		if weightSum == 0 {
			return 0
		}
		return nodeScore / weightSum
	}
}

func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * framework.MaxNodeScore / capacity
}
