package sim

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/network"
	"kubeplay/core/shell"
)

// The cluster network's last hop: a routed request reaches the program
// listening at its address, through the kubelet of the node that has it.
// `kubectl proxy` listens on the terminal's loopback and hands requests to
// the API server.

type clusterBackend struct{ c *Cluster }

func (b clusterBackend) ServeHTTP(req *network.Request) (*network.Response, error) {
	if strings.HasPrefix(req.IP, "127.") {
		if h, ok := b.c.proxies[req.Port]; ok {
			return serveAPI(h, req), nil
		}
	}
	r := &runtime.Request{Method: req.Method, Path: req.Path, RemoteIP: req.SourceIP, Header: map[string]string{}}
	for _, f := range req.Header {
		r.Header[f.Name] = f.Value
	}
	for _, k := range b.c.Kubelets() {
		if !k.Running() {
			continue
		}
		if resp, ok := k.ServeIP(req.IP, req.Port, r); ok && resp != nil {
			return toNetworkResponse(resp, b.c.Now()), nil
		}
	}
	return nil, network.ErrConnectionRefused
}

// httpDate is HTTP's date format (RFC 9110's IMF-fixdate), always in GMT.
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// toNetworkResponse orders headers as web servers send them.
func toNetworkResponse(r *runtime.Response, now time.Time) *network.Response {
	out := &network.Response{Status: r.Status}
	add := func(name, value string) {
		out.Header = append(out.Header, network.HeaderField{Name: name, Value: value})
	}
	if v, ok := r.Header["Server"]; ok {
		add("Server", v)
	}
	add("Date", now.UTC().Format(httpDate))
	if v, ok := r.Header["Content-Type"]; ok {
		add("Content-Type", v)
	}
	add("Content-Length", strconv.Itoa(len(r.Body)))
	add("Connection", "keep-alive")
	var rest []string
	for k := range r.Header {
		if k != "Server" && k != "Content-Type" {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		add(k, r.Header[k])
	}
	out.Body = r.Body
	return out
}

// serveAPI runs one request through the API handler, in memory.
func serveAPI(h *apiserver.Handler, req *network.Request) *network.Response {
	ar, err := apiserver.NewRequest(req.Method, req.Path, []byte(req.Body))
	if err != nil {
		return &network.Response{Status: 400, Body: err.Error()}
	}
	ar.Host = req.Host
	for _, f := range req.Header {
		ar.Header.Add(f.Name, f.Value)
	}
	rec := apiserver.NewRecorder()
	h.Serve(rec, ar)
	out := &network.Response{Status: rec.Code}
	keys := make([]string, 0, len(rec.HeaderMap))
	for k := range rec.HeaderMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range rec.HeaderMap[k] {
			out.Header = append(out.Header, network.HeaderField{Name: k, Value: v})
		}
	}
	out.Header = append(out.Header, network.HeaderField{Name: "Content-Length", Value: strconv.Itoa(rec.Body.Len())})
	out.Body = rec.Body.String()
	return out
}

// terminalSource is where the terminal's tools run: on the first node (the
// machine the learner is logged in to), with the node's resolver.
func (t *Terminal) terminalSource() network.Source {
	ip := ""
	nodes := client.List[*api.Node](t.Cluster.Client("terminal"), "", nil)
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].CreationTimestamp.Before(nodes[j].CreationTimestamp.Time) })
	if len(nodes) > 0 {
		ip = network.NodeIP(nodes[0])
		if k, ok := t.Cluster.Kubelet(nodes[0].Name); ok && ip == "" {
			ip = k.NodeIP()
		}
	}
	src := network.NodeSource(ip)
	src.Sleep = func(d time.Duration) { t.Cluster.Advance(d) }
	return src
}

// registerNetworkTools gives the terminal curl, wget, dig and nslookup.
func (t *Terminal) registerNetworkTools(sh *shell.Shell) {
	n := t.Cluster.network
	wrap := func(mk func(src network.Source) shell.Command) shell.Command {
		return func(ctx *shell.Context, args []string) int { return mk(t.terminalSource())(ctx, args) }
	}
	sh.RegisterAt("curl", "/usr/bin/curl", wrap(func(s network.Source) shell.Command { return network.CurlFrom(n, s) }))
	sh.RegisterAt("wget", "/usr/bin/wget", wrap(func(s network.Source) shell.Command { return network.WgetFrom(n, s) }))
	sh.RegisterAt("dig", "/usr/bin/dig", wrap(func(s network.Source) shell.Command { return network.DigFrom(n, s) }))
	sh.RegisterAt("nslookup", "/usr/bin/nslookup", wrap(func(s network.Source) shell.Command { return network.NslookupFrom(n, s, network.NslookupBind) }))
}

// proxy is Env.Proxy: `kubectl proxy --port=N` serves the API on the
// terminal's loopback.
func (t *Terminal) proxy(address string, port int) error {
	if t.Cluster.proxies == nil {
		t.Cluster.proxies = map[int]*apiserver.Handler{}
	}
	t.Cluster.proxies[port] = &apiserver.Handler{Server: t.Cluster.API, Actor: "kubectl"}
	return nil
}
