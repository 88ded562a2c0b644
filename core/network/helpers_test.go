package network_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
	"kubeplay/core/controller/endpoint"
	"kubeplay/core/network"
	"kubeplay/core/sim"
)

// world is a bare cluster with the Endpoints controller and a network
// whose backend answers "<pod name>:<port> <path>" for listening pods.
type world struct {
	t      testing.TB
	c      *sim.Cluster
	cl     client.Interface
	net    *network.Network
	listen map[string]bool // "ip:port" that accept connections
	last   *network.Request
}

func newWorld(t testing.TB) *world {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(endpoint.NewEndpointController(c.ControllerContext()))
	w := &world{t: t, c: c, cl: c.Client("test"), listen: map[string]bool{}}
	w.net = network.New(c.ControllerContext(), network.BackendFunc(w.serve))
	return w
}

func (w *world) serve(req *network.Request) (*network.Response, error) {
	w.last = req
	key := req.IP + ":" + itoa(req.Port)
	if !w.listen[key] {
		return nil, network.ErrConnectionRefused
	}
	if req.Path == "/slow" {
		return nil, network.ErrTimeout
	}
	body := "hello from " + key + " " + req.Path + "\n"
	if req.Path == "/missing" {
		return &network.Response{Status: 404, Header: []network.HeaderField{{Name: "Server", Value: "nginx/1.27.3"}, {Name: "Content-Type", Value: "text/html"}}, Body: "<html>404</html>\n"}, nil
	}
	return &network.Response{Status: 200, Header: []network.HeaderField{{Name: "Server", Value: "nginx/1.27.3"}, {Name: "Content-Type", Value: "text/plain"}}, Body: body}, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for i > 0 {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}

func (w *world) node(name, ip string) {
	w.t.Helper()
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
	created, err := client.Create(w.cl, n)
	if err != nil {
		w.t.Fatal(err)
	}
	created = created.DeepCopy()
	created.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: ip}, {Type: "Hostname", Address: name}}
	if _, err := client.UpdateStatus(w.cl, created); err != nil {
		w.t.Fatal(err)
	}
	w.c.Settle()
}

type podSpec struct {
	ns, name, node, ip string
	labels             map[string]string
	ready              bool
	hostname, sub      string
	ports              []api.ContainerPort
}

func (w *world) pod(s podSpec) {
	w.t.Helper()
	if s.ns == "" {
		s.ns = "default"
	}
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: s.name, Namespace: s.ns, Labels: s.labels},
		Spec: api.PodSpec{NodeName: s.node, Hostname: s.hostname, Subdomain: s.sub,
			Containers: []api.Container{{Name: "c", Image: "nginx", Ports: s.ports}}},
	}
	created, err := client.Create(w.cl, p)
	if err != nil {
		w.t.Fatal(err)
	}
	created = created.DeepCopy()
	created.Status.Phase = api.PodRunning
	created.Status.PodIP = s.ip
	created.Status.PodIPs = []api.PodIP{{IP: s.ip}}
	st := api.ConditionFalse
	if s.ready {
		st = api.ConditionTrue
	}
	created.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: api.NewTime(sim.DefaultStart.Add(time.Second))}}
	if _, err := client.UpdateStatus(w.cl, created); err != nil {
		w.t.Fatal(err)
	}
	w.c.Settle()
}

func (w *world) service(s *api.Service) *api.Service {
	w.t.Helper()
	if s.Namespace == "" {
		s.Namespace = "default"
	}
	out, err := client.Create(w.cl, s)
	if err != nil {
		w.t.Fatal(err)
	}
	w.c.Settle()
	return out
}

func svc(name, clusterIP string, selector map[string]string, ports ...api.ServicePort) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ServiceSpec{ClusterIP: clusterIP, Selector: selector, Ports: ports}}
}

func tcp(name string, port int32, target int) api.ServicePort {
	return api.ServicePort{Name: name, Port: port, TargetPort: intstr.FromInt(target), Protocol: "TCP"}
}

func (w *world) namespace(name string) {
	w.t.Helper()
	if _, err := client.Create(w.cl, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}); err != nil {
		w.t.Fatal(err)
	}
	w.c.Settle()
}

// standard builds the cluster most tests use:
//
//	nodes kind-control-plane 172.18.0.2, kind-worker 172.18.0.3
//	web (ClusterIP 10.96.100.1:80→8080) over web-1 10.244.1.2, web-2 10.244.1.3 (ready), web-3 10.244.1.4 (not ready)
//	empty (10.96.100.2:80) selecting nothing
//	db (headless) in ns apps over db-0 10.244.2.2 and db-1 10.244.2.3 (hostname db-N, subdomain db)
//	nodeport web-np (10.96.100.3:80, nodePort 30080) over the web pods
//	proxy pod 10.244.2.9 on kind-worker with hostPort 10080→80
func standard(t testing.TB) *world {
	w := newWorld(t)
	w.node("kind-control-plane", "172.18.0.2")
	w.node("kind-worker", "172.18.0.3")
	w.namespace("apps")
	web := map[string]string{"app": "web"}
	w.service(svc("web", "10.96.100.1", web, tcp("http", 80, 8080)))
	w.service(svc("empty", "10.96.100.2", map[string]string{"app": "none"}, tcp("", 80, 80)))
	np := svc("web-np", "10.96.100.3", web, api.ServicePort{Name: "http", Port: 80, TargetPort: intstr.FromInt(8080), Protocol: "TCP", NodePort: 30080})
	np.Spec.Type = api.ServiceTypeNodePort
	w.service(np)
	db := svc("db", "None", map[string]string{"app": "db"}, tcp("mysql", 3306, 3306))
	db.Namespace = "apps"
	w.service(db)
	w.pod(podSpec{name: "web-1", node: "kind-worker", ip: "10.244.1.2", labels: web, ready: true})
	w.pod(podSpec{name: "web-2", node: "kind-worker", ip: "10.244.1.3", labels: web, ready: true})
	w.pod(podSpec{name: "web-3", node: "kind-worker", ip: "10.244.1.4", labels: web})
	dbl := map[string]string{"app": "db"}
	w.pod(podSpec{ns: "apps", name: "db-0", node: "kind-worker", ip: "10.244.2.2", labels: dbl, ready: true, hostname: "db-0", sub: "db"})
	w.pod(podSpec{ns: "apps", name: "db-1", node: "kind-control-plane", ip: "10.244.2.3", labels: dbl, ready: true, hostname: "db-1", sub: "db"})
	w.pod(podSpec{name: "proxy", node: "kind-worker", ip: "10.244.2.9", ready: true,
		ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 10080, Protocol: "TCP"}}})
	for _, l := range []string{"10.244.1.2:8080", "10.244.1.3:8080", "10.244.1.4:8080", "10.244.2.9:80", "10.244.2.2:3306"} {
		w.listen[l] = true
	}
	return w
}
