package imagelocality_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/imagelocality"
)

func TestScore(t *testing.T) {
	const mb = 1024 * 1024
	nodes := []*api.Node{fake.Node("a", nil), fake.Node("b", nil), fake.Node("c", nil), fake.Node("d", nil)}
	tests := []struct {
		name   string
		images map[string]map[string]*framework.ImageStateSummary // node → image → state
		want   map[string]int64
	}{
		{"no images anywhere", nil, map[string]int64{"a": 0, "b": 0}},
		// 500 MB on 2 of 4 nodes counts 250 MB: (250-23)/(1000-23) of 100.
		{"spread scales the size", map[string]map[string]*framework.ImageStateSummary{
			"a": {"nginx:latest": {Size: 500 * mb, NumNodes: 2}},
			"b": {"nginx:latest": {Size: 500 * mb, NumNodes: 2}},
		}, map[string]int64{"a": 23, "b": 23, "c": 0}},
		{"below 23 MB counts nothing", map[string]map[string]*framework.ImageStateSummary{
			"a": {"nginx:latest": {Size: 80 * mb, NumNodes: 1}},
		}, map[string]int64{"a": 0}},
		{"capped at 1000 MB per container", map[string]map[string]*framework.ImageStateSummary{
			"a": {"nginx:latest": {Size: 9000 * mb, NumNodes: 4}},
		}, map[string]int64{"a": 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := fake.NewHandle(nodes, nil)
			for _, ni := range h.Nodes {
				for img, st := range tt.images[ni.Node().Name] {
					ni.ImageStates[img] = st
				}
			}
			got := fake.RunScore(imagelocality.New(h), h, fake.Pod("p", nil))
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %d, want %d", n, got[n], want)
				}
			}
		})
	}
}

func TestNormalizedImageName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nginx", "nginx:latest"},
		{"nginx:1.21", "nginx:1.21"},
		{"localhost:5000/app", "localhost:5000/app:latest"},
		{"localhost:5000/app:v2", "localhost:5000/app:v2"},
	}
	for _, tt := range tests {
		if got := imagelocality.NormalizedImageName(tt.in); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.in, got, tt.want)
		}
	}
}
