package network

import "errors"

// Connection failures a Backend (or the routing in front of it) reports.
// Tools word them as the real ones do: curl's (7) for a refused or
// unreachable peer, (28) for a timeout.
var (
	// ErrConnectionRefused: nothing listens there (or kube-proxy rejects a
	// service without endpoints).
	ErrConnectionRefused = errors.New("connection refused")
	// ErrTimeout: packets go nowhere (an address nobody owns, a service
	// port kube-proxy has no rule for, a server that never answers).
	ErrTimeout = errors.New("connection timed out")
	// ErrHostUnreachable: an address in the pod network that no pod has.
	ErrHostUnreachable = errors.New("no route to host")
)

// Backend delivers a request to the program listening on Request.IP:Port
// after the network has routed it (a pod IP, or a node IP for host-network
// pods and node daemons). The kubelets' runtime implements it.
type Backend interface {
	ServeHTTP(req *Request) (*Response, error)
}

// BackendFunc adapts a function to Backend.
type BackendFunc func(req *Request) (*Response, error)

// ServeHTTP implements Backend.
func (f BackendFunc) ServeHTTP(req *Request) (*Response, error) { return f(req) }

// Request is one HTTP request on the wire.
type Request struct {
	Method string
	Scheme string // "http" or "https"
	// Host is the Host header: the name as the client typed it (with the
	// port when it is not the scheme's default).
	Host string
	// IP and Port are where the request is delivered after routing.
	IP   string
	Port int
	// Path is the request target: path and query ("/", "/info?x=1").
	Path   string
	Header []HeaderField
	Body   string
	// SourceIP is the client's address (a pod IP or a node IP).
	SourceIP string
}

// Response is a server's answer. Header keeps the server's order, which
// curl -i prints as is.
type Response struct {
	Proto  string // "HTTP/1.1" when empty
	Status int
	Header []HeaderField
	Body   string
}

// HeaderField is one header line.
type HeaderField struct {
	Name, Value string
}

// Get returns the first value of a header (names compare case-insensitively).
func Get(h []HeaderField, name string) (string, bool) {
	for _, f := range h {
		if equalFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
