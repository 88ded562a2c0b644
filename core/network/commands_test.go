package network_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/network"
	"kubeplay/core/shell"
)

// run runs a command line in a shell with the network tools of src and
// returns what it printed (stdout then stderr) and its status.
func (w *world) run(src network.Source, style network.NslookupStyle, line string) (string, int) {
	sh := shell.New(nil)
	sh.Now = w.c.Now
	w.net.RegisterTools(sh, src, style)
	out, code := sh.Run(line, "")
	return out, code
}

func pod() network.Source { return network.PodSource("default", "10.244.1.9") }

func TestCurl(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		line, want string
		code       int
	}{
		{"curl -s web", "hello from 10.244.1.", 0}, // prefix: either ready pod
		{"curl -s web.default.svc.cluster.local/info", "hello from 10.244.1.", 0},
		{"curl -s http://10.244.1.4:8080/x", "hello from 10.244.1.4:8080 /x\n", 0},
		{"curl -s -o /dev/null -w '%{http_code}' web/missing", "404", 0},
		{"curl -s -w '%{http_code}\\n' -o /dev/null nope", "000\n", 6},
		{"curl nope", "curl: (6) Could not resolve host: nope\n", 6},
		{"curl -s nope", "", 6},
		{"curl -sS nope", "curl: (6) Could not resolve host: nope\n", 6},
		{"curl empty", "curl: (7) Failed to connect to empty port 80 after 0 ms: Couldn't connect to server\n", 7},
		{"curl 10.244.1.2:81", "curl: (7) Failed to connect to 10.244.1.2 port 81 after 0 ms: Couldn't connect to server\n", 7},
		{"curl 10.244.9.9", "curl: (7) Failed to connect to 10.244.9.9 port 80 after 3000 ms: Couldn't connect to server\n", 7},
		{"curl -m 5 web:81", "curl: (28) Connection timed out after 5001 milliseconds\n", 28},
		{"curl --max-time 2.5 192.168.1.1", "curl: (28) Connection timed out after 2501 milliseconds\n", 28},
		{"curl 192.168.1.1", "curl: (28) Failed to connect to 192.168.1.1 port 80 after 127000 ms: Couldn't connect to server\n", 28},
		{"curl -f -s -S web/missing", "curl: (22) The requested URL returned error: 404\n", 22},
		{"curl -I 10.244.1.4:8080", "HTTP/1.1 200 OK\r\nServer: nginx/1.27.3\r\nContent-Type: text/plain\r\nContent-Length: 29\r\n\r\n", 0},
		{"curl -si 10.244.1.4:8080/missing", "HTTP/1.1 404 Not Found\r\nServer: nginx/1.27.3\r\nContent-Type: text/html\r\nContent-Length: 17\r\n\r\n<html>404</html>\n", 0},
		{"curl 172.18.0.3:10080/info", "hello from 10.244.2.9:80 /info\n", 0},
		{"curl", "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2},
		{"curl --bogus web", "curl: option --bogus: is unknown\ncurl: try 'curl --help' for more information\n", 2},
		{"curl --max-time=5 web", "curl: option --max-time=5: is unknown\ncurl: try 'curl --help' for more information\n", 2},
		{"curl -m abc web", "curl: option --max-time: expected a proper numerical parameter\ncurl: try 'curl --help' for more information\n", 2},
		{"curl http://web:99999", "curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535\n", 3},
		{"curl ftp://web", "curl: (1) Protocol \"ftp\" not supported\n", 1},
		{"curl -s https://10.244.1.4:8080", "", 60},
		{"curl -s https://kubernetes", "", 7}, // no endpoints in a bare cluster
		{"curl -sk https://10.244.1.4:8080", "hello from 10.244.1.4:8080 /\n", 0},
	} {
		got, code := w.run(pod(), network.NslookupBusybox, tc.line)
		if strings.HasSuffix(tc.want, "10.244.1.") {
			if !strings.HasPrefix(got, tc.want) || code != tc.code {
				t.Errorf("%s:\n got %q (%d)\nwant prefix %q (%d)", tc.line, got, code, tc.want, tc.code)
			}
			continue
		}
		if got != tc.want || code != tc.code {
			t.Errorf("%s:\n got %q (%d)\nwant %q (%d)", tc.line, got, code, tc.want, tc.code)
		}
	}
}

