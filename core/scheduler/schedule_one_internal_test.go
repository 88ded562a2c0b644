package scheduler

import (
	"testing"

	"kubeplay/core/clock"
	"kubeplay/core/scheduler/framework"
)

func TestNumFeasibleNodesToFind(t *testing.T) {
	tests := []struct {
		nodes, percentage, want int32
	}{
		{10, 0, 10},
		{99, 0, 99},
		{100, 0, 100},     // 50% of 100 is 50, raised to the floor of 100
		{1000, 0, 420},    // 50 - 1000/125 = 42%
		{5000, 0, 500},    // 50 - 40 = 10%
		{6000, 0, 300},    // 50 - 48 = 2%, floored at 5%
		{1000, 30, 300},   // a configured percentage
		{1000, 5, 100},    // never fewer than 100
		{5000, 100, 5000}, // all
	}
	for _, tt := range tests {
		s := &Scheduler{percentageOfNodesToScore: tt.percentage}
		if got := s.numFeasibleNodesToFind(tt.nodes); got != tt.want {
			t.Errorf("%d nodes at %d%%: %d, want %d", tt.nodes, tt.percentage, got, tt.want)
		}
	}
}

// selectHost picks the best total; among equals every node gets picked
// over many draws, and the same seed draws the same.
func TestSelectHost(t *testing.T) {
	scores := &framework.NodeScores{Names: []string{"a", "b", "c", "d"}, Totals: []int64{10, 30, 30, 20}}
	run := func(seed uint64) map[string]int {
		s := &Scheduler{rand: clock.NewRand(seed)}
		got := map[string]int{}
		for i := 0; i < 200; i++ {
			got[s.selectHost(scores)]++
		}
		return got
	}
	got := run(7)
	if got["a"]+got["d"] != 0 || got["b"] == 0 || got["c"] == 0 {
		t.Fatalf("picks %v", got)
	}
	if again := run(7); again["b"] != got["b"] {
		t.Fatalf("same seed, different picks: %v then %v", got, again)
	}
	single := &Scheduler{rand: clock.NewRand(1)}
	if h := single.selectHost(&framework.NodeScores{Names: scores.Names[:1], Totals: scores.Totals[:1]}); h != "a" {
		t.Fatalf("one node: %s", h)
	}
}
