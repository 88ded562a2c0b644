package endpoint_test

import (
	"encoding/json"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
	"kubeplay/core/controller/endpoint"
	"kubeplay/core/sim"
)

type fixture struct {
	t  *testing.T
	c  *sim.Cluster
	cl client.Interface
}

func newFixture(t *testing.T) *fixture {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(endpoint.NewEndpointController(c.ControllerContext()))
	return &fixture{t: t, c: c, cl: c.Client("test")}
}

func (f *fixture) service(svc *api.Service) {
	f.t.Helper()
	if svc.Namespace == "" {
		svc.Namespace = "default"
	}
	if _, err := client.Create(f.cl, svc); err != nil {
		f.t.Fatal(err)
	}
	f.c.Settle()
}

func webService(name string, ports ...api.ServicePort) *api.Service {
	return &api.Service{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}},
		Spec:       api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: ports},
	}
}

type podOpt func(*api.Pod)

// readyAt is when test pods became ready, as a kubelet would record it.
var readyAt = api.NewTime(sim.DefaultStart.Add(time.Second))

func ready(p *api.Pod) {
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: readyAt})
}

func notReady(p *api.Pod) {
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: readyAt})
}

func namedPort(name string, port int32) podOpt {
	return func(p *api.Pod) {
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{Name: name, ContainerPort: port, Protocol: "TCP"})
	}
}

func hostname(h, sub string) podOpt {
	return func(p *api.Pod) { p.Spec.Hostname, p.Spec.Subdomain = h, sub }
}

// pod creates a pod labelled app=web on node-1 with ip ("" for none).
func (f *fixture) pod(name, ip string, opts ...podOpt) *api.Pod {
	f.t.Helper()
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
	for _, o := range opts {
		o(p)
	}
	status := p.Status
	created, err := client.Create(f.cl, p)
	if err != nil {
		f.t.Fatal(err)
	}
	created = created.DeepCopy()
	created.Status = status
	created.Status.Phase = api.PodRunning
	created.Status.PodIP = ip
	if ip != "" {
		created.Status.PodIPs = []api.PodIP{{IP: ip}}
	}
	out, err := client.UpdateStatus(f.cl, created)
	if err != nil {
		f.t.Fatal(err)
	}
	f.c.Settle()
	return out
}

func (f *fixture) endpoints(name string) *api.Endpoints {
	f.t.Helper()
	ep, err := client.Get[*api.Endpoints](f.cl, "default", name)
	if err != nil {
		f.t.Fatalf("endpoints %s: %v", name, err)
	}
	return ep
}

