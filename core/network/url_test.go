package network

import (
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: scheme host port path, or the error
	}{
		{"web", "http web 80 /"},
		{"web:8080", "http web 8080 /"},
		{"http://web.default.svc.cluster.local/info?x=1#top", "http web.default.svc.cluster.local 80 /info?x=1"},
		{"10.4.7.22:10080/info", "http 10.4.7.22 10080 /info"},
		{"https://kubernetes.default/api", "https kubernetes.default 443 /api"},
		{"HTTP://Web/", "http Web 80 /"},
		{"localhost:8080/apis/apps/v1", "http localhost 8080 /apis/apps/v1"},
		{"web?q=1", "http web 80 /?q=1"},
		{"user:pw@web:81/x", "http web 81 /x"},
		{"[fd00::1]:80/", "http fd00::1 80 /"},
		{"web:", "http web 80 /"},
		{"", "URL using bad/illegal format or missing URL"},
		{"http://", "URL rejected: No host part in the URL"},
		{"http:///x", "URL rejected: No host part in the URL"},
		{"web:99999", "URL rejected: Port number was not a decimal number between 0 and 65535"},
		{"web:abc", "URL rejected: Port number was not a decimal number between 0 and 65535"},
		{"we b", "URL rejected: Malformed input to a URL function"},
		{"1ttp://x", "URL rejected: Bad scheme"},
		{"[fd00::1", "URL rejected: Bad IPv6 address"},
	} {
		u, err := ParseURL(tc.in)
		var got string
		if err != nil {
			got = err.Error()
		} else {
			got = strings.Join([]string{u.Scheme, u.Host, itoa(u.Port), u.Path}, " ")
		}
		if got != tc.want {
			t.Errorf("ParseURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzParseURL: no input panics; what parses has a host, a path starting
// with "/" and a port in range, and its String form parses to the same.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"web", "http://a:1/b?c#d", "[::1]:80", "u@h:0", "https://x", ":80", "a://", "%", "[", "h:65536"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseURL(s)
		if err != nil {
			return
		}
		if u.Host == "" || !strings.HasPrefix(u.Path, "/") || u.Port < 0 || u.Port > 65535 {
			t.Fatalf("ParseURL(%q) = %+v", s, u)
		}
		again, err := ParseURL(u.String())
		if err != nil {
			t.Fatalf("ParseURL(%q).String() = %q does not parse: %v", s, u.String(), err)
		}
		if again.Host != u.Host || again.Port != u.Port || again.Path != u.Path || again.Scheme != u.Scheme {
			t.Fatalf("round trip of %q: %+v then %+v", s, u, again)
		}
	})
}
