// Package imagelocality is the ImageLocality plugin: a node that already
// holds the pod's images scores higher, scaled by how few nodes hold them
// (so pods do not all crowd onto the one node that pulled first).
package imagelocality

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

const (
	mb                    int64 = 1024 * 1024
	minThreshold          int64 = 23 * mb
	maxContainerThreshold int64 = 1000 * mb
)

// ImageLocality implements the plugin.
type ImageLocality struct {
	handle framework.Handle
}

// New returns the plugin.
func New(h framework.Handle) *ImageLocality { return &ImageLocality{handle: h} }

// Name implements framework.Plugin.
func (*ImageLocality) Name() string { return names.ImageLocality }

// Score sums the spread-scaled sizes of the pod's images present on the
// node and maps the sum between 23 MB and 1000 MB per container onto 0-100.
func (pl *ImageLocality) Score(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	total := len(pl.handle.NodeInfos().List())
	sum := sumImageScores(nodeInfo, pod, total)
	return calculatePriority(sum, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)), nil
}

func calculatePriority(sum int64, numContainers int) int64 {
	maxThreshold := maxContainerThreshold * int64(numContainers)
	if sum < minThreshold {
		sum = minThreshold
	} else if sum > maxThreshold {
		sum = maxThreshold
	}
	if maxThreshold <= minThreshold {
		return 0
	}
	return framework.MaxNodeScore * (sum - minThreshold) / (maxThreshold - minThreshold)
}

func sumImageScores(nodeInfo *framework.NodeInfo, pod *api.Pod, totalNodes int) int64 {
	var sum int64
	add := func(image string) {
		if st, ok := nodeInfo.ImageStates[NormalizedImageName(image)]; ok && totalNodes > 0 {
			sum += int64(float64(st.Size) * float64(st.NumNodes) / float64(totalNodes))
		}
	}
	for _, c := range pod.Spec.InitContainers {
		add(c.Image)
	}
	for _, c := range pod.Spec.Containers {
		add(c.Image)
	}
	return sum
}

// NormalizedImageName adds ":latest" to an image without a tag.
func NormalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}
