package util

import (
	"slices"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/clock"
)

func testPod(mut func(*api.Pod)) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "uid-1", ResourceVersion: "1", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Ports: []api.ContainerPort{
			{Name: "http", ContainerPort: 8080, Protocol: "TCP"}, {Name: "dns", ContainerPort: 53, Protocol: "UDP"},
		}}}},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.244.0.5", PodIPs: []api.PodIP{{IP: "10.244.0.5"}},
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
	}
	if mut != nil {
		mut(p)
	}
	return p
}

func TestShouldPodBeInEndpoints(t *testing.T) {
	now := api.NewTime(time.Date(2026, 11, 22, 11, 29, 0, 0, time.UTC))
	for _, tc := range []struct {
		name        string
		pod         *api.Pod
		terminating bool
		want        bool
	}{
		{"running with an IP", testPod(nil), false, true},
		{"no IP yet", testPod(func(p *api.Pod) { p.Status.PodIP, p.Status.PodIPs = "", nil }), false, false},
		{"succeeded", testPod(func(p *api.Pod) { p.Status.Phase = api.PodSucceeded }), false, false},
		{"failed", testPod(func(p *api.Pod) { p.Status.Phase = api.PodFailed }), true, false},
		{"terminating", testPod(func(p *api.Pod) { p.DeletionTimestamp = &now }), false, false},
		{"terminating, included", testPod(func(p *api.Pod) { p.DeletionTimestamp = &now }), true, true},
		{"not ready still counts", testPod(func(p *api.Pod) { p.Status.Conditions = nil }), false, true},
	} {
		if got := ShouldPodBeInEndpoints(tc.pod, tc.terminating); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFindPort(t *testing.T) {
	always := api.ContainerRestartPolicy(api.ContainerRestartPolicyAlways)
	sidecar := testPod(func(p *api.Pod) {
		p.Spec.InitContainers = []api.Container{{Name: "proxy", RestartPolicy: &always, Ports: []api.ContainerPort{{Name: "proxy", ContainerPort: 15001, Protocol: "TCP"}}}}
	})
	for _, tc := range []struct {
		name   string
		pod    *api.Pod
		target intstr.IntOrString
		proto  api.Protocol
		want   int
	}{
		{"number", testPod(nil), intstr.FromInt(9000), "TCP", 9000},
		{"name", testPod(nil), intstr.FromString("http"), "TCP", 8080},
		{"name, other protocol", testPod(nil), intstr.FromString("http"), "UDP", -1},
		{"udp name", testPod(nil), intstr.FromString("dns"), "UDP", 53},
		{"unknown name", testPod(nil), intstr.FromString("grpc"), "TCP", -1},
		{"sidecar port", sidecar, intstr.FromString("proxy"), "TCP", 15001},
	} {
		got, err := FindPort(tc.pod, &api.ServicePort{TargetPort: tc.target, Protocol: tc.proto})
		if err != nil {
			got = -1
			if want := "no suitable port for manifest: uid-1"; err.Error() != want {
				t.Errorf("%s: error %q, want %q", tc.name, err, want)
			}
		}
		if got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPodEndpointsChanged(t *testing.T) {
	base := testPod(nil)
	now := api.NewTime(time.Date(2026, 11, 22, 11, 29, 0, 0, time.UTC))
	for _, tc := range []struct {
		name             string
		cur              *api.Pod
		podChanged, lbls bool
	}{
		{"annotation only", testPod(func(p *api.Pod) { p.Annotations = map[string]string{"a": "b"} }), false, false},
		{"not ready", testPod(func(p *api.Pod) { p.Status.Conditions[0].Status = api.ConditionFalse }), true, false},
		{"new IP", testPod(func(p *api.Pod) { p.Status.PodIPs = []api.PodIP{{IP: "10.244.0.6"}} }), true, false},
		{"deleting", testPod(func(p *api.Pod) { p.DeletionTimestamp = &now }), true, false},
		{"relabelled", testPod(func(p *api.Pod) { p.Labels = map[string]string{"app": "db"} }), false, true},
		{"new hostname", testPod(func(p *api.Pod) { p.Spec.Hostname = "web-0" }), false, true},
	} {
		pc, lc := PodEndpointsChanged(base, tc.cur)
		if pc != tc.podChanged || lc != tc.lbls {
			t.Errorf("%s: (%v, %v), want (%v, %v)", tc.name, pc, lc, tc.podChanged, tc.lbls)
		}
	}
}

// The services to update are those the pod left or joined when only its
// labels changed, all of both when the pod changed too, in key order. An
// empty selector selects every pod ("all").
func TestGetServicesToUpdateOnPodChange(t *testing.T) {
	srv := apiserver.New(clock.New(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)), clock.NewRand(1))
	cl := client.NewLocal(srv, "test")
	if _, err := client.Create(cl, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
		t.Fatal(err)
	}
	for name, sel := range map[string]map[string]string{
		"web": {"app": "web"}, "front": {"tier": "front"}, "db": {"app": "db"}, "all": {}, "cache": {"app": "cache"},
	} {
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.ServiceSpec{Selector: sel, Ports: []api.ServicePort{{Port: 80}}}}
		if _, err := client.Create(cl, svc); err != nil {
			t.Fatal(err)
		}
	}
	services := client.InformerFor[*api.Service](client.NewFactory(cl))
	pod := func(rv string, labels map[string]string, ip string) *api.Pod {
		return testPod(func(p *api.Pod) {
			p.ResourceVersion, p.Labels, p.Status.PodIP = rv, labels, ip
		})
	}
	tests := []struct {
		name     string
		old, cur *api.Pod
		want     []string
	}{
		{"same version", pod("1", map[string]string{"app": "web"}, "10.0.0.1"), pod("1", map[string]string{"app": "db"}, "10.0.0.1"), nil},
		{"nothing relevant", pod("1", map[string]string{"app": "web"}, "10.0.0.1"), pod("2", map[string]string{"app": "web"}, "10.0.0.1"), nil},
		{"labels: left and joined", pod("1", map[string]string{"app": "web"}, "10.0.0.1"), pod("2", map[string]string{"app": "db", "tier": "front"}, "10.0.0.1"),
			[]string{"default/db", "default/front", "default/web"}},
		{"labels and IP: both sets", pod("1", map[string]string{"app": "web", "tier": "front"}, "10.0.0.1"), pod("2", map[string]string{"app": "cache", "tier": "front"}, "10.0.0.2"),
			[]string{"default/all", "default/cache", "default/front", "default/web"}},
		{"IP only: the services that select it", pod("1", map[string]string{"app": "web"}, "10.0.0.1"), pod("2", map[string]string{"app": "web"}, "10.0.0.2"),
			[]string{"default/all", "default/web"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GetServicesToUpdateOnPodChange(services, tt.old, tt.cur); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if got := GetPodServiceMemberships(services, pod("1", map[string]string{"app": "web", "tier": "front"}, "")); !slices.Equal(got, []string{"default/all", "default/front", "default/web"}) {
		t.Errorf("memberships %v", got)
	}
}
