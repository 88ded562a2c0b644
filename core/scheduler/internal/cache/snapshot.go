package cache

import (
	"slices"

	"kubeplay/core/api"
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
	// images are the spread of each image as of this snapshot, shared by
	// the NodeInfos holding it, so a change in one node's images updates
	// the count here rather than recopying every node.
	images           map[string]*framework.ImageStateSummary
	generation       int64
	imagesGeneration int64
	treeChanges      int64
	// listChanges counts rebuilds of list, so a reader can keep what it
	// derived from the list until the next rebuild.
	listChanges int64
	// changed logs the NodeInfos each update copied (a node or its pods
	// changed; image spreads are shared, not copied), oldest update first;
	// updates[i] is where update i starts in changed and the generation
	// the snapshot had before it.
	changed []*framework.NodeInfo
	updates []snapshotUpdate
	// slots is the last slot given to a NodeInfo of the snapshot (see
	// framework.NodeMemo); a NodeInfo keeps its slot while its node stays.
	slots int
}

type snapshotUpdate struct {
	from  int64
	start int
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot() *Snapshot {
	return &Snapshot{nodeInfoMap: map[string]*framework.NodeInfo{}, images: map[string]*framework.ImageStateSummary{}}
}

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

// ListChanges changes whenever List's order or members may have changed.
func (s *Snapshot) ListChanges() int64 { return s.listChanges }

// Generation is the cache generation the snapshot was last brought up to.
func (s *Snapshot) Generation() int64 { return s.generation }

// ChangedSince implements framework.NodeChangeLog.
func (s *Snapshot) ChangedSince(generation int64) ([]*framework.NodeInfo, bool) {
	if generation == s.generation {
		return nil, true
	}
	for _, u := range s.updates {
		if u.from == generation {
			return s.changed[u.start:], true
		}
	}
	return nil, false
}

// logChanges records one update's copied nodes. The log is emptied once
// it would hold more entries than the snapshot has nodes (at least 1,024):
// a reader further behind takes every node again.
func (s *Snapshot) logChanges(from int64, copied []*framework.NodeInfo) {
	if len(copied) == 0 {
		return
	}
	if len(s.changed)+len(copied) > max(1024, len(s.list)) {
		clear(s.changed)
		s.changed, s.updates = s.changed[:0], s.updates[:0]
	}
	s.updates = append(s.updates, snapshotUpdate{from: from, start: len(s.changed)})
	s.changed = append(s.changed, copied...)
}

// NumNodes is the number of nodes in the snapshot.
func (s *Snapshot) NumNodes() int { return len(s.list) }

// UpdateSnapshot copies into s the nodes changed since s was taken, walking
// the cache's list from the most recently changed node down to the first
// one s already has, as upstream's does. A node's NodeInfo keeps its
// address across updates, so the ordered lists are rebuilt only when a
// node comes or goes or starts or stops holding pods with affinity.
func (c *Cache) UpdateSnapshot(s *Snapshot) {
	rebuild := s.treeChanges != c.tree.changes
	var copied []*framework.NodeInfo
	if s.imagesGeneration != c.imagesGeneration {
		c.updateImageSummaries(s)
	}
	for item := c.headNode; item != nil && item.info.Generation > s.generation; item = item.next {
		node := item.info.Node()
		if node == nil {
			continue
		}
		existing, ok := s.nodeInfoMap[node.Name]
		if !ok {
			existing = &framework.NodeInfo{}
			s.slots++
			existing.SetSlot(s.slots)
			s.nodeInfoMap[node.Name] = existing
			rebuild = true
		}
		clone := item.info.Clone()
		if prev := existing.Node(); prev != nil && sameImageNames(prev.Status.Images, node.Status.Images) {
			// A pod came or went, or the kubelet wrote its status again:
			// the node's images, and the summaries they point to (kept up
			// to date in place), are what the copy already has.
			clone.ImageStates = existing.ImageStates
		} else {
			s.fillImageStates(clone)
		}
		if (len(existing.PodsWithAffinity) > 0) != (len(clone.PodsWithAffinity) > 0) ||
			(len(existing.PodsWithRequiredAntiAffinity) > 0) != (len(clone.PodsWithRequiredAntiAffinity) > 0) {
			rebuild = true
		}
		slot := existing.Slot()
		*existing = *clone
		existing.SetSlot(slot)
		copied = append(copied, existing)
	}
	if rebuild {
		c.rebuildLists(s)
	}
	s.logChanges(s.generation, copied)
	s.generation = c.generation
	s.imagesGeneration = c.imagesGeneration
	s.treeChanges = c.tree.changes
}

// rebuildLists drops the nodes the cache no longer has and lists the rest
// in the tree's order.
func (c *Cache) rebuildLists(s *Snapshot) {
	for name := range s.nodeInfoMap {
		if item, ok := c.nodes[name]; !ok || item.info.Node() == nil {
			delete(s.nodeInfoMap, name)
		}
	}
	s.listChanges++
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
}

// updateImageSummaries brings the snapshot's image spreads up to the
// cache's. An image no node holds any more is dropped: every node that
// held it changed, so it is copied afresh without it.
func (c *Cache) updateImageSummaries(s *Snapshot) {
	for name, st := range c.images {
		sum := s.images[name]
		if sum == nil {
			sum = &framework.ImageStateSummary{}
			s.images[name] = sum
		}
		sum.Size, sum.NumNodes = st.size, len(st.nodes)
	}
	for name := range s.images {
		if _, ok := c.images[name]; !ok {
			delete(s.images, name)
		}
	}
}

// sameImageNames reports whether two lists of a node's images name the
// same images in the same order.
func sameImageNames(a, b []api.ContainerImage) bool {
	return slices.EqualFunc(a, b, func(x, y api.ContainerImage) bool { return slices.Equal(x.Names, y.Names) })
}

func (s *Snapshot) fillImageStates(ni *framework.NodeInfo) {
	ni.ImageStates = map[string]*framework.ImageStateSummary{}
	for _, img := range ni.Node().Status.Images {
		for _, name := range img.Names {
			if sum := s.images[name]; sum != nil {
				ni.ImageStates[name] = sum
				// Pods name images without registry defaults or tags; match both ways.
				ni.ImageStates[imagelocality.NormalizedImageName(name)] = sum
			}
		}
	}
}
