package apiserver

import (
	"bytes"
	"net/url"
	"strings"
)

// The handler's own request and response types. Hosts adapt theirs to
// these: kubeplay serve from net/http, the page from the browser's fetch,
// the simulated network from its requests. net/http is not one of the
// page's dependencies because it brings crypto/tls and its certificate
// machinery with it, over a megabyte of the page's download.

// Request is one API request, its body already read by the host.
type Request struct {
	Method string
	// Path is the URL's decoded path; RawQuery its query, undecoded.
	Path     string
	RawQuery string
	Header   Header
	// Host is the address the client reached (discovery reports it back).
	Host string
	Body []byte
}

// Query parses the request's query; a malformed pair is left out, as
// net/url.Values are read by the API server.
func (r *Request) Query() url.Values {
	q, _ := url.ParseQuery(r.RawQuery)
	return q
}

// UserAgent is the client's User-Agent header.
func (r *Request) UserAgent() string { return r.Header.Get("User-Agent") }

// NewRequest builds a request for target, a path with an optional query
// ("/api/v1/pods?watch=true"); a relative target without a leading slash is
// an error.
func NewRequest(method, target string, body []byte) (*Request, error) {
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return nil, err
	}
	return &Request{Method: method, Path: u.Path, RawQuery: u.RawQuery, Header: Header{}, Host: u.Host, Body: body}, nil
}

// Header holds header fields under their canonical names
// ("Content-Type"), the shape of net/http's Header, so a host can convert
// one to the other in place.
type Header map[string][]string

// Get is the first value of key, or "".
func (h Header) Get(key string) string {
	if v := h[CanonicalHeaderKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values are all the values of key.
func (h Header) Values(key string) []string { return h[CanonicalHeaderKey(key)] }

// Set replaces key's values with value.
func (h Header) Set(key, value string) { h[CanonicalHeaderKey(key)] = []string{value} }

// Add appends value to key's values.
func (h Header) Add(key, value string) {
	k := CanonicalHeaderKey(key)
	h[k] = append(h[k], value)
}

// CanonicalHeaderKey spells a header name as HTTP/1.1 servers do: each
// dash-separated word capitalised ("content-type" → "Content-Type"). A name
// with a byte that may not be in one (a space, a colon) is left as it is.
func CanonicalHeaderKey(key string) string {
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return key
		}
	}
	b := []byte(key)
	upper := true
	for i, c := range b {
		switch {
		case upper && c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	return string(b)
}

// ResponseWriter is where the handler answers: headers, then a status,
// then the body. Streaming hosts flush what is written as they see fit.
type ResponseWriter interface {
	Header() Header
	WriteHeader(code int)
	Write(p []byte) (int, error)
}

// Recorder is a ResponseWriter that keeps the whole answer, for hosts that
// hand it on at once (the page's fetch, the in-cluster proxy, tests).
type Recorder struct {
	HeaderMap Header
	Code      int
	Body      bytes.Buffer
	wrote     bool
}

// NewRecorder is an empty answer whose status is 200 until written.
func NewRecorder() *Recorder { return &Recorder{HeaderMap: Header{}, Code: 200} }

func (r *Recorder) Header() Header { return r.HeaderMap }

func (r *Recorder) WriteHeader(code int) {
	if !r.wrote {
		r.Code, r.wrote = code, true
	}
}

func (r *Recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.Body.Write(p)
}
