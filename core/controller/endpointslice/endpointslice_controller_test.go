package endpointslice_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
	"kubeplay/core/controller/endpointslice"
	"kubeplay/core/sim"
)

type fixture struct {
	t  *testing.T
	c  *sim.Cluster
	cl client.Interface
}

func newFixture(t *testing.T) *fixture {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(endpointslice.NewController(c.ControllerContext()))
	return &fixture{t: t, c: c, cl: c.Client("test")}
}

func (f *fixture) service(name, clusterIP string, ports ...api.ServicePort) *api.Service {
	f.t.Helper()
	s, err := client.Create(f.cl, &api.Service{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       api.ServiceSpec{ClusterIP: clusterIP, Selector: map[string]string{"app": "web"}, Ports: ports},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	f.c.Settle()
	return s
}

func (f *fixture) pod(name, ip string, ready bool) *api.Pod {
	f.t.Helper()
	p, err := client.Create(f.cl, &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{NodeName: "node-1", Hostname: name, Subdomain: "web",
			Containers: []api.Container{{Name: "c", Image: "nginx", Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: "TCP"}}}}},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	p = p.DeepCopy()
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status = api.PodStatus{Phase: api.PodRunning, PodIP: ip, PodIPs: []api.PodIP{{IP: ip}},
		Conditions: []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: api.NewTime(sim.DefaultStart.Add(time.Second))}}}
	out, err := client.UpdateStatus(f.cl, p)
	if err != nil {
		f.t.Fatal(err)
	}
	f.c.Settle()
	return out
}

func (f *fixture) slices(svc string) []*api.EndpointSlice {
	return client.List[*api.EndpointSlice](f.cl, "default", func(o api.Object) bool {
		return o.GetObjectMeta().Labels[api.LabelServiceName] == svc
	})
}

// summary prints a slice's endpoints as "ip(ready,serving,terminating)" and its ports.
func summary(s *api.EndpointSlice) string {
	var parts []string
	for _, e := range s.Endpoints {
		b := func(p *bool) string {
			if p == nil {
				return "-"
			}
			if *p {
				return "T"
			}
			return "F"
		}
		parts = append(parts, fmt.Sprintf("%s(%s%s%s)", strings.Join(e.Addresses, ","), b(e.Conditions.Ready), b(e.Conditions.Serving), b(e.Conditions.Terminating)))
	}
	var ports []string
	for _, p := range s.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d", *p.Name, *p.Port))
	}
	return strings.Join(parts, " ") + " | " + strings.Join(ports, ",")
}

func TestSliceForService(t *testing.T) {
	f := newFixture(t)
	svc := f.service("web", "", api.ServicePort{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: "TCP"})
	// No pods yet: one placeholder slice.
	sl := f.slices("web")
	if len(sl) != 1 || len(sl[0].Endpoints) != 0 || len(sl[0].Ports) != 0 {
		t.Fatalf("placeholder: %d slices %+v", len(sl), sl)
	}
	placeholder := sl[0].Name
	f.pod("web-1", "10.244.1.2", true)
	f.pod("web-2", "10.244.1.3", false)
	sl = f.slices("web")
	if len(sl) != 1 {
		t.Fatalf("%d slices, want 1", len(sl))
	}
	s := sl[0]
	if got, want := summary(s), "10.244.1.2(TTF) 10.244.1.3(FFF) | http:8080"; got != want {
		t.Errorf("slice = %q, want %q", got, want)
	}
	if s.Name == placeholder || !strings.HasPrefix(s.Name, "web-") || len(s.Name) != len("web-")+5 {
		t.Errorf("name = %q, want web-<5 random characters>, not the placeholder %q", s.Name, placeholder)
	}
	if s.AddressType != "IPv4" || s.Labels[api.LabelManagedBy] != "endpointslice-controller.k8s.io" || s.Labels["app"] != "web" {
		t.Errorf("slice meta: %s %v", s.AddressType, s.Labels)
	}
	if ref := s.OwnerReferences; len(ref) != 1 || ref[0].Kind != "Service" || ref[0].UID != svc.UID || ref[0].Controller == nil || !*ref[0].Controller {
		t.Errorf("ownerReferences = %+v", ref)
	}
	e := s.Endpoints[0]
	if e.TargetRef == nil || e.TargetRef.Name != "web-1" || e.NodeName == nil || *e.NodeName != "node-1" || e.Hostname == nil || *e.Hostname != "web-1" {
		t.Errorf("endpoint = %+v", e)
	}
	// A terminating pod stays, serving but neither ready nor... ready.
	if err := client.Delete[*api.Pod](f.cl, "default", "web-1", api.DeleteOptions{GracePeriodSeconds: api.Int64(30)}); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	sl = f.slices("web")
	if len(sl) != 1 || summary(sl[0]) != "10.244.1.2(FTT) 10.244.1.3(FFF) | http:8080" || sl[0].Name != s.Name {
		t.Errorf("after deleting web-1: %d slices, %q", len(sl), summary(sl[0]))
	}
}

func TestSlicesSplitAtCapacity(t *testing.T) {
	f := newFixture(t)
	f.service("web", "", api.ServicePort{Name: "", Port: 80, TargetPort: intstr.FromInt(80), Protocol: "TCP"})
	for i := 0; i < 105; i++ {
		f.pod(fmt.Sprintf("p%03d", i), fmt.Sprintf("10.244.%d.%d", 1+i/200, 2+i%200), true)
	}
	sl := f.slices("web")
	total := 0
	for _, s := range sl {
		if len(s.Endpoints) > 100 {
			t.Errorf("%s has %d endpoints", s.Name, len(s.Endpoints))
		}
		total += len(s.Endpoints)
	}
	if len(sl) != 2 || total != 105 {
		t.Errorf("%d slices with %d endpoints, want 2 with 105", len(sl), total)
	}
}

func TestSelectorlessServiceGetsNoSlices(t *testing.T) {
	f := newFixture(t)
	if _, err := client.Create(f.cl, &api.Service{ObjectMeta: api.ObjectMeta{Name: "manual", Namespace: "default"},
		Spec: api.ServiceSpec{Ports: []api.ServicePort{{Port: 80, TargetPort: intstr.FromInt(80), Protocol: "TCP"}}}}); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	if n := len(f.slices("manual")); n != 0 {
		t.Errorf("%d slices for a service without selector", n)
	}
}
