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
	// images are the normalized names of the last pod's images (init
	// containers first) and raw the names as the pod gave them; imagesID
	// changes whenever they do.
	images   []string
	raw      []string
	imagesID int64
	// memo keeps each node's score for the pods of one image list: a
	// ReplicaSet's pods score the same on a node until the node changes or
	// the spread of the images it holds does, and looking images up in
	// every node's own map is most of the plugin's cost in a big cluster.
	memo framework.NodeMemo[nodeMemo]
}

// nodeMemo is a node's score as of its generation, the node count, the
// pod's images, and the spread of each image it held (sums, nil where it
// held none, with their NumNodes and Size then).
type nodeMemo struct {
	generation int64
	total      int
	imagesID   int64
	sums       []*framework.ImageStateSummary
	numNodes   []int
	sizes      []int64
	score      int64
}

// New returns the plugin.
func New(h framework.Handle) *ImageLocality {
	return &ImageLocality{handle: h}
}

// Name implements framework.Plugin.
func (*ImageLocality) Name() string { return names.ImageLocality }

// Score sums the spread-scaled sizes of the pod's images present on the
// node and maps the sum between 23 MB and 1000 MB per container onto 0-100.
func (pl *ImageLocality) Score(_ *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	pl.setImages(pod)
	return pl.score(pod, nodeInfo, len(pl.handle.NodeInfos().List())), nil
}

// ScoreNodes is Score for each of nodes, with the pod's images and the
// cluster's size looked up once.
func (pl *ImageLocality) ScoreNodes(_ *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores []int64) *framework.Status {
	pl.setImages(pod)
	total := len(pl.handle.NodeInfos().List())
	for i, ni := range nodes {
		scores[i] = pl.score(pod, ni, total)
	}
	return nil
}

// score is Score once setImages has taken the pod's images; total is the
// number of nodes in the cluster.
func (pl *ImageLocality) score(pod *api.Pod, nodeInfo *framework.NodeInfo, total int) int64 {
	m, found := pl.memo.Lookup(nodeInfo, 2*total+1024)
	if found && m.valid(nodeInfo, total, pl.imagesID) {
		return m.score
	}
	m.generation, m.total, m.imagesID = nodeInfo.Generation, total, pl.imagesID
	m.sums, m.numNodes, m.sizes = m.sums[:0], m.numNodes[:0], m.sizes[:0]
	var sum int64
	for _, image := range pl.images {
		st := nodeInfo.ImageStates[image]
		m.sums = append(m.sums, st)
		if st == nil {
			m.numNodes, m.sizes = append(m.numNodes, 0), append(m.sizes, 0)
			continue
		}
		m.numNodes, m.sizes = append(m.numNodes, st.NumNodes), append(m.sizes, st.Size)
		if total > 0 {
			sum += int64(float64(st.Size) * float64(st.NumNodes) / float64(total))
		}
	}
	m.score = calculatePriority(sum, len(pod.Spec.InitContainers)+len(pod.Spec.Containers))
	return m.score
}

func (m *nodeMemo) valid(ni *framework.NodeInfo, total int, imagesID int64) bool {
	if m.generation != ni.Generation || m.total != total || m.imagesID != imagesID {
		return false
	}
	for i, st := range m.sums {
		if st != nil && (st.NumNodes != m.numNodes[i] || st.Size != m.sizes[i]) {
			return false
		}
	}
	return true
}

// setImages makes pl.images the pod's normalized image names.
func (pl *ImageLocality) setImages(pod *api.Pod) {
	n := len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	same := len(pl.raw) == n
	for i := 0; same && i < n; i++ {
		same = pl.raw[i] == containerImage(pod, i)
	}
	if same && pl.imagesID != 0 {
		return
	}
	pl.raw, pl.images = pl.raw[:0], pl.images[:0]
	for i := 0; i < n; i++ {
		img := containerImage(pod, i)
		pl.raw = append(pl.raw, img)
		pl.images = append(pl.images, NormalizedImageName(img))
	}
	pl.imagesID++
}

// containerImage is the image of the pod's i-th container, init
// containers first.
func containerImage(pod *api.Pod, i int) string {
	if i < len(pod.Spec.InitContainers) {
		return pod.Spec.InitContainers[i].Image
	}
	return pod.Spec.Containers[i-len(pod.Spec.InitContainers)].Image
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

// NormalizedImageName adds ":latest" to an image without a tag.
func NormalizedImageName(name string) string {
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		name += ":latest"
	}
	return name
}
