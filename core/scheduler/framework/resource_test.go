package framework_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/scheduler/framework"
)

func ctr(cpu string) api.Container {
	c := api.Container{Name: "c"}
	if cpu != "" {
		c.Resources.Requests = api.ResourceList{api.ResourceCPU: resource.MustParse(cpu)}
	}
	return c
}

func TestPodRequests(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	side := func(c api.Container) api.Container { c.RestartPolicy = &always; return c }
	tests := []struct {
		name       string
		containers []api.Container
		inits      []api.Container
		overhead   string
		nonZero    bool
		wantMilli  int64
	}{
		{"containers add up", []api.Container{ctr("100m"), ctr("200m")}, nil, "", false, 300},
		{"an init container bigger than the sum wins", []api.Container{ctr("100m")}, []api.Container{ctr("1")}, "", false, 1000},
		{"init containers do not add up", []api.Container{ctr("100m")}, []api.Container{ctr("500m"), ctr("500m")}, "", false, 500},
		{"sidecars add to the app and to later init containers", []api.Container{ctr("100m")}, []api.Container{side(ctr("200m")), ctr("500m")}, "", false, 700},
		{"overhead is added", []api.Container{ctr("100m")}, nil, "50m", false, 150},
		{"scoring defaults fill missing requests", []api.Container{ctr(""), ctr("300m")}, nil, "", true, 400},
		{"no defaults: missing is zero", []api.Container{ctr("")}, nil, "", false, 0},
		{"one container with defaults", []api.Container{ctr("")}, nil, "", true, 100},
		{"one container's own request stands", []api.Container{ctr("250m")}, nil, "", true, 250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &api.Pod{Spec: api.PodSpec{Containers: tt.containers, InitContainers: tt.inits}}
			if tt.overhead != "" {
				p.Spec.Overhead = api.ResourceList{api.ResourceCPU: resource.MustParse(tt.overhead)}
			}
			opts := framework.PodRequestsOptions{}
			if tt.nonZero {
				opts.NonMissing = framework.NonZeroDefaults()
			}
			got := framework.NewResource(framework.PodRequests(p, opts))
			if got.MilliCPU != tt.wantMilli {
				t.Errorf("%dm, want %dm", got.MilliCPU, tt.wantMilli)
			}
			// The summing shortcut agrees with the list, memory included.
			if direct := framework.PodRequestsResource(p, opts); !direct.Equal(got) {
				t.Errorf("summed directly %+v, through the list %+v", direct, got)
			}
		})
	}
}