// summary prints subsets compactly: ready IPs, "!"-prefixed not-ready
// IPs, then ports as name:port.
func summary(ep *api.Endpoints) string {
	out := ""
	for i, s := range ep.Subsets {
		if i > 0 {
			out += " | "
		}
		for _, a := range s.Addresses {
			out += a.IP
			if a.Hostname != "" {
				out += "(" + a.Hostname + ")"
			}
			out += " "
		}
		for _, a := range s.NotReadyAddresses {
			out += "!" + a.IP + " "
		}
		for j, p := range s.Ports {
			if j > 0 {
				out += ","
			}
			out += p.Name + ":" + itoa(int(p.Port))
		}
	}
	return out
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func port(name string, p int32, target intstr.IntOrString) api.ServicePort {
	return api.ServicePort{Name: name, Port: p, TargetPort: target, Protocol: "TCP"}
}

func TestEndpointsListReadyAndNotReadyPods(t *testing.T) {
	f := newFixture(t)
	f.service(webService("web", port("", 80, intstr.FromInt(8080))))
	f.pod("a", "10.244.1.5", ready)
	f.pod("b", "10.244.1.12", ready)
	f.pod("c", "10.244.1.7", notReady)
	f.pod("no-ip", "", ready)
	ep := f.endpoints("web")
	if got, want := summary(ep), "10.244.1.12 10.244.1.5 !10.244.1.7 :8080"; got != want {
		t.Errorf("subsets = %q, want %q", got, want)
	}
	a := ep.Subsets[0].Addresses[1]
	if a.TargetRef == nil || a.TargetRef.Kind != "Pod" || a.TargetRef.Name != "a" || a.TargetRef.Namespace != "default" || a.TargetRef.UID == "" {
		t.Errorf("targetRef = %+v", a.TargetRef)
	}
	if a.NodeName == nil || *a.NodeName != "node-1" {
		t.Errorf("nodeName = %v", a.NodeName)
	}
	if ep.Labels["app"] != "web" {
		t.Errorf("labels = %v, want the service's", ep.Labels)
	}
	if _, ok := ep.Annotations["endpoints.kubernetes.io/last-change-trigger-time"]; !ok {
		t.Errorf("annotations = %v, want last-change-trigger-time", ep.Annotations)
	}
}

func TestEndpointsRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		svc  *api.Service
		pods func(f *fixture)
		want string
	}{
		{
			name: "named targetPort resolves per pod",
			svc:  webService("web", port("http", 80, intstr.FromString("web"))),
			pods: func(f *fixture) {
				f.pod("a", "10.244.1.2", ready, namedPort("web", 8080))
				f.pod("b", "10.244.1.3", ready, namedPort("web", 9090))
				f.pod("c", "10.244.1.4", ready) // no such port: left out
			},
			want: "10.244.1.3 http:9090 | 10.244.1.2 http:8080",
		},
		{
			name: "publishNotReadyAddresses lists every pod as ready",
			svc: func() *api.Service {
				s := webService("web", port("", 80, intstr.FromInt(80)))
				s.Spec.PublishNotReadyAddresses = true
				return s
			}(),
			pods: func(f *fixture) {
				f.pod("a", "10.244.1.2", notReady)
				f.pod("b", "10.244.1.3")
			},
			want: "10.244.1.2 10.244.1.3 :80",
		},
		{
			name: "hostname only for pods whose subdomain is the service",
			svc: func() *api.Service {
				s := webService("web", port("", 80, intstr.FromInt(80)))
				s.Spec.ClusterIP = "None"
				return s
			}(),
			pods: func(f *fixture) {
				f.pod("web-0", "10.244.1.2", ready, hostname("web-0", "web"))
				f.pod("other-0", "10.244.1.3", ready, hostname("other-0", "other"))
			},
			want: "10.244.1.2(web-0) 10.244.1.3 :80",
		},
		{
			name: "headless service without ports still lists addresses",
			svc: func() *api.Service {
				s := webService("web")
				s.Spec.ClusterIP = "None"
				return s
			}(),
			pods: func(f *fixture) {
				f.pod("a", "10.244.1.2", ready)
			},
			want: "10.244.1.2 ",
		},
		{
			name: "two ports share one subset",
			svc:  webService("web", port("http", 80, intstr.FromInt(8080)), port("metrics", 9100, intstr.FromInt(9100))),
			pods: func(f *fixture) {
				f.pod("a", "10.244.1.2", ready)
			},
			want: "10.244.1.2 metrics:9100,http:8080",
		},
		{
			name: "finished pods are left out",
			svc:  webService("web", port("", 80, intstr.FromInt(80))),
			pods: func(f *fixture) {
				p := f.pod("done", "10.244.1.9", ready)
				p = p.DeepCopy()
				p.Status.Phase = api.PodSucceeded
				p.Status.Conditions[0].Status = api.ConditionFalse
				if _, err := client.UpdateStatus(f.cl, p); err != nil {
					f.t.Fatal(err)
				}
				f.c.Settle()
			},
			want: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.service(tc.svc)
			tc.pods(f)
			if got := summary(f.endpoints("web")); got != tc.want {
				t.Errorf("subsets = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestHeadlessLabel(t *testing.T) {
	f := newFixture(t)
	s := webService("web", port("", 80, intstr.FromInt(80)))
	s.Spec.ClusterIP = "None"
	f.service(s)
	ep := f.endpoints("web")
	if v, ok := ep.Labels["service.kubernetes.io/headless"]; !ok || v != "" {
		t.Errorf("labels = %v, want service.kubernetes.io/headless", ep.Labels)
	}
}

func TestTerminatingPodLeaves(t *testing.T) {
	f := newFixture(t)
	f.service(webService("web", port("", 80, intstr.FromInt(80))))
	f.pod("a", "10.244.1.2", ready)
	f.pod("b", "10.244.1.3", ready)
	if err := client.Delete[*api.Pod](f.cl, "default", "a", api.DeleteOptions{GracePeriodSeconds: api.Int64(30)}); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	if got, want := summary(f.endpoints("web")), "10.244.1.3 :80"; got != want {
		t.Errorf("after deleting a: %q, want %q", got, want)
	}
}

func TestPodChangesFollow(t *testing.T) {
	f := newFixture(t)
	f.service(webService("web", port("", 80, intstr.FromInt(80))))
	p := f.pod("a", "10.244.1.2", notReady)
	if got, want := summary(f.endpoints("web")), "!10.244.1.2 :80"; got != want {
		t.Fatalf("not ready: %q, want %q", got, want)
	}
	p = p.DeepCopy()
	p.Status.Conditions[0].Status = api.ConditionTrue
	p.Status.Conditions[0].LastTransitionTime = api.NewTime(f.c.Now().Add(5 * time.Second))
	if _, err := client.UpdateStatus(f.cl, p); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	ep := f.endpoints("web")
	if got, want := summary(ep), "10.244.1.2 :80"; got != want {
		t.Fatalf("ready: %q, want %q", got, want)
	}
	if got, want := ep.Annotations["endpoints.kubernetes.io/last-change-trigger-time"], p.Status.Conditions[0].LastTransitionTime.UTC().Format(time.RFC3339); got != want {
		t.Errorf("trigger time = %q, want the readiness change %q", got, want)
	}
	// Relabelled out of the selector: gone from the endpoints.
	cur, _ := client.Get[*api.Pod](f.cl, "default", "a")
	cur = cur.DeepCopy()
	cur.Labels = map[string]string{"app": "other"}
	if _, err := client.Update(f.cl, cur); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	if got := summary(f.endpoints("web")); got != "" {
		t.Errorf("relabelled: %q, want empty", got)
	}
}

func TestEndpointsDeletedWithService(t *testing.T) {
	f := newFixture(t)
	f.service(webService("web", port("", 80, intstr.FromInt(80))))
	f.endpoints("web")
	if err := client.Delete[*api.Service](f.cl, "default", "web", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	if _, err := client.Get[*api.Endpoints](f.cl, "default", "web"); err == nil {
		t.Error("endpoints still there after the service was deleted")
	}
}

func TestSelectorlessServiceIsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.service(&api.Service{ObjectMeta: api.ObjectMeta{Name: "manual"}, Spec: api.ServiceSpec{Ports: []api.ServicePort{port("", 80, intstr.FromInt(80))}}})
	if _, err := client.Get[*api.Endpoints](f.cl, "default", "manual"); err == nil {
		t.Error("controller created endpoints for a service without selector")
	}
}

func TestDeletedEndpointsComeBack(t *testing.T) {
	f := newFixture(t)
	f.service(webService("web", port("", 80, intstr.FromInt(80))))
	f.pod("a", "10.244.1.2", ready)
	if err := client.Delete[*api.Endpoints](f.cl, "default", "web", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.c.Settle()
	if got, want := summary(f.endpoints("web")), "10.244.1.2 :80"; got != want {
		t.Errorf("recreated: %q, want %q", got, want)
	}
}
