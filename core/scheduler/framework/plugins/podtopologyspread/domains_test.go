package podtopologyspread

import (
	"maps"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
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
		d.refresh(all, share)
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
