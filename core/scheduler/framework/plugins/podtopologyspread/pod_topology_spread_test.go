package podtopologyspread_test

import (
	"maps"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/podtopologyspread"
)

// Two zones: a (n1, n2) and b (n3); n4 lacks the zone label.
func nodes() []*api.Node {
	return []*api.Node{
		fake.Node("n1", map[string]string{api.LabelTopologyZone: "a"}),
		fake.Node("n2", map[string]string{api.LabelTopologyZone: "a"}),
		fake.Node("n3", map[string]string{api.LabelTopologyZone: "b"}),
		fake.Node("n4", nil),
	}
}

var names = []string{"n1", "n2", "n3", "n4"}

func web(name, node string) *api.Pod {
	return fake.On(fake.Pod(name, map[string]string{"app": "web"}), node)
}

func constraint(key string, skew int32, action string) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: skew, TopologyKey: key, WhenUnsatisfiable: action,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
}

func TestFilter(t *testing.T) {
	const (
		skew    = podtopologyspread.ErrReasonConstraintsNotMatch
		missing = podtopologyspread.ErrReasonNodeLabelNotMatch
	)
	minDomains := func(c api.TopologySpreadConstraint, n int32) api.TopologySpreadConstraint {
		c.MinDomains = &n
		return c
	}
	tests := []struct {
		name        string
		constraints []api.TopologySpreadConstraint
		existing    []*api.Pod
		want        [4]string
	}{
		{"no constraints", nil, []*api.Pod{web("w1", "n1")}, [4]string{"", "", "", ""}},
		{"zones even: any zone", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.DoNotSchedule)},
			nil, [4]string{"", "", "", missing}},
		{"zone a ahead by one: only b", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.DoNotSchedule)},
			[]*api.Pod{web("w1", "n1")}, [4]string{skew, skew, "", missing}},
		{"maxSkew 2 allows it", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 2, api.DoNotSchedule)},
			[]*api.Pod{web("w1", "n1")}, [4]string{"", "", "", missing}},
		{"minDomains above the domains seen: the minimum counts as 0", []api.TopologySpreadConstraint{minDomains(constraint(api.LabelTopologyZone, 1, api.DoNotSchedule), 3)},
			[]*api.Pod{web("w1", "n1"), web("w2", "n3")}, [4]string{skew, skew, skew, missing}},
		{"ScheduleAnyway does not filter", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.ScheduleAnyway)},
			[]*api.Pod{web("w1", "n1")}, [4]string{"", "", "", ""}},
		{"by hostname", []api.TopologySpreadConstraint{constraint(api.LabelHostname, 1, api.DoNotSchedule)},
			[]*api.Pod{web("w1", "n1"), web("w2", "n2"), web("w3", "n3")}, [4]string{skew, skew, skew, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("incoming", map[string]string{"app": "web"})
			p.Spec.TopologySpreadConstraints = tt.constraints
			h := fake.NewHandle(nodes(), tt.existing)
			got := fake.RunFilter(podtopologyspread.New(h), h, p)
			for i, n := range names {
				if got[n] != tt.want[i] {
					t.Errorf("node %s: %q, want %q", n, got[n], tt.want[i])
				}
			}
		})
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		name        string
		constraints []api.TopologySpreadConstraint
		existing    []*api.Pod
		want        map[string]int64 // nil: skipped
	}{
		{"no constraints and no owner: skipped", nil, []*api.Pod{web("w1", "n1")}, nil},
		// Per hostname, maxSkew 1: n1 has 2, n2 1, others 0; n4 has no zone but
		// the hostname constraint alone does not exclude it.
		{"fewer matching pods score higher", []api.TopologySpreadConstraint{constraint(api.LabelHostname, 1, api.ScheduleAnyway)},
			[]*api.Pod{web("w1", "n1"), web("w2", "n1"), web("w3", "n2")}, map[string]int64{"n1": 0, "n2": 50, "n3": 100, "n4": 100}},
		{"nodes lacking the key score 0", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.ScheduleAnyway)},
			[]*api.Pod{web("w1", "n1")}, map[string]int64{"n1": 0, "n2": 0, "n3": 100, "n4": 0}},
	}
	// Two constraints on the zone count their own pods (upstream keeps a
	// map of domains per constraint): zone a holds 2 web pods and no front
	// one, zone b 1 front pod. Each domain weighs ln(2+2): n1 and n2 score
	// 2*1.39 = 3 raw, n3 1, so 33 and 100 (shared counts would give 50).
	front := constraint(api.LabelTopologyZone, 1, api.ScheduleAnyway)
	front.LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}
	tests = append(tests, struct {
		name        string
		constraints []api.TopologySpreadConstraint
		existing    []*api.Pod
		want        map[string]int64
	}{"two constraints on one key count apart", []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.ScheduleAnyway), front},
		[]*api.Pod{web("w1", "n1"), web("w2", "n2"), fake.On(fake.Pod("f1", map[string]string{"tier": "front"}), "n3")},
		map[string]int64{"n1": 33, "n2": 33, "n3": 100, "n4": 0}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("incoming", map[string]string{"app": "web", "tier": "front"})
			p.Spec.TopologySpreadConstraints = tt.constraints
			h := fake.NewHandle(nodes(), tt.existing)
			got := fake.RunScore(podtopologyspread.New(h), h, p)
			if each := fake.RunScoreEachNode(podtopologyspread.New(h), h, p); !maps.Equal(each, got) {
				t.Errorf("scored node by node %v, all at once %v", each, got)
			}
			if tt.want == nil {
				if got != nil {
					t.Fatalf("scored %v, want a skip", got)
				}
				return
			}
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %d, want %d", n, got[n], want)
				}
			}
		})
	}
}

