package daemon_test

import (
	"os"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/api/defaults"
	"kubeplay/core/client"
	"kubeplay/core/controller/daemon"
)

// seed000DS is seed 000's nginx-ds.
const seed000DS = `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: nginx-ds
  namespace: default
spec:
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx
`

func decodeDS(t *testing.T, doc []byte) *api.DaemonSet {
	t.Helper()
	obj, err := codec.DecodeYAML(doc, codec.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*api.DaemonSet)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The hashes a real v1.32 cluster gave the seeds' DaemonSet templates
// (real-v1.32/s0-statefulset-daemonset-leases.session and
// s2-daemonset-proxy.session).
func TestComputeHashMatchesRealCluster(t *testing.T) {
	cases := []struct {
		name string
		doc  []byte
		want string
	}{
		{"seed 000 nginx-ds", []byte(seed000DS), "5869d7778c"},
		{"seed 002 proxy v1.12", readFile(t, "testdata/proxy-v1.12.yaml"), "5cdb444bb7"},
		{"seed 002 proxy v1.13", readFile(t, "testdata/proxy-v1.13.yaml"), "8569b4d8b5"},
	}
	for _, c := range cases {
		ds := decodeDS(t, c.doc)
		defaults.Default(ds)
		if got := daemon.ComputeHash(&ds.Spec.Template, nil); got != c.want {
			t.Errorf("%s: hash %s, want %s", c.name, got, c.want)
		}
	}
}

// Through the controller: revision name and pod label as the real cluster.
func TestSeed000RevisionAndLabels(t *testing.T) {
	c, cl := newCluster(t)
	addNode(t, c, cl, "mac-k8s", map[string]string{"node-role.kubernetes.io/control-plane": ""})
	mustCreate(t, c, cl, decodeDS(t, []byte(seed000DS)))
	crs := client.List[*api.ControllerRevision](cl, "default", nil)
	if len(crs) != 1 || crs[0].Name != "nginx-ds-5869d7778c" {
		t.Fatalf("revisions %+v", crs)
	}
	if p := podOn(t, cl, "mac-k8s"); p.Labels["controller-revision-hash"] != "5869d7778c" || p.Labels["pod-template-generation"] != "1" {
		t.Fatalf("labels %v", p.Labels)
	}
}
