package noderesources_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/noderesources"
)

func container(cpu, mem string) api.Container {
	rl := api.ResourceList{}
	if cpu != "" {
		rl[api.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		rl[api.ResourceMemory] = resource.MustParse(mem)
	}
	return api.Container{Name: "c", Image: "i", Resources: api.ResourceRequirements{Requests: rl}}
}

func podWith(containers []api.Container, inits ...api.Container) *api.Pod {
	p := fake.Pod("p", nil)
	p.Spec.Containers = containers
	p.Spec.InitContainers = inits
	return p
}

func sidecar(c api.Container) api.Container {
	always := api.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

func TestFilter(t *testing.T) {
	// One node of 4 cpu / 8Gi / 3 pods with 3 cpu and 1Gi used by two pods.
	n := fake.Node("n", nil, "4", "8Gi", "3")
	used := []*api.Pod{
		fake.On(fake.Requests(fake.Pod("u1", nil), "cpu", "2", "memory", "512Mi"), "n"),
		fake.On(fake.Requests(fake.Pod("u2", nil), "cpu", "1", "memory", "512Mi"), "n"),
	}
	gpu := fake.Node("g", nil, "4", "8Gi", "3")
	gpu.Status.Allocatable["nvidia.com/gpu"] = resource.MustParse("1")
	tests := []struct {
		name string
		node *api.Node
		pod  *api.Pod
		want string
	}{
		{"fits in what is left", n, podWith([]api.Container{container("1", "1Gi")}), ""},
		{"best effort only needs a pod slot", n, podWith([]api.Container{container("", "")}), ""},
		{"cpu short", n, podWith([]api.Container{container("1001m", "")}), "Insufficient cpu"},
		{"cpu and memory short, both reported", n, podWith([]api.Container{container("2", "8Gi")}), "Insufficient cpu, Insufficient memory"},
		{"containers add up", n, podWith([]api.Container{container("600m", ""), container("600m", "")}), "Insufficient cpu"},
		{"the largest init container counts when bigger", n, podWith([]api.Container{container("100m", "")}, container("2", "")), "Insufficient cpu"},
		{"init containers run one at a time", n, podWith([]api.Container{container("100m", "")}, container("1", ""), container("1", "")), ""},
		{"a sidecar runs beside the app containers", n, podWith([]api.Container{container("600m", "")}, sidecar(container("600m", ""))), "Insufficient cpu"},
		{"extended resource missing", n, func() *api.Pod {
			return fake.Requests(fake.Pod("p", nil), "nvidia.com/gpu", "1")
		}(), "Insufficient nvidia.com/gpu"},
		{"extended resource present", gpu, fake.Requests(fake.Pod("p", nil), "nvidia.com/gpu", "1"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pods []*api.Pod
			for _, u := range used {
				pods = append(pods, fake.On(u, tt.node.Name))
			}
			got := fake.RunFilter(noderesources.NewFit(), fake.NewHandle([]*api.Node{tt.node}, pods), tt.pod)
			if got[tt.node.Name] != tt.want {
				t.Errorf("%q, want %q", got[tt.node.Name], tt.want)
			}
		})
	}
}

func TestFilterTooManyPods(t *testing.T) {
	n := fake.Node("n", nil, "4", "8Gi", "2")
	pods := []*api.Pod{fake.On(fake.Pod("a", nil), "n"), fake.On(fake.Pod("b", nil), "n")}
	got := fake.RunFilter(noderesources.NewFit(), fake.NewHandle([]*api.Node{n}, pods), fake.Requests(fake.Pod("p", nil), "cpu", "5"))
	if got["n"] != "Too many pods, Insufficient cpu" {
		t.Fatalf("%q", got["n"])
	}
}

func TestLeastAllocatedScore(t *testing.T) {
	nodes := []*api.Node{fake.Node("empty", nil, "4", "8Gi"), fake.Node("half", nil, "4", "8Gi"), fake.Node("small", nil, "1", "1Gi")}
	existing := []*api.Pod{fake.On(fake.Requests(fake.Pod("x", nil), "cpu", "2", "memory", "4Gi"), "half")}
	tests := []struct {
		name string
		pod  *api.Pod
		want map[string]int64
	}{
		// cpu (4000-1000)/4000 = 75, memory (8-2)/8 = 75.
		{"requests count", fake.Requests(fake.Pod("p", nil), "cpu", "1", "memory", "2Gi"), map[string]int64{"empty": 75, "half": 25, "small": 0}},
		// A best-effort pod counts as 100m and 200Mi: cpu 97, memory (8192-200)/8192 = 97.
		{"missing requests count as the defaults", fake.Pod("p", nil), map[string]int64{"empty": 97, "half": 47, "small": 85}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fake.RunScore(noderesources.NewFit(), fake.NewHandle(nodes, existing), tt.pod)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %d, want %d", n, got[n], want)
				}
			}
		})
	}
}

func TestBalancedAllocationScore(t *testing.T) {
	nodes := []*api.Node{fake.Node("empty", nil, "4", "8Gi"), fake.Node("cpuheavy", nil, "4", "8Gi")}
	existing := []*api.Pod{fake.On(fake.Requests(fake.Pod("x", nil), "cpu", "3"), "cpuheavy")}
	tests := []struct {
		name string
		pod  *api.Pod
		want map[string]int64
	}{
		// empty: cpu 1/4, memory 2/8: even, 100. cpuheavy: cpu 4/4, memory 2/8: std (1-0.25)/2, 62.
		{"even use scores best", fake.Requests(fake.Pod("p", nil), "cpu", "1", "memory", "2Gi"), map[string]int64{"empty": 100, "cpuheavy": 62}},
		// Real requests only: a best-effort pod adds nothing. cpuheavy: 3/4 vs 0, std 0.375.
		{"best effort uses real requests", fake.Pod("p", nil), map[string]int64{"empty": 100, "cpuheavy": 62}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fake.RunScore(noderesources.NewBalancedAllocation(), fake.NewHandle(nodes, existing), tt.pod)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %d, want %d", n, got[n], want)
				}
			}
		})
	}
}
