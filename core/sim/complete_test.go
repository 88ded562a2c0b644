package sim

import (
	"reflect"
	"testing"
)

// Tab completion, as the page and `kubeplay shell` offer it: the word at
// the end of the line is completed from commands, kubectl's verbs,
// resource types, object names in the namespace in force, or files.
func TestComplete(t *testing.T) {
	term := NewTerminal(NewDefault(Options{Seed: 1}))
	term.Cluster.AddDefaultNode()
	for _, line := range []string{
		"kubectl create namespace app",
		"kubectl create deployment web --image=nginx",
		"kubectl create deployment worker --image=nginx -n app",
		"kubectl create configmap settings --from-literal=a=b",
		"mkdir -p manifests && touch manifests/web.yaml manifests/db.yaml notes.txt",
	} {
		term.Run(line)
	}
	term.Cluster.Advance(10e9)
	for _, c := range []struct {
		line  string
		start int
		want  []string
	}{
		{"kub", 0, []string{"kubectl", "kubeplay"}},
		{"wat", 0, []string{"watch"}},
		{"kubectl des", 8, []string{"describe"}},
		{"k rollout", 2, []string{"rollout"}},
		{"kubectl get deploy", 12, []string{"deploy", "deployments"}},
		{"kubectl get deployment w", 23, []string{"web"}},
		{"kubectl get deployment -n app w", 30, []string{"worker"}},
		{"kubectl --namespace=app describe deploy ", 40, []string{"worker"}},
		{"kubectl get cm ", 15, []string{"kube-root-ca.crt", "settings"}},
		{"kubectl describe deployment/w", 17, []string{"deployment/web"}},
		{"kubectl get pods | gr", 19, []string{"grep"}},
		{"kubectl get pods --wa", 17, []string{"--watch"}},
		{"kubectl apply -f manifests/", 17, []string{"manifests/db.yaml", "manifests/web.yaml"}},
		{"cat no", 4, []string{"notes.txt"}},
		{"kubectl get nosuchtype ", 23, nil},
		{"kubectl explain deploy.spec.st", 16, []string{"deploy.spec.strategy"}},
		{"kubectl explain po.spec.containers.ima", 16, []string{"po.spec.containers.image", "po.spec.containers.imagePullPolicy"}},
		{"kubectl explain pod.metadata.labels.", 16, nil},
		{"kubectl explain nosuchtype.", 16, nil},
	} {
		start, got := term.Complete(c.line)
		if start != c.start || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Complete(%q) = %d %q, want %d %q", c.line, start, got, c.start, c.want)
		}
	}
	// The namespace set in the context is the one names come from.
	term.Run("kubectl config set-context --current --namespace=app")
	if _, got := term.Complete("kubectl get deploy "); !reflect.DeepEqual(got, []string{"worker"}) {
		t.Errorf("names after set-context --namespace=app: %q, want [worker]", got)
	}
}
