package podtopologyspread

import (
	"fmt"
	"maps"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/internal/cache"
)

// The kept sums always equal a fresh count over the nodes as they are
// now, whatever changed between two refreshes: pods, the node list's
// length, or which node sits at a position.
func TestDomainCountsMatchAFreshCount(t *testing.T) {
	zoned := func(name, zone string, pods ...string) *framework.NodeInfo {
		ni := framework.NewNodeInfo()
		ni.SetNode(fake.Node(name, map[string]string{api.LabelTopologyZone: zone}))
		for _, p := range pods {
			ni.AddPod(fake.On(fake.Pod(p, nil), name))
		}
		return ni
	}
	share := func(ni *framework.NodeInfo) (string, int64, bool) {
		return ni.Node().Labels[api.LabelTopologyZone], int64(len(ni.Pods)), true
	}
	fresh := func(all []*framework.NodeInfo) map[string]int64 {
		out := map[string]int64{}
		for _, ni := range all {
			v, n, _ := share(ni)
			out[v] += n
		}
		return out
	}
	n1, n2, n3 := zoned("n1", "a", "p1"), zoned("n2", "a"), zoned("n3", "b", "p2", "p3")
	steps := []struct {
		what   string
		change func() []*framework.NodeInfo
	}{
		{"first refresh", func() []*framework.NodeInfo { return []*framework.NodeInfo{n1, n2, n3} }},
		{"a pod lands on n2", func() []*framework.NodeInfo {
			n2.AddPod(fake.On(fake.Pod("p4", nil), "n2"))
			return []*framework.NodeInfo{n1, n2, n3}
		}},
		{"n1 leaves, the others move up", func() []*framework.NodeInfo { return []*framework.NodeInfo{n2, n3} }},
		{"a new node joins", func() []*framework.NodeInfo {
			return []*framework.NodeInfo{n2, n3, zoned("n4", "c", "p5")}
		}},
		{"no nodes", func() []*framework.NodeInfo { return nil }},
	}
	d := &domainCounts{totals: map[string]int64{}}
	for _, s := range steps {
		all := s.change()
		d.refresh(framework.NodeInfoList(all), share)
		got := map[string]int64{}
		for v, n := range d.totals {
			if n != 0 {
				got[v] = n
			}
		}
		want := fresh(all)
		maps.DeleteFunc(want, func(_ string, n int64) bool { return n == 0 })
		if !maps.Equal(got, want) {
			t.Errorf("%s: kept %v, fresh count %v", s.what, got, want)
		}
	}
}

// Kept over the scheduler's snapshot, the sums are re-taken only for the
// nodes its log says changed, and still equal a fresh count after pods
// come and go, nodes relabel, join and leave, and the log is outrun.
func TestDomainCountsFollowTheSnapshotLog(t *testing.T) {
	zoned := func(name, zone string) *api.Node {
		return fake.Node(name, map[string]string{api.LabelTopologyZone: zone})
	}
	share := func(ni *framework.NodeInfo) (string, int64, bool) {
		return ni.Node().Labels[api.LabelTopologyZone], int64(len(ni.Pods)), true
	}
	c := cache.New()
	for _, n := range []*api.Node{zoned("n1", "a"), zoned("n2", "a"), zoned("n3", "b")} {
		c.AddNode(n)
	}
	s := cache.NewSnapshot()
	pod := 0
	place := func(node string) func() {
		return func() {
			pod++
			if err := c.AssumePod(fake.On(fake.Pod(fmt.Sprintf("p%d", pod), nil), node)); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		what   string
		change func()
	}{
		{"first refresh", func() {}},
		{"a pod lands on n2", place("n2")},
		{"pods land on n1 and n3", func() { place("n1")(); place("n3")() }},
		{"n3 moves to zone a", func() { c.UpdateNode(nil, zoned("n3", "a")) }},
		{"n4 joins zone c", func() { c.AddNode(zoned("n4", "c")); place("n4")() }},
		{"n1 leaves", func() { c.RemoveNode(zoned("n1", "a")) }},
		{"a pod lands on n2", place("n2")},
		{"2,000 pods outrun the log", func() {
			for i := 0; i < 2000; i++ {
				place("n3")()
				c.UpdateSnapshot(s)
			}
		}},
		{"a pod lands on n4", place("n4")},
	}
	d := &domainCounts{totals: map[string]int64{}}
	for _, st := range steps {
		st.change()
		c.UpdateSnapshot(s)
		d.refresh(s, share)
		got := map[string]int64{}
		for v, n := range d.totals {
			if n != 0 {
				got[v] = n
			}
		}
		want := map[string]int64{}
		for _, ni := range s.List() {
			if v, n, _ := share(ni); n != 0 {
				want[v] += n
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: kept %v, fresh count %v", st.what, got, want)
		}
	}
}
