package queue

import "kubeplay/core/scheduler/framework"

// activeHeap orders pods as the PrioritySort plugin does: higher priority
// first, then the earlier queue timestamp; then arrival order, so ties
// never depend on anything but the inputs.
type activeHeap []*QueuedPodInfo

func (h activeHeap) Len() int { return len(h) }

func (h activeHeap) Less(i, j int) bool {
	pi, pj := framework.PodPriority(h[i].Pod), framework.PodPriority(h[j].Pod)
	if pi != pj {
		return pi > pj
	}
	if !h[i].Timestamp.Equal(h[j].Timestamp) {
		return h[i].Timestamp.Before(h[j].Timestamp)
	}
	return h[i].seq < h[j].seq
}

func (h activeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *activeHeap) Push(x any) { *h = append(*h, x.(*QueuedPodInfo)) }

func (h *activeHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return x
}
