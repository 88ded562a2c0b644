package nodeports_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/nodeports"
)

func withPorts(p *api.Pod, ports ...api.ContainerPort) *api.Pod {
	p.Spec.Containers[0].Ports = ports
	return p
}

func TestFilter(t *testing.T) {
	nodes := []*api.Node{fake.Node("free", nil), fake.Node("busy", nil)}
	// The seed's proxy DaemonSet holds hostPort 10080 on "busy".
	existing := fake.On(withPorts(fake.Pod("proxy", nil), api.ContainerPort{ContainerPort: 80, HostPort: 10080}), "busy")
	existingIP := fake.On(withPorts(fake.Pod("dns", nil), api.ContainerPort{ContainerPort: 53, HostPort: 53, Protocol: "UDP", HostIP: "10.0.0.1"}), "busy")
	const taken = nodeports.ErrReason
	tests := []struct {
		name  string
		ports []api.ContainerPort
		want  map[string]string
	}{
		{"no host ports", []api.ContainerPort{{ContainerPort: 10080}}, map[string]string{"free": "", "busy": ""}},
		{"same port and protocol", []api.ContainerPort{{ContainerPort: 8080, HostPort: 10080}}, map[string]string{"free": "", "busy": taken}},
		{"same port, other protocol", []api.ContainerPort{{ContainerPort: 8080, HostPort: 10080, Protocol: "UDP"}}, map[string]string{"busy": ""}},
		{"specific IP against a wildcard holder", []api.ContainerPort{{ContainerPort: 8080, HostPort: 10080, HostIP: "10.0.0.2"}}, map[string]string{"busy": taken}},
		{"wildcard against a specific IP holder", []api.ContainerPort{{ContainerPort: 53, HostPort: 53, Protocol: "UDP"}}, map[string]string{"busy": taken}},
		{"another specific IP", []api.ContainerPort{{ContainerPort: 53, HostPort: 53, Protocol: "UDP", HostIP: "10.0.0.3"}}, map[string]string{"busy": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := withPorts(fake.Pod("p", nil), tt.ports...)
			got := fake.RunFilter(nodeports.New(), fake.NewHandle(nodes, []*api.Pod{existing, existingIP}), p)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}