func TestCurlSendsWhatItIsTold(t *testing.T) {
	w := standard(t)
	out, code := w.run(pod(), network.NslookupBusybox, `curl -s -X DELETE localhost:8080/apis -d '{"kind":"DeleteOptions"}' -H "Content-Type: application/json"`)
	// In a pod, localhost is the pod itself, which does not listen on 8080.
	if code != 7 || out != "" {
		t.Errorf("curl to the pod's own closed port: %q (%d)", out, code)
	}
	if w.last == nil || w.last.IP != "10.244.1.9" || w.last.Method != "DELETE" || w.last.Body != `{"kind":"DeleteOptions"}` {
		t.Fatalf("request = %+v", w.last)
	}
	if ct, _ := network.Get(w.last.Header, "Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	// From a node, localhost is left to the backend (kubectl proxy lives there).
	w.run(network.NodeSource("172.18.0.2"), network.NslookupBind, "curl -s localhost:8001/api")
	if w.last.IP != "127.0.0.1" || w.last.Port != 8001 || w.last.Path != "/api" || w.last.Host != "localhost:8001" {
		t.Errorf("request from the node = %+v", w.last)
	}
}

func TestCurlVerbose(t *testing.T) {
	w := standard(t)
	got, _ := w.run(pod(), network.NslookupBusybox, "curl -sv 10.244.1.4:8080/x -o /dev/null")
	want := "*   Trying 10.244.1.4:8080...\n" +
		"* Connected to 10.244.1.4 (10.244.1.4) port 8080\n" +
		"* using HTTP/1.x\n" +
		"> GET /x HTTP/1.1\r\n" +
		"> Host: 10.244.1.4:8080\r\n" +
		"> User-Agent: curl/8.11.1\r\n" +
		"> Accept: */*\r\n" +
		"> \r\n" +
		"* Request completely sent off\n" +
		"< HTTP/1.1 200 OK\r\n" +
		"< Server: nginx/1.27.3\r\n" +
		"< Content-Type: text/plain\r\n" +
		"< Content-Length: 30\r\n" +
		"< \r\n" +
		"* Connection #0 to host 10.244.1.4 left intact\n"
	if got != want {
		t.Errorf("curl -v:\n got %q\nwant %q", got, want)
	}
}

// A connection that times out lets its virtual time pass.
func TestCurlTimeoutSleeps(t *testing.T) {
	w := standard(t)
	var slept time.Duration
	src := pod()
	src.Sleep = func(d time.Duration) { slept += d }
	w.run(src, network.NslookupBusybox, "curl -m 3 web:81")
	if slept != 3*time.Second {
		t.Errorf("slept %v, want 3s", slept)
	}
}

func TestWget(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		line, want string
		code       int
	}{
		{"wget -qO- 10.244.1.4:8080/info", "hello from 10.244.1.4:8080 /info\n", 0},
		{"wget -q -O - http://10.244.1.4:8080/", "hello from 10.244.1.4:8080 /\n", 0},
		{"wget -qO- nope", "wget: bad address 'nope'\n", 1},
		{"wget -qO- empty", "wget: can't connect to remote host (10.96.100.2): Connection refused\n", 1},
		{"wget -qO- 10.244.1.4:8080/missing", "wget: server returned error: HTTP/1.1 404 Not Found\n", 1},
		{"wget -O- 10.244.1.4:8080/", "Connecting to 10.244.1.4 (10.244.1.4:8080)\nwriting to stdout\nhello from 10.244.1.4:8080 /\n-                    100% |********************************|    29  0:00:00 ETA\nwritten to stdout\n", 0},
		{"wget -q 10.244.1.4:8080/a.txt && cat a.txt", "hello from 10.244.1.4:8080 /a.txt\n", 0},
	} {
		got, code := w.run(pod(), network.NslookupBusybox, tc.line)
		if got != tc.want || code != tc.code {
			t.Errorf("%s:\n got %q (%d)\nwant %q (%d)", tc.line, got, code, tc.want, tc.code)
		}
	}
}

