package kubectl_test

import (
	"strings"
	"testing"
)

// Undo renumbers: the revision rolled back to becomes the newest.
func TestRolloutUndoRenumbersRevisions(t *testing.T) {
	s := newKubectlSession(t)
	threeRevisions(s)
	s.expect("kubectl rollout undo deployment.v1.apps/app-deployment", "deployment.apps/app-deployment rolled back\n")
	s.run("sleep 5")
	s.expect("kubectl rollout history deployment.v1.apps/app-deployment", "deployment.apps/app-deployment \n"+
		"REVISION  CHANGE-CAUSE\n"+
		"1         <none>\n"+
		"2         "+causeOdd+"\n"+
		"4         "+causeRecord+"\n"+
		"5         "+causeRecord+"\n\n")
	s.expect("kubectl rollout undo deployment.v1.apps/app-deployment --to-revision=2", "deployment.apps/app-deployment rolled back\n")
	s.run("sleep 5")
	s.expect("kubectl rollout history deployment.v1.apps/app-deployment", "deployment.apps/app-deployment \n"+
		"REVISION  CHANGE-CAUSE\n"+
		"1         <none>\n"+
		"4         "+causeRecord+"\n"+
		"5         "+causeRecord+"\n"+
		"6         "+causeOdd+"\n\n")
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.template.spec.containers[0].image}", "app:1.0.1")
	s.expect("kubectl rollout undo deployment.v1.apps/app-deployment --to-revision=6",
		"deployment.apps/app-deployment skipped rollback (current template already matches revision 6)\n")
}

func TestRolloutUndoErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	s.run("sleep 5")
	s.expect("kubectl rollout undo", "error: required resource not specified\n")
	s.expect("kubectl rollout undo deploy/app-deployment", "error: no rollout history found for deployment \"app-deployment\"\n")
	s.expect("kubectl rollout undo deploy/app-deployment --to-revision=3", "error: unable to find specified revision 3 in history\n")
	s.expect("kubectl rollout undo svc/kubernetes", "error: no rollbacker has been implemented for \"Service\"\n")
	s.run("kubectl set image deploy/app-deployment app=app:2")
	s.run("sleep 5")
	got := s.run("kubectl rollout undo deploy/app-deployment --dry-run=client")
	if !strings.HasPrefix(got, "deployment.apps/app-deployment Pod Template:\n  Labels:\tapp=app\n") ||
		!strings.Contains(got, "    Image:\tapp:1.0.0\n") || !strings.HasSuffix(got, "  Tolerations:\t<none>\n (dry run)\n") {
		t.Errorf("dry run printed:\n%s", got)
	}
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.template.spec.containers[0].image}", "app:2")
	s.run("kubectl rollout pause deploy/app-deployment")
	s.expect("kubectl rollout undo deploy/app-deployment",
		"error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n")
}
