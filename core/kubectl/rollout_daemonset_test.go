package kubectl_test

import (
	"encoding/json"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

const proxyDaemonSet = `kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: proxy
spec:
  selector:
    matchLabels:
      app: proxy
  template:
    metadata:
      labels:
        app: proxy
    spec:
      containers:
      - name: nginx
        image: nginx:1.12
EOF`

// addRevision stores a ControllerRevision for the DaemonSet as its
// controller would: the template as a strategic merge patch that replaces it.
func addRevision(t *testing.T, s *kubectlSession, rev int64, image, cause string) {
	t.Helper()
	c := s.term.Cluster.Client("daemon-set-controller")
	ds, err := client.Get[*api.DaemonSet](c, "default", "proxy")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := ds.Spec.Template.DeepCopy()
	tmpl.Spec.Containers[0].Image = image
	raw, _ := json.Marshal(tmpl)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	m["$patch"] = "replace"
	data, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": m}})
	yes := true
	cr := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{
			Name: "proxy-" + image[len(image)-4:], Namespace: "default", Labels: map[string]string{"app": "proxy"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "proxy", UID: ds.UID, Controller: &yes}},
		},
		Revision: rev,
	}
	if cause != "" {
		cr.Annotations = map[string]string{"kubernetes.io/change-cause": cause}
	}
	cr.Data.Raw = data
	if _, err := client.Create(c, cr); err != nil {
		t.Fatal(err)
	}
}

func TestRolloutOfADaemonSet(t *testing.T) {
	s := newKubectlSession(t)
	s.run(proxyDaemonSet)
	s.run("sleep 10")
	s.expect("kubectl rollout history ds/proxy", "daemonset.apps/proxy \nREVISION  CHANGE-CAUSE\n1         <none>\n\n")
	s.expect("kubectl rollout undo ds/proxy", "error: no last revision to roll back to\n")
	s.run("kubectl set image ds/proxy nginx=nginx:1.13")
	s.run("sleep 30")
	s.expect("kubectl rollout status ds/proxy", "daemon set \"proxy\" successfully rolled out\n")
	s.expect("kubectl rollout history ds/proxy", "daemonset.apps/proxy \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n")
	s.expect("kubectl rollout undo ds/proxy --to-revision=2", "daemonset.apps/proxy skipped rollback (current template already matches revision 2)\n")
	s.expect("kubectl rollout undo ds/proxy", "daemonset.apps/proxy rolled back\n")
	s.expect("kubectl get ds proxy -o jsonpath={.spec.template.spec.containers[0].image}", "nginx:1.12")
	s.expect("kubectl rollout pause ds/proxy", "error: daemonsets.apps \"proxy\" pausing is not supported\n")
}
