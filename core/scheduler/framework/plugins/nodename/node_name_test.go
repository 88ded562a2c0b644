package nodename_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/nodename"
)

func TestFilter(t *testing.T) {
	nodes := []*api.Node{fake.Node("a", nil), fake.Node("b", nil)}
	tests := []struct {
		name     string
		nodeName string
		want     map[string]string
	}{
		{"no node name fits everywhere", "", map[string]string{"a": "", "b": ""}},
		{"a named node fits only there", "b", map[string]string{"a": nodename.ErrReason, "b": ""}},
		{"a missing node fits nowhere", "c", map[string]string{"a": nodename.ErrReason, "b": nodename.ErrReason}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.NodeName = tt.nodeName
			got := fake.RunFilter(nodename.New(), fake.NewHandle(nodes, nil), p)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}
