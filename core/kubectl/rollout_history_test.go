package kubectl_test

import (
	"strings"
	"testing"
)

// threeRevisions plays the seed's S3-deploy-history steps: the odd
// `--record` spelling, `set image --record`, then a change without
// --record (the seed uses kubectl edit), which keeps the previous cause.
func threeRevisions(s *kubectlSession) {
	for _, c := range []string{appDeployment, "sleep 5",
		"kubectl --record deployment.v1.apps/app-deployment set image deployment.v1.apps/app-deployment app=app:1.0.1", "sleep 5",
		"kubectl set image deployment/app-deployment app=app:1.0.2 --record", "sleep 5",
		"kubectl set image deployment/app-deployment app=app:1.0.3", "sleep 5",
	} {
		s.run(c)
	}
}

const (
	causeOdd    = "kubectl deployment.v1.apps/app-deployment set image deployment.v1.apps/app-deployment app=app:1.0.1 --record=true"
	causeRecord = "kubectl set image deployment/app-deployment app=app:1.0.2 --record=true"
)

func TestRolloutHistoryListsChangeCauses(t *testing.T) {
	s := newKubectlSession(t)
	threeRevisions(s)
	s.expect("kubectl rollout history deployment.v1.apps/app-deployment", "deployment.apps/app-deployment \n"+
		"REVISION  CHANGE-CAUSE\n"+
		"1         <none>\n"+
		"2         "+causeOdd+"\n"+
		"3         "+causeRecord+"\n"+
		"4         "+causeRecord+"\n\n")
}

func TestRolloutHistoryRevisionShowsItsTemplate(t *testing.T) {
	s := newKubectlSession(t)
	threeRevisions(s)
	got := s.run("kubectl rollout history deployment.v1.apps/app-deployment --revision=2")
	lines := strings.Split(got, "\n")
	// Line 3 holds the generated pod-template-hash.
	if len(lines) < 4 || !strings.HasPrefix(lines[3], "\tpod-template-hash=") {
		t.Fatalf("no pod-template-hash line:\n%s", got)
	}
	lines[3] = "\tpod-template-hash=HASH"
	want := "deployment.apps/app-deployment with revision #2\n" +
		"Pod Template:\n" +
		"  Labels:\tapp=app\n" +
		"\tpod-template-hash=HASH\n" +
		"  Annotations:\tkubernetes.io/change-cause:\n" +
		"\t  " + causeOdd + "\n" +
		"  Containers:\n" +
		"   app:\n" +
		"    Image:\tapp:1.0.1\n" +
		"    Port:\t8080/TCP\n" +
		"    Host Port:\t0/TCP\n" +
		"    Environment:\t<none>\n" +
		"    Mounts:\t<none>\n" +
		"  Volumes:\t<none>\n" +
		"  Node-Selectors:\t<none>\n" +
		"  Tolerations:\t<none>\n\n"
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRolloutHistoryErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	s.expect("kubectl rollout history", "error: required resource not specified\n")
	s.expect("kubectl rollout history deploy/app-deployment --revision=-1", "error: revision must be a positive integer: -1\n")
	s.expect("kubectl rollout history deploy/app-deployment --revision=9", "error: unable to find the specified revision\n")
	s.expect("kubectl rollout history deploy/nope", "Error from server (NotFound): deployments.apps \"nope\" not found\n")
	s.expect("kubectl rollout history svc/kubernetes", "error: no history viewer has been implemented for \"Service\"\n")
}
