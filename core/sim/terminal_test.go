package sim

import (
	"strings"
	"testing"

	"kubeplay/core/session"
)

const sampleSession = `$ kubectl create namespace app
$ kubectl apply -n app -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  generateName: settings-
data:
  mode: fast
EOF
$ kubectl create -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  generateName: settings-
  namespace: app
EOF
$ kubectl get configmaps -n app -o yaml
$ sleep 30s
$ kubectl delete namespace app
$ kubectl get namespaces
`

func runSample(t *testing.T, seed uint64) string {
	t.Helper()
	f, err := session.Parse("sample.session", sampleSession)
	if err != nil {
		t.Fatal(err)
	}
	term := NewSessionTerminal(f, Options{Seed: seed})
	return session.Transcript(f.Run(term))
}

// TestSessionIsDeterministic runs one session twice on the same seed and
// expects the same bytes, generated names, uids and times included.
func TestSessionIsDeterministic(t *testing.T) {
	a, b := runSample(t, 7), runSample(t, 7)
	if a != b {
		t.Fatalf("same seed, different transcripts:\n%s\n---\n%s", a, b)
	}
	if !strings.Contains(a, "generateName: settings-") {
		t.Fatalf("transcript lacks the generated objects:\n%s", a)
	}
	if c := runSample(t, 8); c == a {
		t.Fatal("a different seed gave identical generated names and uids")
	}
}

// FuzzApply feeds arbitrary manifests to `kubectl apply -f -` and `kubectl
// create -f -`. Nothing may panic, and a single document that is refused
// must leave the store as it was.
func FuzzApply(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n",
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n  - a\nspec: {}\n",
		"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: x}\n",
		"kind: Service\napiVersion: v1\nmetadata: {name: s}\nspec:\n  ports: [{port: 80, targetPort: web}]\n",
		"apiVersion: v1\nkind: Namespace\nmetadata:\n\tname: x\n",
		"{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},\"data\":{\"k\":\"!!\"}}",
		"---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\nfoo: [",
		"apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {maxReplicas: 0, scaleTargetRef: {kind: Deployment, name: web}}\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {a: b}}\n",
	} {
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, manifest string, create bool) {
		c := NewDefault(Options{Seed: 1})
		term := NewTerminal(c)
		if err := term.FS.WriteFile("/root/m.yaml", []byte(manifest), 0o644); err != nil {
			t.Skip()
		}
		before := c.API.ResourceVersion()
		verb := "apply"
		if create {
			verb = "create"
		}
		_, code := term.Shell.Run("kubectl "+verb+" -f /root/m.yaml", "")
		if code != 0 && !strings.Contains(manifest, "---") && c.API.ResourceVersion() != before {
			t.Fatalf("a refused manifest changed the store (rv %s → %s)", before, c.API.ResourceVersion())
		}
		term.Shell.Run("kubectl get all -A -o wide; kubectl delete -f /root/m.yaml --wait=false", "")
	})
}
