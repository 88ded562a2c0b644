package podtopologyspread

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
)

// The remembered values follow the node's labels across generations and
// the keys asked for across pods.
func TestTopologyValuesFollowLabelsAndKeys(t *testing.T) {
	ni := framework.NewNodeInfo()
	ni.SetNode(fake.Node("n1", map[string]string{api.LabelHostname: "n1", api.LabelTopologyZone: "a"}))
	hostZone := []topologySpreadConstraint{{TopologyKey: api.LabelHostname}, {TopologyKey: api.LabelTopologyZone}}
	rack := []topologySpreadConstraint{{TopologyKey: "rack"}}
	var tv topologyValues
	got := func(cs []topologySpreadConstraint) []string {
		tv.setKeys(cs, 1)
		v := tv.of(ni)
		var out []string
		for i := range v.values {
			if v.has[i] {
				out = append(out, v.values[i])
			} else {
				out = append(out, "-")
			}
		}
		return out
	}
	steps := []struct {
		what string
		cs   []topologySpreadConstraint
		do   func()
		want []string
	}{
		{"hostname and zone", hostZone, func() {}, []string{"n1", "a"}},
		{"the node moves to zone b (the cache gives it a new generation)", hostZone, func() {
			ni.SetNode(fake.Node("n1", map[string]string{api.LabelHostname: "n1", api.LabelTopologyZone: "b", "rack": "r1"}))
			ni.Generation++
		}, []string{"n1", "b"}},
		{"another pod's keys", rack, func() {}, []string{"r1"}},
		{"the first keys again", hostZone, func() {}, []string{"n1", "b"}},
	}
	for _, s := range steps {
		s.do()
		if g := got(s.cs); len(g) != len(s.want) || g[0] != s.want[0] || g[len(g)-1] != s.want[len(s.want)-1] {
			t.Errorf("%s: %v, want %v", s.what, g, s.want)
		}
	}
}
