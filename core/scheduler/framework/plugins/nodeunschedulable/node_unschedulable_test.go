package nodeunschedulable_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/nodeunschedulable"
)

func TestFilter(t *testing.T) {
	cordoned := fake.Node("cordoned", nil)
	cordoned.Spec.Unschedulable = true
	nodes := []*api.Node{fake.Node("open", nil), cordoned}
	const reason = "node(s) were unschedulable"
	tests := []struct {
		name        string
		tolerations []api.Toleration
		want        map[string]string
	}{
		{"no toleration", nil, map[string]string{"open": "", "cordoned": reason}},
		{"tolerates the unschedulable taint", []api.Toleration{{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}},
			map[string]string{"open": "", "cordoned": ""}},
		{"tolerates everything", []api.Toleration{{Operator: api.TolerationOpExists}}, map[string]string{"open": "", "cordoned": ""}},
		{"tolerates another effect only", []api.Toleration{{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}},
			map[string]string{"open": "", "cordoned": reason}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.Tolerations = tt.tolerations
			got := fake.RunFilter(nodeunschedulable.New(), fake.NewHandle(nodes, nil), p)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}
