package scheduler

import (
	"math"
	"reflect"
	"testing"

	"kubeplay/core/scheduler/framework"
)

// Kept scores read back exactly as the cycle's table held them, whatever
// the size or sign of a raw score, and for a cycle without score plugins.
func TestKeptScoresReadBackAsScored(t *testing.T) {
	s := &Scheduler{nodeIndex: map[string]int{"a": 0, "b": 1, "c": 2, "d": 3}}
	tables := []*framework.NodeScores{
		{
			Names: []string{"c", "a", "d"}, Plugins: []string{"P", "Q"}, Weights: []int64{2, 1},
			Raw:        []int64{-5, math.MaxInt64, 0, math.MinInt64, 300, 7},
			Normalized: []uint8{100, 0, 50, 1, 0, 100},
			Totals:     []int64{200, 101, 100},
		},
		{Names: []string{"b", "d"}, Totals: []int64{1, 1}},
	}
	for _, table := range tables {
		kept := s.keepScores(table, nil)
		got := kept.byNode(4)
		for i, name := range table.Names {
			nd := got[s.nodeIndex[name]]
			if !nd.scored || nd.total != table.Totals[i] || !reflect.DeepEqual(nd.scores, table.PluginScores(i)) {
				t.Errorf("%s: kept %+v, want %v total %d", name, nd, table.PluginScores(i), table.Totals[i])
			}
			got[s.nodeIndex[name]] = scoredNode{}
		}
		for pos, nd := range got {
			if nd.scored {
				t.Errorf("node %d was not scored but reads back %+v", pos, nd)
			}
		}
	}
}
