// Package cache is the scheduler's picture of the cluster: every node and
// the pods on it, bound or only assumed (chosen, not yet confirmed by the
// API), so that a decision made this instant is seen by the next one.
package cache

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
)

type podState struct {
	pod     *api.Pod
	assumed bool
}

type imageState struct {
	size  int64
	nodes map[string]bool
}

// nodeInfoListItem links a node's NodeInfo into the cache's list, most
// recently changed first, so a snapshot walks only what changed since it
// was taken instead of every node.
type nodeInfoListItem struct {
	info       *framework.NodeInfo
	next, prev *nodeInfoListItem
}

// Cache holds nodes and pods by node.
type Cache struct {
	nodes      map[string]*nodeInfoListItem
	headNode   *nodeInfoListItem
	tree       *nodeTree
	pods       map[string]*podState
	images     map[string]*imageState
	generation int64
	// imagesGeneration changes whenever any node's image list does, since
	// an image's spread counts for every node holding it.
	imagesGeneration int64
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{nodes: map[string]*nodeInfoListItem{}, tree: newNodeTree(), pods: map[string]*podState{}, images: map[string]*imageState{}}
}

func podKey(p *api.Pod) string {
	if p.UID != "" {
		return p.UID
	}
	return p.Namespace + "/" + p.Name
}

// bump gives a changed node the next generation and moves it to the head
// of the list.
func (c *Cache) bump(item *nodeInfoListItem) {
	c.generation++
	item.info.Generation = c.generation
	if c.headNode == item {
		return
	}
	c.unlink(item)
	item.next = c.headNode
	if c.headNode != nil {
		c.headNode.prev = item
	}
	c.headNode = item
}

func (c *Cache) unlink(item *nodeInfoListItem) {
	if item.prev != nil {
		item.prev.next = item.next
	}
	if item.next != nil {
		item.next.prev = item.prev
	}
	if c.headNode == item {
		c.headNode = item.next
	}
	item.next, item.prev = nil, nil
}

// forget drops a node's entry once neither the node nor any pod is left.
func (c *Cache) forget(name string, item *nodeInfoListItem) {
	c.unlink(item)
	delete(c.nodes, name)
}

func (c *Cache) nodeInfo(name string) *nodeInfoListItem {
	item, ok := c.nodes[name]
	if !ok {
		item = &nodeInfoListItem{info: framework.NewNodeInfo()}
		c.nodes[name] = item
	}
	return item
}

// NodeCount is the number of nodes known.
func (c *Cache) NodeCount() int { return c.tree.count }

// AddNode records a node.
func (c *Cache) AddNode(node *api.Node) {
	item := c.nodeInfo(node.Name)
	old := item.info.Node()
	c.setImages(old, node)
	item.info.SetNode(node)
	c.tree.update(old, node)
	c.bump(item)
}

// UpdateNode records a node's new version.
func (c *Cache) UpdateNode(_, node *api.Node) { c.AddNode(node) }

// RemoveNode forgets a node; its pods stay until they are deleted.
func (c *Cache) RemoveNode(node *api.Node) {
	item, ok := c.nodes[node.Name]
	if !ok {
		return
	}
	ni := item.info
	if cur := ni.Node(); cur != nil {
		c.tree.remove(cur)
		c.setImages(cur, nil)
	}
	ni.RemoveNode()
	if len(ni.Pods) == 0 {
		c.forget(node.Name, item)
	}
	c.generation++
}

func (c *Cache) setImages(old, cur *api.Node) {
	if old != nil && cur != nil && sameImages(old.Status.Images, cur.Status.Images) {
		return
	}
	if old != nil {
		for _, img := range old.Status.Images {
			for _, name := range img.Names {
				if st := c.images[name]; st != nil {
					delete(st.nodes, old.Name)
					if len(st.nodes) == 0 {
						delete(c.images, name)
					}
				}
			}
		}
	}
	if cur != nil {
		for _, img := range cur.Status.Images {
			for _, name := range img.Names {
				st := c.images[name]
				if st == nil {
					st = &imageState{size: img.SizeBytes, nodes: map[string]bool{}}
					c.images[name] = st
				}
				st.nodes[cur.Name] = true
			}
		}
	}
	c.imagesGeneration++
}

func sameImages(a, b []api.ContainerImage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].SizeBytes != b[i].SizeBytes || len(a[i].Names) != len(b[i].Names) {
			return false
		}
		for j := range a[i].Names {
			if a[i].Names[j] != b[i].Names[j] {
				return false
			}
		}
	}
	return true
}

// AssumePod places a pod on its spec.nodeName before the API confirms it.
func (c *Cache) AssumePod(pod *api.Pod) error {
	key := podKey(pod)
	if _, ok := c.pods[key]; ok {
		return fmt.Errorf("pod %v(%v) is in the cache, so can't be assumed", key, pod.Namespace+"/"+pod.Name)
	}
	c.addPod(pod, true)
	return nil
}

// ForgetPod undoes AssumePod (a failed bind).
func (c *Cache) ForgetPod(pod *api.Pod) error {
	key := podKey(pod)
	st, ok := c.pods[key]
	if !ok || !st.assumed {
		return fmt.Errorf("pod %v(%v) wasn't assumed so cannot be forgotten", key, pod.Namespace+"/"+pod.Name)
	}
	c.removePod(st.pod)
	delete(c.pods, key)
	return nil
}

// IsAssumedPod reports a pod assumed and not yet confirmed.
func (c *Cache) IsAssumedPod(pod *api.Pod) bool {
	st, ok := c.pods[podKey(pod)]
	return ok && st.assumed
}

// AddPod records a bound pod (confirming it if it was assumed).
func (c *Cache) AddPod(pod *api.Pod) {
	key := podKey(pod)
	if st, ok := c.pods[key]; ok {
		if item, ok := c.nodes[pod.Spec.NodeName]; ok && item.info.ReplacePod(pod) {
			// A status write, or the binding confirmed: the node's sums
			// and generation stay as they are.
			st.pod, st.assumed = pod, false
			return
		}
		// Assumed (or seen) already: replace with the API's version, which
		// may even name another node.
		c.removePod(st.pod)
	}
	c.addPod(pod, false)
}

// UpdatePod records a bound pod's new version.
func (c *Cache) UpdatePod(_, pod *api.Pod) { c.AddPod(pod) }

// RemovePod forgets a bound pod (deleted, or finished).
func (c *Cache) RemovePod(pod *api.Pod) {
	key := podKey(pod)
	st, ok := c.pods[key]
	if !ok {
		return
	}
	c.removePod(st.pod)
	delete(c.pods, key)
}

func (c *Cache) addPod(pod *api.Pod, assumed bool) {
	item := c.nodeInfo(pod.Spec.NodeName)
	item.info.AddPod(pod)
	c.bump(item)
	c.pods[podKey(pod)] = &podState{pod: pod, assumed: assumed}
}

func (c *Cache) removePod(pod *api.Pod) {
	item, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		return
	}
	item.info.RemovePod(pod)
	c.bump(item)
	if item.info.Node() == nil && len(item.info.Pods) == 0 {
		c.forget(pod.Spec.NodeName, item)
	}
}
