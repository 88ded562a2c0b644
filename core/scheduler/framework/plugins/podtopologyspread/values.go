package podtopologyspread

import "kubeplay/core/scheduler/framework"

// nodeValues are a node's values of a list of topology keys (has says
// which it carries), as the node was at one generation.
type nodeValues struct {
	generation int64
	keysID     int64
	values     []string
	has        []bool
}

// topologyValues spares PreScore and Score a lookup in every node's label
// map for every pod: a workload's pods ask for the same keys one after
// another, and a node's labels change only with its generation. Looking
// labels up in a thousand nodes' own maps was most of the plugin's cost.
type topologyValues struct {
	keys   []string
	keysID int64
	byNode framework.NodeMemo[nodeValues]
	// limit bounds byNode's NodeInfos from outside the snapshot (dry
	// runs), which it drops by starting afresh.
	limit int
}

// setKeys makes the constraints' topology keys the ones of returns, for a
// cluster of numNodes nodes.
func (t *topologyValues) setKeys(cs []topologySpreadConstraint, numNodes int) {
	t.limit = 2*numNodes + 1024
	same := len(t.keys) == len(cs)
	for i := 0; same && i < len(cs); i++ {
		same = t.keys[i] == cs[i].TopologyKey
	}
	if same && t.keysID != 0 {
		return
	}
	t.keys = t.keys[:0]
	for _, c := range cs {
		t.keys = append(t.keys, c.TopologyKey)
	}
	t.keysID++
}

// of returns ni's values of the keys setKeys was last given, good until
// the next call.
func (t *topologyValues) of(ni *framework.NodeInfo) *nodeValues {
	v, found := t.byNode.Lookup(ni, t.limit)
	if found && v.generation == ni.Generation && v.keysID == t.keysID {
		return v
	}
	v.generation, v.keysID = ni.Generation, t.keysID
	v.values, v.has = v.values[:0], v.has[:0]
	labels := ni.Node().Labels
	for _, k := range t.keys {
		val, ok := labels[k]
		v.values, v.has = append(v.values, val), append(v.has, ok)
	}
	return v
}

// hasAll says whether the node carries every key.
func (v *nodeValues) hasAll() bool {
	for _, ok := range v.has {
		if !ok {
			return false
		}
	}
	return true
}
