package nodeaffinity_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/nodeaffinity"
)

// The seed's workers: 54 ssd+cpu=high, 55 ssd, 56 cpu=high; and a node with a numeric label.
func nodes() []*api.Node {
	return []*api.Node{
		fake.Node("centos-7-54", map[string]string{"ssd": "true", "cpu": "high"}),
		fake.Node("centos-7-55", map[string]string{"ssd": "true"}),
		fake.Node("centos-7-56", map[string]string{"cpu": "high", "gen": "5"}),
	}
}

func req(key, op string, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func required(terms ...api.NodeSelectorTerm) *api.Affinity {
	return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}
}

func exprs(rs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchExpressions: rs}
}

func TestFilter(t *testing.T) {
	const no = nodeaffinity.ErrReasonPod
	tests := []struct {
		name         string
		nodeSelector map[string]string
		affinity     *api.Affinity
		want         [3]bool // fits 54, 55, 56
	}{
		{"nothing asked", nil, nil, [3]bool{true, true, true}},
		{"nodeSelector is an AND", map[string]string{"ssd": "true", "cpu": "high"}, nil, [3]bool{true, false, false}},
		{"In", nil, required(exprs(req("cpu", api.NodeSelectorOpIn, "high", "mid"))), [3]bool{true, false, true}},
		{"NotIn matches a missing label", nil, required(exprs(req("cpu", api.NodeSelectorOpNotIn, "high"))), [3]bool{false, true, false}},
		{"Exists", nil, required(exprs(req("ssd", api.NodeSelectorOpExists))), [3]bool{true, true, false}},
		{"DoesNotExist and In (seed case 1)", nil, required(exprs(req("ssd", api.NodeSelectorOpDoesNotExist), req("cpu", api.NodeSelectorOpIn, "high"))), [3]bool{false, false, true}},
		{"DoesNotExist and NotIn (seed case 2)", nil, required(exprs(req("ssd", api.NodeSelectorOpDoesNotExist), req("cpu", api.NodeSelectorOpNotIn, "high"))), [3]bool{false, false, false}},
		{"Gt", nil, required(exprs(req("gen", api.NodeSelectorOpGt, "4"))), [3]bool{false, false, true}},
		{"Lt", nil, required(exprs(req("gen", api.NodeSelectorOpLt, "5"))), [3]bool{false, false, false}},
		{"Gt with a non-integer value matches nothing", nil, required(exprs(req("gen", api.NodeSelectorOpGt, "x"))), [3]bool{false, false, false}},
		{"terms are ORed", nil, required(exprs(req("ssd", api.NodeSelectorOpDoesNotExist)), exprs(req("cpu", api.NodeSelectorOpDoesNotExist))), [3]bool{false, true, true}},
		{"an empty term matches nothing", nil, required(api.NodeSelectorTerm{}), [3]bool{false, false, false}},
		{"matchFields metadata.name", nil, required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpIn, "centos-7-55")}}), [3]bool{false, true, false}},
		{"matchFields NotIn", nil, required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpNotIn, "centos-7-55")}}), [3]bool{true, false, true}},
		{"nodeSelector and affinity must both match", map[string]string{"ssd": "true"}, required(exprs(req("cpu", api.NodeSelectorOpExists))), [3]bool{true, false, false}},
	}
	names := []string{"centos-7-54", "centos-7-55", "centos-7-56"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.NodeSelector = tt.nodeSelector
			p.Spec.Affinity = tt.affinity
			got := fake.RunFilter(nodeaffinity.New(), fake.NewHandle(nodes(), nil), p)
			for i, n := range names {
				want := no
				if tt.want[i] {
					want = ""
				}
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}

func TestPreFilterNarrowsByName(t *testing.T) {
	tests := []struct {
		name   string
		terms  []api.NodeSelectorTerm
		want   []string // nil: all nodes
		reject string
	}{
		{"one name", []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpIn, "a")}}}, []string{"a"}, ""},
		{"terms union", []api.NodeSelectorTerm{
			{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpIn, "a")}},
			{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpIn, "b")}},
		}, []string{"a", "b"}, ""},
		{"a term without names keeps all", []api.NodeSelectorTerm{
			{MatchFields: []api.NodeSelectorRequirement{req("metadata.name", api.NodeSelectorOpIn, "a")}},
			exprs(req("ssd", api.NodeSelectorOpExists)),
		}, nil, ""},
		{"requirements in a term intersect", []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			req("metadata.name", api.NodeSelectorOpIn, "a"), req("metadata.name", api.NodeSelectorOpIn, "b"),
		}}}, nil, "pod affinity terms conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.Affinity = required(tt.terms...)
			res, st := nodeaffinity.New().PreFilter(newState(), p)
			if st.Message() != tt.reject {
				t.Fatalf("status %q, want %q", st.Message(), tt.reject)
			}
			if tt.reject != "" {
				return
			}
			if tt.want == nil {
				if !res.AllNodes() {
					t.Fatalf("narrowed to %v", res.SortedNames())
				}
				return
			}
			if got := res.SortedNames(); len(got) != len(tt.want) || got[0] != tt.want[0] || got[len(got)-1] != tt.want[len(tt.want)-1] {
				t.Fatalf("names %v, want %v", got, tt.want)
			}
		})
	}
}

func TestScore(t *testing.T) {
	pref := func(w int32, rs ...api.NodeSelectorRequirement) api.PreferredSchedulingTerm {
		return api.PreferredSchedulingTerm{Weight: w, Preference: exprs(rs...)}
	}
	tests := []struct {
		name  string
		terms []api.PreferredSchedulingTerm
		want  map[string]int64 // nil: the plugin skips scoring
	}{
		{"no preferences", nil, nil},
		{"nothing matches (seed case 3)", []api.PreferredSchedulingTerm{pref(5, req("ssd", api.NodeSelectorOpDoesNotExist), req("cpu", api.NodeSelectorOpNotIn, "high"))},
			map[string]int64{"centos-7-54": 0, "centos-7-55": 0, "centos-7-56": 0}},
		{"one node matches (seed case 4)", []api.PreferredSchedulingTerm{pref(10, req("ssd", api.NodeSelectorOpDoesNotExist), req("cpu", api.NodeSelectorOpIn, "high"))},
			map[string]int64{"centos-7-54": 0, "centos-7-55": 0, "centos-7-56": 100}},
		{"weights add and are scaled to the best", []api.PreferredSchedulingTerm{pref(30, req("ssd", api.NodeSelectorOpExists)), pref(10, req("cpu", api.NodeSelectorOpExists))},
			map[string]int64{"centos-7-54": 100, "centos-7-55": 75, "centos-7-56": 25}},
		{"zero weights are ignored", []api.PreferredSchedulingTerm{pref(0, req("ssd", api.NodeSelectorOpExists)), pref(1, req("cpu", api.NodeSelectorOpExists))},
			map[string]int64{"centos-7-54": 100, "centos-7-55": 0, "centos-7-56": 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			if tt.terms != nil {
				p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: tt.terms}}
			}
			got := fake.RunScore(nodeaffinity.New(), fake.NewHandle(nodes(), nil), p)
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
