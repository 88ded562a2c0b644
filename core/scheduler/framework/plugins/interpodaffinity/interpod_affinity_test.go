package interpodaffinity_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/interpodaffinity"
)

// Nodes of the seed after `label centos-7-55 cpu=slow`: two cpu domains,
// high (54, 56) and slow (55); "bare" has no cpu label.
func nodes() []*api.Node {
	return []*api.Node{
		fake.Node("centos-7-54", map[string]string{"cpu": "high", "zone": "a"}),
		fake.Node("centos-7-55", map[string]string{"cpu": "slow", "zone": "a"}),
		fake.Node("centos-7-56", map[string]string{"cpu": "high", "zone": "b"}),
		fake.Node("bare", nil),
	}
}

var names = []string{"centos-7-54", "centos-7-55", "centos-7-56", "bare"}

func term(app, key string, namespaces ...string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: key, Namespaces: namespaces}
}

func handle(pods ...*api.Pod) *fake.Handle {
	h := fake.NewHandle(nodes(), pods)
	h.Namespaces = []*api.Namespace{
		{ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{"team": "web"}}},
		{ObjectMeta: api.ObjectMeta{Name: "other", Labels: map[string]string{"team": "db"}}},
	}
	return h
}

func nginxOn(node string) *api.Pod {
	return fake.On(fake.Pod("nginx-"+node, map[string]string{"app": "nginx"}), node)
}

func TestFilter(t *testing.T) {
	const (
		aff      = interpodaffinity.ErrReasonAffinityRulesNotMatch
		anti     = interpodaffinity.ErrReasonAntiAffinityRulesNotMatch
		existing = interpodaffinity.ErrReasonExistingAntiAffinityRulesNotMatch
	)
	otherNS := fake.On(fake.Pod("nginx-other", map[string]string{"app": "nginx"}), "centos-7-55")
	otherNS.Namespace = "other"
	guard := fake.On(fake.Pod("guard", map[string]string{"app": "guard"}), "centos-7-56")
	guard.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("slb", "zone")}}}
	tests := []struct {
		name     string
		labels   map[string]string
		affinity *api.Affinity
		existing []*api.Pod
		want     [4]string
	}{
		{"affinity to nginx by cpu (seed)", map[string]string{"app": "slb"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu", "default")}}},
			[]*api.Pod{nginxOn("centos-7-56")}, [4]string{"", aff, "", aff}},
		{"no matching pod anywhere", map[string]string{"app": "slb"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu")}}},
			nil, [4]string{aff, aff, aff, aff}},
		{"the first pod of a self-affine group goes where the key exists", map[string]string{"app": "nginx"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu")}}},
			nil, [4]string{"", "", "", aff}},
		{"pods of other namespaces are not seen", map[string]string{"app": "slb"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu")}}},
			[]*api.Pod{otherNS}, [4]string{aff, aff, aff, aff}},
		{"listed namespaces are", map[string]string{"app": "slb"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu", "other")}}},
			[]*api.Pod{otherNS}, [4]string{aff, "", aff, aff}},
		{"a namespace selector selects namespaces by label", map[string]string{"app": "slb"},
			&api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{func() api.PodAffinityTerm {
				t := term("nginx", "cpu")
				t.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"team": "db"}}
				return t
			}()}}},
			[]*api.Pod{otherNS}, [4]string{aff, "", aff, aff}},
		{"anti-affinity keeps the domain free", map[string]string{"app": "nginx"},
			&api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", "cpu")}}},
			[]*api.Pod{nginxOn("centos-7-54")}, [4]string{anti, "", anti, ""}},
		{"anti-affinity by hostname", map[string]string{"app": "nginx"},
			&api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("nginx", api.LabelHostname)}}},
			[]*api.Pod{nginxOn("centos-7-54")}, [4]string{anti, "", "", ""}},
		{"existing pods' anti-affinity", map[string]string{"app": "slb"}, nil,
			[]*api.Pod{guard}, [4]string{"", "", existing, ""}},
		{"existing anti-affinity ignores non-matching pods", map[string]string{"app": "web"}, nil,
			[]*api.Pod{guard}, [4]string{"", "", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("incoming", tt.labels)
			p.Spec.Affinity = tt.affinity
			got := fake.RunFilter(interpodaffinity.New(handle(tt.existing...)), handle(tt.existing...), p)
			for i, n := range names {
				if got[n] != tt.want[i] {
					t.Errorf("node %s: %q, want %q", n, got[n], tt.want[i])
				}
			}
		})
	}
}

func TestScore(t *testing.T) {
	weighted := func(w int32, t api.PodAffinityTerm) []api.WeightedPodAffinityTerm {
		return []api.WeightedPodAffinityTerm{{Weight: w, PodAffinityTerm: t}}
	}
	needsSLB := fake.On(fake.Pod("needs-slb", map[string]string{"app": "cache"}), "centos-7-55")
	needsSLB.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term("slb", "cpu")}}}
	tests := []struct {
		name     string
		affinity *api.Affinity
		existing []*api.Pod
		want     map[string]int64 // nil: skipped
	}{
		{"nothing to weigh", nil, []*api.Pod{nginxOn("centos-7-56")}, nil},
		{"preferred affinity (seed): the cpu=high domain", &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: weighted(10, term("nginx", "cpu"))}},
			[]*api.Pod{nginxOn("centos-7-56")}, map[string]int64{"centos-7-54": 100, "centos-7-55": 0, "centos-7-56": 100, "bare": 0}},
		{"preferred anti-affinity", &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: weighted(10, term("nginx", api.LabelHostname))}},
			[]*api.Pod{nginxOn("centos-7-56")}, map[string]int64{"centos-7-54": 100, "centos-7-55": 100, "centos-7-56": 0, "bare": 100}},
		{"an existing pod's required affinity draws the pod", nil,
			[]*api.Pod{needsSLB}, map[string]int64{"centos-7-54": 0, "centos-7-55": 100, "centos-7-56": 0, "bare": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("incoming", map[string]string{"app": "slb"})
			p.Spec.Affinity = tt.affinity
			h := handle(tt.existing...)
			got := fake.RunScore(interpodaffinity.New(h), h, p)
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
