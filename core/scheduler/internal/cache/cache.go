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

// Cache holds nodes and pods by node.
type Cache struct {
	nodes      map[string]*framework.NodeInfo
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
	return &Cache{nodes: map[string]*framework.NodeInfo{}, tree: newNodeTree(), pods: map[string]*podState{}, images: map[string]*imageState{}}
}

func podKey(p *api.Pod) string {
	if p.UID != "" {
		return p.UID
	}
	return p.Namespace + "/" + p.Name
}

func (c *Cache) bump(ni *framework.NodeInfo) {
	c.generation++
	ni.Generation = c.generation
}

func (c *Cache) nodeInfo(name string) *framework.NodeInfo {
	ni, ok := c.nodes[name]
	if !ok {
		ni = framework.NewNodeInfo()
		c.nodes[name] = ni
	}
	return ni
}

// NodeCount is the number of nodes known.
func (c *Cache) NodeCount() int { return c.tree.count }

// AddNode records a node.
func (c *Cache) AddNode(node *api.Node) {
	ni := c.nodeInfo(node.Name)
	old := ni.Node()
	c.setImages(old, node)
	ni.SetNode(node)
	c.tree.update(old, node)
	c.bump(ni)
}

// UpdateNode records a node's new version.
func (c *Cache) UpdateNode(_, node *api.Node) { c.AddNode(node) }

// RemoveNode forgets a node; its pods stay until they are deleted.
func (c *Cache) RemoveNode(node *api.Node) {
	ni, ok := c.nodes[node.Name]
	if !ok {
		return
	}
	if cur := ni.Node(); cur != nil {
		c.tree.remove(cur)
		c.setImages(cur, nil)
	}
	ni.RemoveNode()
	if len(ni.Pods) == 0 {
		delete(c.nodes, node.Name)
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
	ni := c.nodeInfo(pod.Spec.NodeName)
	ni.AddPod(pod)
	c.bump(ni)
	c.pods[podKey(pod)] = &podState{pod: pod, assumed: assumed}
}

func (c *Cache) removePod(pod *api.Pod) {
	ni, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		return
	}
	ni.RemovePod(pod)
	c.bump(ni)
	if ni.Node() == nil && len(ni.Pods) == 0 {
		delete(c.nodes, pod.Spec.NodeName)
	}
}
