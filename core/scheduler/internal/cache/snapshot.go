package cache

import (
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/imagelocality"
)

// Snapshot is a copy of the cache taken at the start of a cycle: plugins
// read it while the cache moves on.
type Snapshot struct {
	nodeInfoMap                      map[string]*framework.NodeInfo
	list                             []*framework.NodeInfo
	havePodsWithAffinity             []*framework.NodeInfo
	havePodsWithRequiredAntiAffinity []*framework.NodeInfo
	generation                       int64
	imagesGeneration                 int64
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot() *Snapshot { return &Snapshot{nodeInfoMap: map[string]*framework.NodeInfo{}} }

// List implements framework.NodeInfoLister: nodes in the scheduler's order.
func (s *Snapshot) List() []*framework.NodeInfo { return s.list }

// HavePodsWithAffinityList lists nodes with pods that have (anti-)affinity.
func (s *Snapshot) HavePodsWithAffinityList() []*framework.NodeInfo { return s.havePodsWithAffinity }

// HavePodsWithRequiredAntiAffinityList lists nodes with pods that have required anti-affinity.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityList() []*framework.NodeInfo {
	return s.havePodsWithRequiredAntiAffinity
}

// Get returns a node by name.
func (s *Snapshot) Get(name string) (*framework.NodeInfo, bool) {
	ni, ok := s.nodeInfoMap[name]
	if !ok || ni.Node() == nil {
		return nil, false
	}
	return ni, true
}

// NumNodes is the number of nodes in the snapshot.
func (s *Snapshot) NumNodes() int { return len(s.list) }

// UpdateSnapshot copies into s the nodes changed since s was taken.
func (c *Cache) UpdateSnapshot(s *Snapshot) {
	imagesChanged := s.imagesGeneration != c.imagesGeneration
	for name, ni := range c.nodes {
		if ni.Node() == nil {
			continue
		}
		cur, ok := s.nodeInfoMap[name]
		if ok && cur.Generation == ni.Generation && !imagesChanged {
			continue
		}
		clone := ni.Clone()
		c.fillImageStates(clone)
		s.nodeInfoMap[name] = clone
	}
	for name := range s.nodeInfoMap {
		if ni, ok := c.nodes[name]; !ok || ni.Node() == nil {
			delete(s.nodeInfoMap, name)
		}
	}
	s.list = s.list[:0]
	s.havePodsWithAffinity = s.havePodsWithAffinity[:0]
	s.havePodsWithRequiredAntiAffinity = s.havePodsWithRequiredAntiAffinity[:0]
	for _, name := range c.tree.list() {
		ni, ok := s.nodeInfoMap[name]
		if !ok {
			continue
		}
		s.list = append(s.list, ni)
		if len(ni.PodsWithAffinity) > 0 {
			s.havePodsWithAffinity = append(s.havePodsWithAffinity, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			s.havePodsWithRequiredAntiAffinity = append(s.havePodsWithRequiredAntiAffinity, ni)
		}
	}
	s.generation = c.generation
	s.imagesGeneration = c.imagesGeneration
}

func (c *Cache) fillImageStates(ni *framework.NodeInfo) {
	ni.ImageStates = map[string]*framework.ImageStateSummary{}
	for _, img := range ni.Node().Status.Images {
		for _, name := range img.Names {
			if st := c.images[name]; st != nil {
				sum := &framework.ImageStateSummary{Size: st.size, NumNodes: len(st.nodes)}
				ni.ImageStates[name] = sum
				// Pods name images without registry defaults or tags; match both ways.
				ni.ImageStates[imagelocality.NormalizedImageName(name)] = sum
			}
		}
	}
}
