package kubectl_test

import (
	"strings"
	"testing"
)

// A watched change prints the ages the object had when the change
// arrived, not when the watch loop next woke (it steps a second at a
// time): nginx starts 4.7 s after its pod was created (1 s for the
// sandbox, 3.7 s to pull the image), so its Running row says 4s.
func TestWatchPrintsAgesAtArrival(t *testing.T) {
	s := newKubectlSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  nodeName: node01
  containers:
  - name: c
    image: nginx:1.25
EOF`)
	out := s.run("timeout 8 kubectl get pods -w")
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 5 && f[2] == "Running" {
			if f[4] != "4s" {
				t.Fatalf("the Running row says %s:\n%s", f[4], out)
			}
			return
		}
	}
	t.Fatalf("no Running row:\n%s", out)
}
