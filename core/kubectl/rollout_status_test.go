package kubectl_test

import "testing"

func TestRolloutStatusFollowsTheRollout(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl rollout status deployment web",
		"Waiting for deployment \"web\" rollout to finish: 0 of 3 updated replicas are available...\n"+
			"deployment \"web\" successfully rolled out\n")
	s.expect("kubectl rollout status deploy/web --watch=false", "deployment \"web\" successfully rolled out\n")
	// A bare type follows every object of it.
	s.expect("kubectl rollout status deploy", "deployment \"web\" successfully rolled out\n")
}

func TestRolloutStatusTimesOutOnAPausedRollout(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.run("sleep 10")
	s.run("kubectl rollout pause deploy/web")
	s.run("kubectl set image deploy/web nginx=nginx:1.26")
	s.expect("kubectl rollout status deploy/web --timeout=3s",
		"Waiting for deployment \"web\" rollout to finish: 0 out of 3 new replicas have been updated...\n"+
			"error: timed out waiting for the condition\n")
	s.expect("kubectl rollout status deploy/web --watch=false",
		"Waiting for deployment \"web\" rollout to finish: 0 out of 3 new replicas have been updated...\n")
}

func TestRolloutStatusErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl rollout status", "error: required resource not specified\n")
	s.expect("kubectl rollout status deploy/web --revision=-2", "error: revision must be a positive integer: -2\n")
	s.expect("kubectl rollout status deploy/web --revision=5 --watch=false", "error: desired revision (5) is different from the running revision (1)\n")
	s.expect("kubectl rollout status rs", "error: no status viewer has been implemented for ReplicaSet.apps\n")
	s.expect("kubectl rollout status deploy/nope", "Error from server (NotFound): deployments.apps \"nope\" not found\n")
	s.expect("kubectl rollout status sts", "No resources found in default namespace.\n")
}
