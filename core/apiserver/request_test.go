package apiserver

import (
	"strings"
	"testing"
)

func TestCanonicalHeaderKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"content-type", "Content-Type"},
		{"CONTENT-TYPE", "Content-Type"},
		{"x-forwarded-for", "X-Forwarded-For"},
		{"user_agent", "User_agent"},
		{"sec-websocket-key", "Sec-Websocket-Key"},
		{"", ""},
		{"bad header", "bad header"}, // a space may not be in a name: left alone
		{"bad:header", "bad:header"},
	} {
		if got := CanonicalHeaderKey(tc.in); got != tc.want {
			t.Errorf("CanonicalHeaderKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHeaderIgnoresTheCaseOfNames(t *testing.T) {
	h := Header{}
	h.Add("accept", "application/json")
	h.Add("Accept", "application/yaml")
	h.Set("content-type", "text/plain")
	if got := h.Values("ACCEPT"); len(got) != 2 || got[1] != "application/yaml" {
		t.Errorf("Values(ACCEPT) = %q", got)
	}
	if h.Get("Content-Type") != "text/plain" || h.Get("missing") != "" {
		t.Errorf("Get: %q, %q", h.Get("Content-Type"), h.Get("missing"))
	}
}

func TestNewRequestSplitsPathAndQuery(t *testing.T) {
	r, err := NewRequest("GET", "/api/v1/namespaces/a%2Fb/pods?labelSelector=app%3Dweb&watch=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Path != "/api/v1/namespaces/a/b/pods" || r.Query().Get("labelSelector") != "app=web" || r.Query().Get("watch") != "1" {
		t.Errorf("path %q, query %v", r.Path, r.Query())
	}
	if _, err := NewRequest("GET", "api/v1", nil); err == nil {
		t.Error("a relative target was accepted")
	}
}

// A body over the API server's limit is refused as upstream refuses it,
// not read cut short.
func TestRequestBodyOverTheLimit(t *testing.T) {
	h := &Handler{Server: newTestServer(t)}
	body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"a":"` + strings.Repeat("x", MaxRequestBodyBytes) + `"}}`
	r, _ := NewRequest("POST", "/api/v1/namespaces/default/configmaps", []byte(body))
	w := NewRecorder()
	h.Serve(w, r)
	if w.Code != 413 || !strings.Contains(w.Body.String(), `"message":"Request entity too large: limit is 3145728"`) ||
		!strings.Contains(w.Body.String(), `"reason":"RequestEntityTooLarge"`) {
		t.Errorf("answered %d %s", w.Code, w.Body.String())
	}
}
