package kubectl_test

import (
	"strings"
	"testing"

	"kubeplay/core/sim"
)

// kubectlSession is a terminal on a fresh one-node cluster.
type kubectlSession struct {
	t    *testing.T
	term *sim.Terminal
}

func newKubectlSession(t *testing.T) *kubectlSession {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	return &kubectlSession{t: t, term: sim.NewTerminal(c)}
}

// run types a command line (with any heredoc) and returns what it printed.
func (s *kubectlSession) run(script string) string { return s.term.Run(script) }

// expect runs a command and fails the test unless it printed exactly want.
func (s *kubectlSession) expect(script, want string) {
	s.t.Helper()
	if got := s.run(script); got != want {
		s.t.Errorf("$ %s\ngot:\n%s\nwant:\n%s", script, got, want)
	}
}

// webDeployment is a three-replica nginx Deployment pinned to the default
// node, so it runs without a scheduler.
const webDeployment = `kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeName: node01
      containers:
      - name: nginx
        image: nginx:1.25
EOF`

func TestScaleDeployment(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.run("sleep 10")
	s.expect("kubectl scale deployment web --replicas=5", "deployment.apps/web scaled\n")
	s.run("sleep 10")
	s.expect("kubectl get deployment web", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    5/5     5            5           20s\n")
	s.expect("kubectl scale deployment.v1.apps/web --replicas=2", "deployment.apps/web scaled\n")
	s.expect("kubectl get rs -o custom-columns=DESIRED:.spec.replicas --no-headers", "2\n")
}

func TestScalePreconditionsAndErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl scale deploy web", "error: required flag(s) \"replicas\" not set\n")
	s.expect("kubectl scale deploy web --replicas=-1", "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n")
	s.expect("kubectl scale deploy web --current-replicas=2 --replicas=1", "error: Expected replicas to be 2, was 3\n")
	s.expect("kubectl scale deploy web --current-replicas=3 --replicas=1", "deployment.apps/web scaled\n")
	s.expect("kubectl scale deploy nope --replicas=1", "error: no objects passed to scale deployments.apps \"nope\" not found\n")
	s.expect("kubectl scale deploy --replicas=1", "error: resource(s) were provided, but no name was specified\n")
	s.expect("kubectl scale --replicas=1", "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n")
	s.run("sleep 10")
	pod := strings.Fields(s.run("kubectl get pods -o name"))[0]
	s.expect("kubectl scale "+pod+" --replicas=2", "Error from server (NotFound): the server could not find the requested resource\n")
}

func TestScaleBySelectorAndDryRun(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl scale deploy -l app=web --replicas=4", "deployment.apps/web scaled\n")
	s.expect("kubectl scale deploy --all --replicas=4 --dry-run=client", "deployment.apps/web scaled (dry run)\n")
	s.expect("kubectl scale deploy/web --replicas=1 --dry-run=server", "deployment.apps/web scaled (server dry run)\n")
	s.expect("kubectl get deploy web -o jsonpath={.spec.replicas}", "4")
	s.expect("kubectl scale deploy/web --replicas=1 -o name", "deployment.apps/web\n")
}

func TestScaleRecord(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl scale deploy web --replicas=2 --record", "Flag --record has been deprecated, --record will be removed in the future\ndeployment.apps/web scaled\n")
	s.expect(`kubectl get deploy web -o jsonpath='{.metadata.annotations.kubernetes\.io/change-cause}'`, "kubectl scale deploy web --replicas=2 --record=true")
}
