package network_test

import (
	"sort"
	"strings"
	"testing"

	"kubeplay/core/network"
)

func TestResolve(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		name, from string
		want       string // sorted addresses, or "NXDOMAIN"
	}{
		{"web", "default", "10.96.100.1"},
		{"web.default", "default", "10.96.100.1"},
		{"web.default.svc", "apps", "10.96.100.1"},
		{"web.default.svc.cluster.local", "apps", "10.96.100.1"},
		{"web.default.svc.cluster.local.", "apps", "10.96.100.1"},
		{"WEB.Default.svc.cluster.local", "apps", "10.96.100.1"},
		{"web", "apps", "NXDOMAIN"}, // other namespace: the search path misses it
		{"kubernetes.default", "apps", "10.96.0.1"},
		{"kubernetes", "default", "10.96.0.1"},
		{"db", "apps", "10.244.2.2 10.244.2.3"}, // headless: one A per ready pod
		{"db-0.db", "apps", "10.244.2.2"},
		{"db-1.db.apps.svc.cluster.local", "default", "10.244.2.3"},
		{"db-2.db.apps.svc.cluster.local", "default", "NXDOMAIN"},
		{"10-244-2-3.db.apps.svc.cluster.local", "default", "NXDOMAIN"}, // has a hostname
		{"10-244-1-3.default.pod.cluster.local", "apps", "10.244.1.3"},
		{"10-1-2-3.default.pod", "default", "10.1.2.3"}, // pods insecure: any address
		{"10-1-2.default.pod", "default", "NXDOMAIN"},
		{"empty", "default", "10.96.100.2"}, // a ClusterIP answers without endpoints
		{"kind-worker", "default", "172.18.0.3"},
		{"kind-worker", "", "172.18.0.3"},
		{"web.default.svc.cluster.local", "", "NXDOMAIN"}, // a node's resolver knows no services
		{"10.0.0.7", "", "10.0.0.7"},
		{"localhost", "default", "127.0.0.1"},
		{"example.com", "default", "NXDOMAIN"},
		{"bad..name", "default", "NXDOMAIN"},
		{"", "default", "NXDOMAIN"},
	} {
		addrs, err := w.net.Resolve(tc.name, tc.from)
		got := "NXDOMAIN"
		if err == nil {
			sort.Strings(addrs)
			got = strings.Join(addrs, " ")
		} else if !network.IsNotFound(err) {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Resolve(%q from %q) = %s, want %s", tc.name, tc.from, got, tc.want)
		}
	}
}

func TestQueryRecords(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		name, qtype string
		want        string
	}{
		{"web.default.svc.cluster.local", "AAAA", "NOERROR"},
		{"nope.default.svc.cluster.local", "A", "NXDOMAIN"},
		{"default.svc.cluster.local", "A", "NOERROR"},
		{"_http._tcp.web.default.svc.cluster.local", "SRV", "NOERROR SRV 0 100 80 web.default.svc.cluster.local."},
		{"_mysql._tcp.db.apps.svc.cluster.local", "SRV", "NOERROR SRV 0 50 3306 db-0.db.apps.svc.cluster.local. SRV 0 50 3306 db-1.db.apps.svc.cluster.local."},
		{"_http._udp.web.default.svc.cluster.local", "SRV", "NXDOMAIN"},
		{"1.100.96.10.in-addr.arpa", "PTR", "NOERROR PTR web.default.svc.cluster.local."},
		{"2.2.244.10.in-addr.arpa", "PTR", "NOERROR PTR db-0.db.apps.svc.cluster.local."},
		{"9.9.9.9.in-addr.arpa", "PTR", "NXDOMAIN"},
	} {
		ans := w.net.Query(tc.name, tc.qtype)
		got := network.RcodeText(ans.Rcode)
		for _, r := range ans.Records {
			got += " " + r.Type + " " + r.Data
		}
		if got != tc.want {
			t.Errorf("Query(%s %s) = %s, want %s", tc.name, tc.qtype, got, tc.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	rc := network.PodResolvConf("ns")
	for _, tc := range []struct{ name, want string }{
		{"web", "web.ns.svc.cluster.local web.svc.cluster.local web.cluster.local web"},
		{"a.b.c.d.e", "a.b.c.d.e.ns.svc.cluster.local a.b.c.d.e.svc.cluster.local a.b.c.d.e.cluster.local a.b.c.d.e"},
		{"a.b.c.d.e.f", "a.b.c.d.e.f a.b.c.d.e.f.ns.svc.cluster.local a.b.c.d.e.f.svc.cluster.local a.b.c.d.e.f.cluster.local"},
		{"web.", "web"},
	} {
		if got := strings.Join(rc.Candidates(tc.name), " "); got != tc.want {
			t.Errorf("Candidates(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
	if got, want := rc.String(), "search ns.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n"; got != want {
		t.Errorf("resolv.conf = %q, want %q", got, want)
	}
}
