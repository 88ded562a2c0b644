package network

import (
	"net/netip"
	"time"
)

// Source is where a tool runs: a pod's network namespace or a node's.
type Source struct {
	// Namespace is the pod's namespace ("" on a node); with Resolv it
	// decides how short names resolve.
	Namespace string
	// IP is the source address: the pod's IP, or the node's.
	IP string
	// InPod is set in a pod's network namespace, where loopback is the pod.
	InPod  bool
	Resolv ResolvConf
	// Sleep lets virtual time pass while a tool waits (a connection that
	// times out). nil: the wait is only reported, not spent.
	Sleep func(d time.Duration)
}

// PodSource is a ClusterFirst pod's view of the network.
func PodSource(namespace, podIP string) Source {
	return Source{Namespace: namespace, IP: podIP, InPod: true, Resolv: PodResolvConf(namespace)}
}

// NodeSource is a node's (the terminal's) view of the network.
func NodeSource(nodeIP string) Source {
	return Source{IP: nodeIP, Resolv: NodeResolvConf()}
}

// Waits the network imposes on failed connections.
const (
	// ConnectTimeout is when Linux gives up on a SYN nobody answers
	// (tcp_syn_retries 6: 1+2+4+8+16+32+64 s).
	ConnectTimeout = 127 * time.Second
	// UnreachableDelay is how long ARP takes to give up on an address.
	UnreachableDelay = 3 * time.Second
)

// Exchange is what happened to one HTTP request.
type Exchange struct {
	// Addr is the address the host name resolved to ("" when it did not).
	Addr string
	// Resolved lists every address of the host.
	Resolved []string
	Response *Response
	// Err is a *DNSError, or a connection error (ErrConnectionRefused,
	// ErrHostUnreachable, ErrTimeout), or nil.
	Err error
	// Elapsed is the virtual time the request took.
	Elapsed time.Duration
}

// Do sends req to the URL's host and port from src: resolve, route as
// kube-proxy does, deliver through the Backend. limit bounds the whole
// exchange (0: none); time passes through src.Sleep.
func (n *Network) Do(src Source, u *URL, req Request, limit time.Duration) Exchange {
	_, addrs, err := n.Lookup(src.Resolv, u.Host)
	if err != nil {
		return Exchange{Err: err}
	}
	return n.DoAddrs(src, u, addrs, req, limit)
}

// DoAddrs is Do once the host has resolved to addrs (the first is used).
func (n *Network) DoAddrs(src Source, u *URL, addrs []string, req Request, limit time.Duration) Exchange {
	var ex Exchange
	if len(addrs) == 0 {
		ex.Err = &DNSError{Name: u.Host, NotFound: true}
		return ex
	}
	ex.Resolved = addrs
	ex.Addr = addrs[0]
	dst, port := ex.Addr, u.Port
	var rerr error
	if a, perr := netip.ParseAddr(dst); perr == nil && a.IsLoopback() {
		if src.InPod && src.IP != "" {
			dst = src.IP
		}
	} else {
		dst, port, rerr = n.Route(dst, port)
	}
	var resp *Response
	if rerr == nil {
		if n.backend == nil {
			rerr = ErrConnectionRefused
		} else {
			req.IP, req.Port, req.SourceIP = dst, port, src.IP
			if req.Method == "" {
				req.Method = "GET"
			}
			if req.Scheme == "" {
				req.Scheme = u.Scheme
			}
			if req.Host == "" {
				req.Host = u.HostHeader()
			}
			if req.Path == "" {
				req.Path = u.Path
			}
			resp, rerr = n.backend.ServeHTTP(&req)
		}
	}
	switch rerr {
	case nil:
		ex.Response = resp
		return ex
	case ErrHostUnreachable:
		ex.Elapsed = UnreachableDelay
	case ErrTimeout:
		ex.Elapsed = ConnectTimeout
	}
	if limit > 0 && ex.Elapsed > limit {
		ex.Elapsed, rerr = limit, ErrTimeout
	}
	if ex.Elapsed > 0 && src.Sleep != nil {
		src.Sleep(ex.Elapsed)
	}
	ex.Err = rerr
	return ex
}

// StatusText is the reason phrase of an HTTP status.
func StatusText(code int) string {
	switch code {
	case 100:
		return "Continue"
	case 101:
		return "Switching Protocols"
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 202:
		return "Accepted"
	case 204:
		return "No Content"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 304:
		return "Not Modified"
	case 307:
		return "Temporary Redirect"
	case 308:
		return "Permanent Redirect"
	case 400:
		return "Bad Request"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 406:
		return "Not Acceptable"
	case 409:
		return "Conflict"
	case 410:
		return "Gone"
	case 413:
		return "Request Entity Too Large"
	case 415:
		return "Unsupported Media Type"
	case 422:
		return "Unprocessable Entity"
	case 429:
		return "Too Many Requests"
	case 500:
		return "Internal Server Error"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 504:
		return "Gateway Timeout"
	}
	return ""
}
