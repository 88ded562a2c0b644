package podtopologyspread

import (
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
)

// nodeCount remembers how many pods of a node a selector matched, for the
// node as it was at one generation of the scheduler's cache.
type nodeCount struct {
	generation int64
	key        string
	count      int
}

// matchCounts spares each scheduling cycle a walk over every pod of the
// cluster: a workload's pods come one after another with the same
// selector, and between two of them only a few nodes change, so a count
// is reused while the node's snapshot and the selector stay the same.
// Upstream recounts (in parallel); the numbers are the same.
type matchCounts struct {
	byNode framework.NodeMemo[nodeCount]
	// limit bounds byNode's NodeInfos from outside the snapshot.
	limit int
	// keys interns count keys so that comparing them is comparing pointers.
	keys map[string]string
}

func newMatchCounts() *matchCounts {
	return &matchCounts{keys: map[string]string{}, limit: 1024}
}

// countKey names what a count counted: a selector in a namespace. An
// empty key (a selector that prints as nothing) is never cached.
func (m *matchCounts) countKey(sel labels.Selector, ns string) string {
	if sel.Empty() {
		return ""
	}
	s := sel.String()
	if s == "" {
		return ""
	}
	k := ns + "\x00" + s
	if m == nil {
		return k
	}
	if interned, ok := m.keys[k]; ok {
		return interned
	}
	if len(m.keys) > 1024 {
		clear(m.keys)
	}
	m.keys[k] = k
	return k
}

// startCycle bounds the counts kept for NodeInfos from outside the
// snapshot by the cluster's size.
func (m *matchCounts) startCycle(numNodes int) {
	if m != nil {
		m.limit = 2*numNodes + 1024
	}
}

// count is countPodsMatchSelector for a node of the scheduler's snapshot;
// key is countKey(sel, ns).
func (m *matchCounts) count(ni *framework.NodeInfo, sel labels.Selector, key, ns string) int {
	if key == "" || m == nil || ni.Node() == nil {
		return countPodsMatchSelector(ni.Pods, sel, ns)
	}
	c, found := m.byNode.Lookup(ni, m.limit)
	if found && c.generation == ni.Generation && c.key == key {
		return c.count
	}
	n := countPodsMatchSelector(ni.Pods, sel, ns)
	*c = nodeCount{generation: ni.Generation, key: key, count: n}
	return n
}
