package kubectl_test

import (
	"strings"
	"testing"
)

// The seed edits with sed standing in for an interactive editor.
func TestEditWithSedAsEditor(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	s.run("kubectl set image deployment/app-deployment app=app:1.0.2")
	s.expect(`KUBE_EDITOR="sed -i s#image:.app:1.0.2#image:\ app:1.0.3#" kubectl edit deployment.v1.apps/app-deployment`,
		"deployment.apps/app-deployment edited\n")
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.template.spec.containers[0].image}", "app:1.0.3")
	// The same edit again finds nothing to change.
	s.expect(`KUBE_EDITOR="sed -i s#image:.app:1.0.2#image:\ app:1.0.3#" kubectl edit deployment/app-deployment`,
		"Edit cancelled, no changes made.\n")
	s.expect(`EDITOR=true kubectl edit deployment/app-deployment`, "Edit cancelled, no changes made.\n")
	s.expect(`KUBE_EDITOR="sed -i s#app:1.0.3#app:1.0.4#" kubectl edit deployment/app-deployment --record`,
		"Flag --record has been deprecated, --record will be removed in the future\ndeployment.apps/app-deployment edited\n")
	s.expect(`kubectl get deploy app-deployment -o jsonpath='{.metadata.annotations.kubernetes\.io/change-cause}'`,
		`kubectl edit deployment/app-deployment --record=true`)
}

func TestEditRejectedChangesReopenTheFile(t *testing.T) {
	s := newKubectlSession(t)
	s.run(appDeployment)
	got := s.run(`KUBE_EDITOR="sed -i s#replicas:.3#replicas:\ -1#" kubectl edit deploy/app-deployment`)
	lines := strings.Split(got, "\n")
	if len(lines) != 4 || lines[0] != `error: deployments.apps "app-deployment" is invalid` ||
		!strings.HasPrefix(lines[1], `A copy of your changes has been stored to "/tmp/kubectl-edit-`) ||
		lines[2] != "error: Edit cancelled, no valid changes were saved." {
		t.Errorf("got:\n%s", got)
	}
	// The header of the reopened file says why.
	file := strings.TrimSuffix(strings.TrimPrefix(lines[1], `A copy of your changes has been stored to "`), `"`)
	s.expect("head -6 "+file, "# Please edit the object below. Lines beginning with a '#' will be ignored,\n"+
		"# and an empty file will abort the edit. If an error occurs while saving this file will be\n"+
		"# reopened with the relevant failures.\n"+
		"#\n"+
		"# deployments.apps \"app-deployment\" was not valid:\n"+
		"# * spec.replicas: Invalid value: -1: must be greater than or equal to 0\n")
	s.expect("kubectl get deploy app-deployment -o jsonpath={.spec.replicas}", "3")
}

func TestEditErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl edit deploy/nope", "Error from server (NotFound): deployments.apps \"nope\" not found\n")
	s.expect("kubectl edit deploy", "error: edit cancelled, no objects found\n")
	s.run(appDeployment)
	s.expect("EDITOR=nosuchcommand kubectl edit deploy/app-deployment", "bash: nosuchcommand: command not found\nerror: unable to launch the editor \"nosuchcommand\"\n")
	// Indenting every line changes the text but not the object.
	s.expect(`KUBE_EDITOR="sed -i s#^#\ #" kubectl edit deploy/app-deployment`, "deployment.apps/app-deployment skipped\n")
	s.expect(`KUBE_EDITOR="sed -i s#^.*##" kubectl edit deploy/app-deployment`, "Edit cancelled, saved file was empty.\n")
}
