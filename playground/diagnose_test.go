package playground

import (
	"strings"
	"testing"
)

const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 80
      - name: side
        image: busybox
`

func TestLocate(t *testing.T) {
	for _, c := range []struct {
		path      string
		line, col int
	}{
		{"kind", 2, 1},
		{"metadata.name", 4, 3},
		{"metadata.labels[app]", 6, 5},
		{"spec.replicas", 8, 3},
		{"spec.selector.matchLabels.app", 11, 7},
		{"spec.template.spec.containers[0].name", 18, 9},
		{"spec.template.spec.containers[0].image", 19, 9},
		{"spec.template.spec.containers[0].ports[0].containerPort", 21, 11},
		{"spec.template.spec.containers[1].image", 23, 9},
		{"spec.template.spec.containers[1]", 22, 7},
		{"spec.nothere", 7, 1},
	} {
		line, col := locate(deploy, c.path)
		if line != c.line || col != c.col {
			t.Errorf("%s: got %d:%d, want %d:%d", c.path, line, col, c.line, c.col)
		}
	}
}

func TestLocateIndentedSequence(t *testing.T) {
	doc := "spec:\n  containers:\n    - name: a\n      image: x\n    - name: b\n      image: \"\"\n"
	if line, col := locate(doc, "spec.containers[1].image"); line != 6 || col != 7 {
		t.Errorf("got %d:%d", line, col)
	}
}

func TestDiagnose(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"syntax", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: a\n    image: nginx\n   bad: indent\n", 9, "did not find expected key"},
		{"kind", "apiVersion: v1\nkind: Podd\nmetadata:\n  name: x\n", 2, `no matches for kind "Podd"`},
		{"unknown field", strings.Replace(deploy, "        image: nginx\n", "        image: nginx\n        foo: bar\n", 1), 20, `unknown field "spec.template.spec.containers[0].foo"`},
		{"invalid", strings.Replace(deploy, "replicas: 2", "replicas: -1", 1), 8, "spec.replicas: Invalid value: -1"},
		{"second document", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  ports:\n  - port: 99999\n", 12, "spec.ports[0].port: Invalid value: 99999"},
	} {
		ms := diagnose(c.text, nil)
		ok := false
		for _, m := range ms {
			if m.Line == c.line && strings.Contains(m.Message, c.msg) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: want line %d %q, got %+v", c.name, c.line, c.msg, ms)
		}
	}
	if ms := diagnose(deploy, nil); len(ms) != 0 {
		t.Errorf("a good manifest: %+v", ms)
	}
}

func FuzzDiagnose(f *testing.F) {
	f.Add(deploy)
	f.Add("a: [\n")
	f.Add("---\n- - :\n")
	f.Fuzz(func(t *testing.T, s string) {
		diagnose(s, nil)
		for _, p := range []string{"spec.a[0].b", "x[y]", "[", "a..b"} {
			locate(s, p)
		}
	})
}
