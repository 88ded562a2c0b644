package podtopologyspread

import (
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
)

// nodeCount remembers how many pods of a node a selector matched, for the
// node as it was at one generation of the scheduler's cache.
type nodeCount struct {
	info       *framework.NodeInfo
	generation int64
	key        string
	count      int
}

// matchCounts spares each scheduling cycle a walk over every pod of the
// cluster: a workload's pods come one after another with the same
// selector, and between two of them only a few nodes change, so a count
// is reused while the node's snapshot and the selector stay the same.
// Upstream recounts (in parallel); the numbers are the same.
type matchCounts map[string]nodeCount

// countKey names what a count counted: a selector in a namespace. An
// empty key (a selector that prints as nothing) is never cached.
func countKey(sel labels.Selector, ns string) string {
	if sel.Empty() {
		return ""
	}
	s := sel.String()
	if s == "" {
		return ""
	}
	return ns + "\x00" + s
}

// count is countPodsMatchSelector for a node of the scheduler's snapshot;
// key is countKey(sel, ns).
func (m matchCounts) count(ni *framework.NodeInfo, sel labels.Selector, key, ns string) int {
	if key == "" || m == nil || ni.Node() == nil {
		return countPodsMatchSelector(ni.Pods, sel, ns)
	}
	name := ni.Node().Name
	if c, ok := m[name]; ok && c.info == ni && c.generation == ni.Generation && c.key == key {
		return c.count
	}
	n := countPodsMatchSelector(ni.Pods, sel, ns)
	m[name] = nodeCount{info: ni, generation: ni.Generation, key: key, count: n}
	return n
}
