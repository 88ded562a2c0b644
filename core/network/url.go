package network

import (
	"net/netip"
	"strconv"
	"strings"
)

// URL is a URL as curl and wget read it from a command line.
type URL struct {
	Scheme string // lower case; "http" when the user gave none
	User   string
	Host   string // no brackets for IPv6 literals
	Port   int    // explicit or the scheme's default
	// ExplicitPort is set when the URL named a port.
	ExplicitPort bool
	// Path is the request target: path (at least "/") and "?query".
	Path string
}

// URLError is a URL that cannot be used, with curl's wording (exit code 3
// unless Code says otherwise).
type URLError struct {
	Code int
	Msg  string
}

func (e *URLError) Error() string { return e.Msg }

// DefaultPort is the port of a scheme (0 when unknown).
func DefaultPort(scheme string) int {
	switch scheme {
	case "http":
		return 80
	case "https":
		return 443
	}
	return 0
}

// ParseURL reads raw as curl does: a missing scheme means http, the
// fragment is dropped, spaces are rejected.
func ParseURL(raw string) (*URL, error) {
	if raw == "" {
		return nil, &URLError{Code: 3, Msg: "URL using bad/illegal format or missing URL"}
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] <= ' ' || raw[i] == 0x7f {
			return nil, &URLError{Code: 3, Msg: "URL rejected: Malformed input to a URL function"}
		}
	}
	u := &URL{Scheme: "http"}
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 {
		scheme := strings.ToLower(rest[:i])
		if !validScheme(scheme) {
			return nil, &URLError{Code: 3, Msg: "URL rejected: Bad scheme"}
		}
		u.Scheme = scheme
		rest = rest[i+3:]
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	hostport := rest
	u.Path = "/"
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		hostport = rest[:i]
		u.Path = rest[i:]
		if u.Path[0] == '?' {
			u.Path = "/" + u.Path
		}
	}
	if i := strings.LastIndexByte(hostport, '@'); i >= 0 {
		u.User = hostport[:i]
		hostport = hostport[i+1:]
	}
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return nil, &URLError{Code: 3, Msg: "URL rejected: Bad IPv6 address"}
		}
		host = hostport[1:end]
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return nil, &URLError{Code: 3, Msg: "URL rejected: Bad IPv6 address"}
		}
		after := hostport[end+1:]
		if after != "" {
			if after[0] != ':' {
				return nil, &URLError{Code: 3, Msg: "URL rejected: Bad IPv6 address"}
			}
			port = after[1:]
			u.ExplicitPort = true
		}
	} else if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host, port = hostport[:i], hostport[i+1:]
		u.ExplicitPort = true
	}
	if host == "" {
		return nil, &URLError{Code: 3, Msg: "URL rejected: No host part in the URL"}
	}
	if !strings.HasPrefix(hostport, "[") && strings.ContainsAny(host, "/\\:@[]{}<>\"`^|%") {
		return nil, &URLError{Code: 3, Msg: "URL rejected: Bad hostname"}
	}
	u.Host = host
	u.Port = DefaultPort(u.Scheme)
	if u.ExplicitPort && port != "" {
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 || port[0] == '+' || port[0] == '-' {
			return nil, &URLError{Code: 3, Msg: "URL rejected: Port number was not a decimal number between 0 and 65535"}
		}
		u.Port = p
	} else if u.ExplicitPort && port == "" {
		u.ExplicitPort = false
	}
	return u, nil
}

func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// HostHeader is the Host header a client sends: the host, with the port
// when it is not the scheme's default.
func (u *URL) HostHeader() string {
	h := u.Host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if u.Port != DefaultPort(u.Scheme) {
		h += ":" + strconv.Itoa(u.Port)
	}
	return h
}

// String is the URL in the normalised form curl prints.
func (u *URL) String() string {
	return u.Scheme + "://" + u.HostHeader() + u.Path
}