// Pods owned by a ReplicaSet are spread by the built-in defaults
// (hostname, maxSkew 3, and zone, maxSkew 5) over the ReplicaSet's pods.
func TestSystemDefaultSpreading(t *testing.T) {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default"},
		Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	owned := func(p *api.Pod) *api.Pod {
		t := true
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "rs", Controller: &t}}
		return p
	}
	stray := fake.On(fake.Pod("stray", map[string]string{"app": "other"}), "n3")
	h := fake.NewHandle(nodes(), []*api.Pod{owned(web("w1", "n1")), owned(web("w2", "n1")), stray})
	h.ReplicaSets = []*api.ReplicaSet{rs}
	p := owned(fake.Pod("incoming", map[string]string{"app": "web"}))
	got := fake.RunScore(podtopologyspread.New(h), h, p)
	if each := fake.RunScoreEachNode(podtopologyspread.New(h), h, p); !maps.Equal(each, got) {
		t.Errorf("scored node by node %v, all at once %v", each, got)
	}
	// Raw: hostname count*ln(4+2)+2 plus, where the zone label exists,
	// zone count*ln(3+2)+4 (three zone values: a, b and n4's missing one):
	// n1 13, n2 9, n3 6, n4 2 (the defaults do not exclude a node without
	// a zone, and it loses no points for zone crowding).
	want := map[string]int64{"n1": 15, "n2": 46, "n3": 69, "n4": 100}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("node %s: %d, want %d", n, got[n], w)
		}
	}
	if fake.RunFilter(podtopologyspread.New(h), h, p)["n1"] != "" {
		t.Fatalf("the defaults are soft: they must not filter")
	}
}

// A zone label with an empty value names a domain like any other, also
// for the first node scored: e1 and e2 share the empty zone and its two
// web pods, z1's zone has none.
func TestScoreEmptyZoneValueIsADomain(t *testing.T) {
	ns := []*api.Node{
		fake.Node("e1", map[string]string{api.LabelTopologyZone: ""}),
		fake.Node("e2", map[string]string{api.LabelTopologyZone: ""}),
		fake.Node("z1", map[string]string{api.LabelTopologyZone: "a"}),
	}
	h := fake.NewHandle(ns, []*api.Pod{web("w1", "e1"), web("w2", "e2")})
	p := fake.Pod("incoming", map[string]string{"app": "web"})
	p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{constraint(api.LabelTopologyZone, 1, api.ScheduleAnyway)}
	got := fake.RunScore(podtopologyspread.New(h), h, p)
	for n, want := range map[string]int64{"e1": 0, "e2": 0, "z1": 100} {
		if got[n] != want {
			t.Errorf("node %s: %d, want %d", n, got[n], want)
		}
	}
}
