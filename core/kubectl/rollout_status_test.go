package kubectl_test

import "testing"

func TestRolloutStatusExperiment(t *testing.T) {
	s := newKubectlSession(t)
	t.Log(s.run(webDeployment + "\nkubectl rollout status deployment web"))
	t.Log(s.run("kubectl set image deploy/web nginx=nginx:1.26 && kubectl rollout status deploy/web"))
	t.Log(s.run("kubectl rollout status deploy/web --watch=false"))
	t.Log(s.run("kubectl rollout status deploy"))
}
