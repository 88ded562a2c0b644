package cache

import "kubeplay/core/api"

// nodeTree orders nodes for the scheduler: zones in the order they first
// appeared, nodes within a zone in the order they were added, and the list
// interleaves zones so that scanning part of it still spans every zone.
type nodeTree struct {
	tree  map[string][]string
	zones []string
	count int
	// changes counts additions and removals: a snapshot rebuilds its
	// order only when it has moved.
	changes int64
}

func newNodeTree() *nodeTree { return &nodeTree{tree: map[string][]string{}} }

// zoneKey is "region:\x00:zone" from the topology labels (the beta ones as
// a fallback), or "" when the node has neither.
func zoneKey(node *api.Node) string {
	l := node.Labels
	region := l[api.LabelTopologyRegion]
	if region == "" {
		region = l["failure-domain.beta.kubernetes.io/region"]
	}
	zone := l[api.LabelTopologyZone]
	if zone == "" {
		zone = l["failure-domain.beta.kubernetes.io/zone"]
	}
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

func (t *nodeTree) add(node *api.Node) {
	z := zoneKey(node)
	names, ok := t.tree[z]
	if ok {
		for _, n := range names {
			if n == node.Name {
				return
			}
		}
	} else {
		t.zones = append(t.zones, z)
	}
	t.tree[z] = append(names, node.Name)
	t.count++
	t.changes++
}

func (t *nodeTree) remove(node *api.Node) {
	z := zoneKey(node)
	names := t.tree[z]
	for i, n := range names {
		if n != node.Name {
			continue
		}
		names = append(names[:i:i], names[i+1:]...)
		t.count--
		t.changes++
		if len(names) == 0 {
			delete(t.tree, z)
			for j, zz := range t.zones {
				if zz == z {
					t.zones = append(t.zones[:j:j], t.zones[j+1:]...)
					break
				}
			}
		} else {
			t.tree[z] = names
		}
		return
	}
}

func (t *nodeTree) update(old, cur *api.Node) {
	if old != nil && zoneKey(old) == zoneKey(cur) {
		return
	}
	if old != nil {
		t.remove(old)
	}
	t.add(cur)
}

// list interleaves the zones: the first node of each zone, then the second…
func (t *nodeTree) list() []string {
	out := make([]string, 0, t.count)
	for i := 0; len(out) < t.count; i++ {
		added := false
		for _, z := range t.zones {
			if names := t.tree[z]; i < len(names) {
				out = append(out, names[i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}
