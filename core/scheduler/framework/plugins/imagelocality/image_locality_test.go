package imagelocality_test

import (
	"maps"
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
			if each := fake.RunScoreEachNode(imagelocality.New(h), h, fake.Pod("p", nil)); !maps.Equal(each, got) {
				t.Errorf("scored node by node %v, all at once %v", each, got)
			}
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

// One plugin scores pod after pod: a node's score follows its images'
// spread, the node's own changes and the pod's images, whatever it
// remembered from the pod before.
func TestScoreFollowsChangesBetweenPods(t *testing.T) {
	const mb = 1024 * 1024
	nodes := []*api.Node{fake.Node("a", nil), fake.Node("b", nil), fake.Node("c", nil), fake.Node("d", nil)}
	h := fake.NewHandle(nodes, nil)
	pl := imagelocality.New(h)
	nginx := &framework.ImageStateSummary{Size: 500 * mb, NumNodes: 2}
	a := h.Nodes[0]
	a.ImageStates["nginx:latest"] = nginx
	score := func() int64 { return fake.RunScore(pl, h, fake.Pod("p", nil))["a"] }
	withImage := func(image string) int64 {
		p := fake.Pod("q", nil)
		p.Spec.Containers[0].Image = image
		return fake.RunScore(pl, h, p)["a"]
	}
	steps := []struct {
		what string
		got  func() int64
		want int64
	}{
		{"500 MB on 2 of 4 nodes", score, 23},
		{"the same pod again", score, 23},
		{"the image spreads to all 4 nodes", func() int64 { nginx.NumNodes = 4; return score() }, 48},
		{"a pod of another image", func() int64 { return withImage("busybox") }, 0},
		{"node a drops nginx (a new generation)", func() int64 {
			delete(a.ImageStates, "nginx:latest")
			a.Generation++
			return score()
		}, 0},
	}
	for _, s := range steps {
		if got := s.got(); got != s.want {
			t.Errorf("%s: %d, want %d", s.what, got, s.want)
		}
	}
}
