package kubectl_test

import (
	"strings"
	"testing"
)

func TestRolloutPauseAndResume(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.expect("kubectl rollout pause deployment web", "deployment.apps/web paused\n")
	s.expect("kubectl rollout pause deployment web", "error: deployments.apps \"web\" is already paused\n")
	s.expect("kubectl rollout restart deployment web",
		"error: deployments.apps \"web\" can't restart paused deployment (run rollout resume first)\n")
	s.expect("kubectl rollout resume deployment web", "deployment.apps/web resumed\n")
	s.expect("kubectl rollout resume deployment web", "error: deployments.apps \"web\" is not paused\n")
	s.expect("kubectl rollout pause svc/kubernetes", "error: services \"kubernetes\" pausing is not supported\n")
	s.expect("kubectl rollout pause deployment -l app=nothing", "No resources found in default namespace.\n")
	s.expect("kubectl rollout pause", "error: required resource not specified\n")
}

func TestRolloutRestartReplacesPods(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.run("sleep 10")
	before := s.run("kubectl get pods -o name")
	s.expect("kubectl rollout restart deployment/web", "deployment.apps/web restarted\n")
	s.expect("kubectl get deploy web -o jsonpath={.spec.template.metadata.annotations}",
		`{"kubectl.kubernetes.io/restartedAt":"2026-11-22T11:29:10Z"}`)
	// Within the same second the template would not change.
	s.expect("kubectl rollout restart deployment/web",
		"error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another\n")
	s.expect("kubectl rollout status deployment/web --timeout=60s", strings.Join([]string{
		`Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`,
		`Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`,
		`Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...`,
		`Waiting for deployment "web" rollout to finish: 2 out of 3 new replicas have been updated...`,
		`Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`,
		`Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`,
		`deployment "web" successfully rolled out`, ""}, "\n"))
	s.run("sleep 30")
	for _, p := range strings.Fields(before) {
		if strings.Contains(s.run("kubectl get pods -o name"), p) {
			t.Errorf("%s survived the restart", p)
		}
	}
}
