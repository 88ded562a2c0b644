package runtime

import (
	"strings"
	"testing"
)

// An empty web root (a fresh volume mounted over it) has no index: nginx
// answers 403 Forbidden for the directory, as autoindex is off, and 404
// for a file that is not there.
func TestNginxEmptyRootIsForbidden(t *testing.T) {
	w := newWorld()
	c, _ := w.start(t, "linuxduduniao/nginx:v1.0.0")
	if err := c.cfg.FS.Remove("/usr/share/nginx/html/index.html"); err != nil {
		t.Fatal(err)
	}
	h, _ := c.Handler(80)
	r := h(&Request{Method: "GET", Path: "/"})
	if r.Status != 403 || !strings.Contains(r.Body, "<title>403 Forbidden</title>") {
		t.Errorf("/ = %d %q", r.Status, r.Body)
	}
	if r := h(&Request{Method: "GET", Path: "/a.html"}); r.Status != 404 || !strings.Contains(r.Body, "<h1>404 Not Found</h1>") {
		t.Errorf("/a.html = %d %q", r.Status, r.Body)
	}
	if r := h(&Request{Method: "GET", Path: "/health"}); r.Status != 200 {
		t.Errorf("/health = %d", r.Status)
	}
	if !strings.Contains(logText(c), `"GET / HTTP/1.1" 403 `) {
		t.Errorf("access log: %s", logText(c))
	}
}
