package framework

// NodeMemo keeps a plugin's value per NodeInfo: what it worked out about a
// node for one pod and may reuse for the next while the node is unchanged.
// The NodeInfos of the scheduler's snapshot carry a slot, a small number of
// their own kept across updates, and their values live in a slice at that
// slot, so the plugins that look a node up for every scored node do not
// probe a map of thousands of NodeInfos, and neighbouring nodes' values sit
// side by side. Other NodeInfos (dry runs, tests) are kept in a map,
// started afresh when it outgrows limit.
type NodeMemo[T any] struct {
	slots  []nodeMemoEntry[T]
	others map[*NodeInfo]*T
}

type nodeMemoEntry[T any] struct {
	ni *NodeInfo
	v  T
}

// Lookup returns ni's value. found says whether it is one Lookup returned
// for ni before; if not, it is another NodeInfo's old value (or zero),
// handed back so its buffers can be reused, which the caller sets afresh.
func (m *NodeMemo[T]) Lookup(ni *NodeInfo, limit int) (v *T, found bool) {
	if s := ni.slot; s > 0 {
		if s >= len(m.slots) {
			m.slots = append(m.slots, make([]nodeMemoEntry[T], s+1-len(m.slots))...)
		}
		e := &m.slots[s]
		if e.ni == ni {
			return &e.v, true
		}
		e.ni = ni
		return &e.v, false
	}
	if v := m.others[ni]; v != nil {
		return v, true
	}
	if m.others == nil || len(m.others) > limit {
		m.others = map[*NodeInfo]*T{}
	}
	v = new(T)
	m.others[ni] = v
	return v, false
}

// SetSlot gives ni the slot s (greater than zero), unique among the
// NodeInfos whose values are kept together; the snapshot numbers its own.
func (n *NodeInfo) SetSlot(s int) { n.slot = s }

// Slot is the number SetSlot gave ni, or zero.
func (n *NodeInfo) Slot() int { return n.slot }
