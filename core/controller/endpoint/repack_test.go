package endpoint_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/controller/endpoint"
)

func addr(ip, uid string) api.EndpointAddress {
	return api.EndpointAddress{IP: ip, TargetRef: &api.ObjectReference{Kind: "Pod", UID: uid}}
}

// kube-dns's Endpoints list their ports as a real cluster does
// (kubectl describe ep kube-dns -n kube-system): dns-tcp, dns, metrics.
func TestSortSubsetsOrdersPortsAsUpstream(t *testing.T) {
	ports := []api.EndpointPort{
		{Name: "metrics", Port: 9153, Protocol: "TCP"},
		{Name: "dns", Port: 53, Protocol: "UDP"},
		{Name: "dns-tcp", Port: 53, Protocol: "TCP"},
	}
	got := endpoint.SortSubsets([]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "10.244.0.2"}}, Ports: ports}})
	var names []string
	for _, p := range got[0].Ports {
		names = append(names, p.Name)
	}
	if want := []string{"dns-tcp", "dns", "metrics"}; !equal(names, want) {
		t.Errorf("ports = %v, want %v", names, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRepackSubsets(t *testing.T) {
	p80 := api.EndpointPort{Port: 80, Protocol: "TCP"}
	p443 := api.EndpointPort{Port: 443, Protocol: "TCP"}
	for _, tc := range []struct {
		name string
		in   []api.EndpointSubset
		want string
	}{
		{"one address per subset merges", []api.EndpointSubset{
			{Addresses: []api.EndpointAddress{addr("10.0.0.2", "b")}, Ports: []api.EndpointPort{p80}},
			{Addresses: []api.EndpointAddress{addr("10.0.0.10", "a")}, Ports: []api.EndpointPort{p80}},
		}, "10.0.0.10 10.0.0.2 :80"}, // byte order, as upstream
		{"not ready wins over ready for the same port", []api.EndpointSubset{
			{Addresses: []api.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []api.EndpointPort{p80}},
			{NotReadyAddresses: []api.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []api.EndpointPort{p80}},
		}, "!10.0.0.1 :80"},
		{"same IP, two pods, both kept", []api.EndpointSubset{
			{Addresses: []api.EndpointAddress{addr("10.0.0.1", "b"), addr("10.0.0.1", "a")}, Ports: []api.EndpointPort{p80}},
		}, "10.0.0.1 10.0.0.1 :80"},
		{"different port sets split", []api.EndpointSubset{
			{Addresses: []api.EndpointAddress{addr("10.0.0.1", "a")}, Ports: []api.EndpointPort{p80, p443}},
			{Addresses: []api.EndpointAddress{addr("10.0.0.2", "b")}, Ports: []api.EndpointPort{p80}},
		}, "10.0.0.1 :443 | 10.0.0.1 10.0.0.2 :80"},
		{"no ports keeps addresses", []api.EndpointSubset{
			{Addresses: []api.EndpointAddress{addr("10.0.0.1", "a")}},
		}, "10.0.0.1 "},
		{"nothing", nil, ""},
	} {
		got := summary(&api.Endpoints{Subsets: endpoint.RepackSubsets(tc.in)})
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
