package network_test

import "testing"

func TestRoute(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		ip   string
		port int
		want string // "ip:port", or the error
	}{
		{"10.244.1.4", 8080, "10.244.1.4:8080"},     // a pod IP, ready or not
		{"10.244.1.2", 9999, "10.244.1.2:9999"},     // the pod decides whether it listens
		{"10.96.100.2", 80, "connection refused"},   // service without endpoints: REJECT
		{"10.96.100.1", 81, "connection timed out"}, // no rule for that port
		{"172.18.0.3", 30080, "web"},                // NodePort → a ready web pod
		{"172.18.0.2", 30080, "web"},                // from any node
		{"172.18.0.3", 10080, "10.244.2.9:80"},      // hostPort on the proxy's node
		{"172.18.0.2", 10080, "172.18.0.2:10080"},   // not on the other node
		{"172.18.0.2", 10250, "172.18.0.2:10250"},   // the node itself (kubelet)
		{"127.0.0.1", 8001, "127.0.0.1:8001"},
		{"10.244.9.9", 80, "no route to host"},
		{"192.168.7.7", 80, "connection timed out"},
		{"not-an-ip", 80, "connection timed out"},
		{"10.244.1.2", 0, "connection timed out"},
	} {
		ip, port, err := w.net.Route(tc.ip, tc.port)
		got := ip + ":" + itoa(port)
		if err != nil {
			got = err.Error()
		}
		if tc.want == "web" {
			if got != "10.244.1.2:8080" && got != "10.244.1.3:8080" {
				t.Errorf("Route(%s:%d) = %s, want a ready web pod", tc.ip, tc.port, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("Route(%s:%d) = %s, want %s", tc.ip, tc.port, got, tc.want)
		}
	}
}

// Connections to a ClusterIP spread over the ready endpoints only, and
// the same seed spreads them the same way.
func TestRouteSpreadsOverReadyEndpoints(t *testing.T) {
	count := func() map[string]int {
		w := standard(t)
		seen := map[string]int{}
		for i := 0; i < 200; i++ {
			ip, _, err := w.net.Route("10.96.100.1", 80)
			if err != nil {
				t.Fatal(err)
			}
			seen[ip]++
		}
		return seen
	}
	a, b := count(), count()
	if len(a) != 2 || a["10.244.1.4"] != 0 || a["10.244.1.2"] < 60 || a["10.244.1.3"] < 60 {
		t.Errorf("spread = %v, want both ready pods about evenly, never the unready one", a)
	}
	if a["10.244.1.2"] != b["10.244.1.2"] {
		t.Errorf("same seed, different spread: %v vs %v", a, b)
	}
}

func TestNodePortLocalPolicy(t *testing.T) {
	w := standard(t)
	np := svc("local", "10.96.100.9", map[string]string{"app": "db"}, tcp("", 3306, 3306))
	np.Namespace = "apps"
	np.Spec.Type = "NodePort"
	np.Spec.Ports[0].NodePort = 30306
	np.Spec.ExternalTrafficPolicy = "Local"
	w.service(np)
	if ip, _, err := w.net.Route("172.18.0.3", 30306); err != nil || ip != "10.244.2.2" {
		t.Errorf("kind-worker:30306 = %s %v, want its local db-0", ip, err)
	}
	if ip, _, err := w.net.Route("172.18.0.2", 30306); err != nil || ip != "10.244.2.3" {
		t.Errorf("kind-control-plane:30306 = %s %v, want its local db-1", ip, err)
	}
}
