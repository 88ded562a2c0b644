package scheduler

import (
	"encoding/binary"
	"slices"

	"kubeplay/core/scheduler/framework"
)

// keptScores are one cycle's scores as its decision keeps them until a
// learner opens the pod. The cycle's table has a name and a wide number
// per cell; kept, a scored node is its position in the decision's node
// list and the numbers are varints in one byte slice: a fifth of the
// size, and nothing per node for the garbage collector to follow.
type keptScores struct {
	plugins *scorePlugins
	// data holds, per scored node: its position (uvarint), each plugin's
	// raw score (varint) and normalized score (a byte), then the total
	// (varint).
	data []byte
}

// scorePlugins are the score plugins a cycle ran, with their weights,
// shared by the kept scores of every cycle that ran the same.
type scorePlugins struct {
	names   []string
	weights []int64
}

// scoredNode is one node's part of kept scores.
type scoredNode struct {
	scored bool
	scores []framework.PluginScore
	total  int64
}

// keepScores packs t, whose nodes are all in the cycle's node list; nodes,
// if given, are t's nodes in t's order.
func (s *Scheduler) keepScores(t *framework.NodeScores, nodes []*framework.NodeInfo) *keptScores {
	pl := s.lastScorePlugins
	if pl == nil || !slices.Equal(pl.names, t.Plugins) || !slices.Equal(pl.weights, t.Weights) {
		pl = &scorePlugins{names: slices.Clone(t.Plugins), weights: slices.Clone(t.Weights)}
		s.lastScorePlugins = pl
	}
	k := len(t.Plugins)
	// Room for the widest encoding, so the loop writes without appending.
	need := len(t.Names) * (binary.MaxVarintLen64*(k+2) + k)
	if cap(s.scoreBuf) < need {
		s.scoreBuf = make([]byte, need)
	}
	buf := s.scoreBuf[:need]
	n := 0
	for i, name := range t.Names {
		n += binary.PutUvarint(buf[n:], uint64(s.positionOf(i, name, nodes)))
		row, norm := t.Raw[i*k:i*k+k], t.Normalized[i*k:i*k+k]
		for j, raw := range row {
			n += binary.PutVarint(buf[n:], raw)
			buf[n] = norm[j]
			n++
		}
		n += binary.PutVarint(buf[n:], t.Totals[i])
	}
	buf = buf[:n]
	data := s.spareScores
	s.spareScores = nil
	if cap(data) < len(buf) {
		data = make([]byte, len(buf))
	}
	data = data[:len(buf)]
	copy(data, buf)
	return &keptScores{plugins: pl, data: data}
}

// positionOf is the position in the cycle's node list of t's i-th node,
// named name: found by its NodeInfo's slot where it has one.
func (s *Scheduler) positionOf(i int, name string, nodes []*framework.NodeInfo) int {
	if i < len(nodes) {
		if slot := nodes[i].Slot(); slot > 0 && slot < len(s.slotIndex) && s.slotIndex[slot] > 0 {
			return int(s.slotIndex[slot] - 1)
		}
	}
	return s.nodeIndex[name]
}

// byNode unpacks the scores into one entry per node of a list of n.
func (ks *keptScores) byNode(n int) []scoredNode {
	out := make([]scoredNode, n)
	names, weights := ks.plugins.names, ks.plugins.weights
	for data := ks.data; len(data) > 0; {
		pos, w := binary.Uvarint(data)
		data = data[w:]
		nd := &out[pos]
		nd.scored = true
		if len(names) > 0 {
			nd.scores = make([]framework.PluginScore, len(names))
		}
		for j := range nd.scores {
			raw, w := binary.Varint(data)
			norm := int64(data[w])
			data = data[w+1:]
			nd.scores[j] = framework.PluginScore{Name: names[j], Raw: raw, Normalized: norm, Weight: weights[j], Score: norm * weights[j]}
		}
		total, w := binary.Varint(data)
		data = data[w:]
		nd.total = total
	}
	return out
}
