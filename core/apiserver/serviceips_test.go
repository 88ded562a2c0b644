package apiserver

import (
	"slices"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
)

// A single-stack cluster gives every new service a policy and its family,
// as the service allocator does: SingleStack and IPv4, except a headless
// service without a selector, which asks for both families. An update
// keeps them; an ExternalName service has none.
func TestServiceIPFamilies(t *testing.T) {
	s := newTestServer(t)
	ports := []api.ServicePort{{Port: 80, TargetPort: intstr.FromInt(80)}}
	for _, tc := range []struct {
		name     string
		spec     api.ServiceSpec
		policy   string
		families []string
	}{
		{"clusterip", api.ServiceSpec{Selector: map[string]string{"app": "a"}, Ports: ports}, "SingleStack", []string{"IPv4"}},
		{"headless", api.ServiceSpec{ClusterIP: "None", Selector: map[string]string{"app": "a"}, Ports: ports}, "SingleStack", []string{"IPv4"}},
		{"selectorless", api.ServiceSpec{ClusterIP: "None", Ports: ports}, "RequireDualStack", []string{"IPv4", "IPv6"}},
		{"external", api.ServiceSpec{Type: api.ServiceTypeExternalName, ExternalName: "example.com"}, "", nil},
	} {
		obj, err := s.Create(s.res("services"), "default", &api.Service{ObjectMeta: api.ObjectMeta{Name: tc.name}, Spec: tc.spec}, CreateOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		svc := obj.(*api.Service)
		policy := ""
		if svc.Spec.IPFamilyPolicy != nil {
			policy = *svc.Spec.IPFamilyPolicy
		}
		if policy != tc.policy || !slices.Equal(svc.Spec.IPFamilies, tc.families) {
			t.Errorf("%s: policy %q families %v, want %q %v", tc.name, policy, svc.Spec.IPFamilies, tc.policy, tc.families)
		}
		if tc.name != "clusterip" {
			continue
		}
		// A PUT without the fields (and without its clusterIP) keeps them.
		upd := svc.DeepCopy()
		upd.Spec.IPFamilyPolicy, upd.Spec.IPFamilies = nil, nil
		upd.Spec.ClusterIP, upd.Spec.ClusterIPs = "", nil
		out, err := s.Update(s.res("services"), "default", upd, UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.(*api.Service); got.Spec.IPFamilyPolicy == nil || *got.Spec.IPFamilyPolicy != "SingleStack" || !slices.Equal(got.Spec.IPFamilies, []string{"IPv4"}) {
			t.Errorf("after update: %v %v", got.Spec.IPFamilyPolicy, got.Spec.IPFamilies)
		}
	}
}