func TestNslookupBusybox(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct{ line, want string }{
		{"nslookup web.default.svc.cluster.local",
			"Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.100.1\n\n\n"},
		{"nslookup web",
			"Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n" +
				"Name:\tweb.default.svc.cluster.local\nAddress: 10.96.100.1\n\n" +
				"** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
				"** server can't find web.cluster.local: NXDOMAIN\n\n" +
				"\n" +
				"** server can't find web.svc.cluster.local: NXDOMAIN\n\n" +
				"** server can't find web.cluster.local: NXDOMAIN\n\n"},
		// A dot in the name: no search, as busybox does.
		{"nslookup kubernetes.default",
			"Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find kubernetes.default: NXDOMAIN\n\n** server can't find kubernetes.default: NXDOMAIN\n\n"},
		{"nslookup 10.96.100.1",
			"Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n1.100.96.10.in-addr.arpa\tname = web.default.svc.cluster.local\n\n"},
		{"nslookup web 10.0.0.99", ";; connection timed out; no servers could be reached\n\n"},
	} {
		got, _ := w.run(pod(), network.NslookupBusybox, tc.line)
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.line, got, tc.want)
		}
	}
}

func TestNslookupBind(t *testing.T) {
	w := standard(t)
	for _, tc := range []struct {
		line, want string
		code       int
	}{
		{"nslookup web", "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.100.1\n\n", 0},
		{"nslookup kubernetes.default", "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n", 0},
		{"nslookup nope", "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nope: NXDOMAIN\n\n", 1},
		{"nslookup 10.96.100.1", "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n1.100.96.10.in-addr.arpa\tname = web.default.svc.cluster.local.\n\n", 0},
	} {
		got, code := w.run(pod(), network.NslookupBind, tc.line)
		if got != tc.want || code != tc.code {
			t.Errorf("%s:\n got %q (%d)\nwant %q (%d)", tc.line, got, code, tc.want, tc.code)
		}
	}
}

func TestDig(t *testing.T) {
	w := standard(t)
	node := network.NodeSource("172.18.0.2")
	got, code := w.run(node, network.NslookupBind, "dig -t A db.apps.svc.cluster.local @10.96.0.10 +short | sort")
	if got != "10.244.2.2\n10.244.2.3\n" || code != 0 {
		t.Errorf("dig +short headless: %q (%d)", got, code)
	}
	got, _ = w.run(node, network.NslookupBind, "dig -t A db-0.db.apps.svc.cluster.local @10.96.0.10 +short")
	if got != "10.244.2.2\n" {
		t.Errorf("dig +short pod name: %q", got)
	}
	got, _ = w.run(node, network.NslookupBind, "dig +short -x 10.96.100.1 @10.96.0.10")
	if got != "web.default.svc.cluster.local.\n" {
		t.Errorf("dig -x: %q", got)
	}
	got, _ = w.run(network.PodSource("default", "10.244.1.9"), network.NslookupBind, "dig web.default.svc.cluster.local")
	lines := strings.Split(got, "\n")
	want := []string{
		"",
		"; <<>> DiG 9.18.33-1~deb12u2-Debian <<>> web.default.svc.cluster.local",
		";; global options: +cmd",
		";; Got answer:",
		"", // header with a random id, checked below
		";; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1",
		";; WARNING: recursion requested but not available",
		"",
		";; OPT PSEUDOSECTION:",
		"; EDNS: version: 0, flags:; udp: 1232",
		";; QUESTION SECTION:",
		";web.default.svc.cluster.local.\tIN\tA",
		"",
		";; ANSWER SECTION:",
		"web.default.svc.cluster.local. 30 IN\tA\t10.96.100.1",
		"",
		";; Query time: 0 msec",
		";; SERVER: 10.96.0.10#53(10.96.0.10) (UDP)",
		";; WHEN: Sun Nov 22 11:29:00 UTC 2026",
		";; MSG SIZE  rcvd: 74",
		"",
		"",
	}
	if len(lines) != len(want) {
		t.Fatalf("dig output:\n%s", got)
	}
	for i := range want {
		if i == 4 {
			if !strings.HasPrefix(lines[i], ";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: ") {
				t.Errorf("line %d = %q", i, lines[i])
			}
			continue
		}
		if lines[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i, lines[i], want[i])
		}
	}
	got, _ = w.run(node, network.NslookupBind, "dig nope.default.svc.cluster.local @10.96.0.10 +noall +authority")
	if want := "cluster.local.\t\t30\tIN\tSOA\tns.dns.cluster.local. hostmaster.cluster.local. 1795346940 7200 1800 86400 30\n\n"; got != want {
		t.Errorf("dig NXDOMAIN authority:\n got %q\nwant %q", got, want)
	}
	got, code = w.run(node, network.NslookupBind, "dig +short web @10.1.1.1")
	if code != 9 || !strings.Contains(got, ";; communications error to 10.1.1.1#53: timed out\n") {
		t.Errorf("dig to a dead server: %q (%d)", got, code)
	}
}
