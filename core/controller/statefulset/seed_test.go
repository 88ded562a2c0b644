package statefulset_test

import (
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/client"
)

// seed002Web is seed 002's nginx-web StatefulSet (namespace moved to
// default; a revision's hash depends only on the template).
const seed002Web = `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: nginx-web
  labels:
    app: nginx
    role: web
spec:
  replicas: 2
  serviceName: my-svc
  selector:
    matchLabels:
      app: nginx-web
      role: web
      state: "true"
  template:
    metadata:
      labels:
        app: nginx-web
        role: web
        state: "true"
    spec:
      containers:
      - name: nginx-web
        image: linuxduduniao/nginx:v1.0.0
        ports:
        - name: http
          containerPort: 80
        readinessProbe:
          httpGet:
            port: 80
            path: /health
        volumeMounts:
        - name: nginx-web
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: nginx-web
    spec:
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 2Gi
      storageClassName: managed-nfs-storage
`

// The revision names and claim names a real v1.32 cluster printed for
// seed 002 (real-v1.32/s2-statefulset.session).
func TestSeed002RevisionsAndClaimsMatchRealCluster(t *testing.T) {
	c, cl := newCluster(t)
	obj, err := codec.DecodeYAML([]byte(seed002Web), codec.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set := obj.(*api.StatefulSet)
	set.Namespace = "default"
	mustCreate(t, cl, set)
	c.Settle()
	readyAll(t, c, cl)
	if got := claimNames(cl); got != "nginx-web-nginx-web-0 nginx-web-nginx-web-1" {
		t.Fatalf("claims %q", got)
	}
	for _, step := range []struct{ image, revision string }{
		{"", "nginx-web-5f46df5564"},
		{"linuxduduniao/nginx:v1.0.1", "nginx-web-758fc8dd4c"},
		{"linuxduduniao/nginx:v1.0.2", "nginx-web-76fdd7cbdb"},
	} {
		if step.image != "" {
			setImage(t, cl, "nginx-web", step.image)
			c.Settle()
			readyAll(t, c, cl)
		}
		if got := getSet(t, cl, "nginx-web").Status.UpdateRevision; got != step.revision {
			t.Errorf("image %q: revision %s, want %s", step.image, got, step.revision)
		}
	}
	var revs []string
	for _, r := range client.List[*api.ControllerRevision](cl, "default", nil) {
		revs = append(revs, r.Name)
	}
	if got := strings.Join(revs, " "); got != "nginx-web-5f46df5564 nginx-web-758fc8dd4c nginx-web-76fdd7cbdb" {
		t.Fatalf("revisions %s", got)
	}
}
