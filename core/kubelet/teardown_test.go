package kubelet_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// A deleted pod whose containers have stopped stays in the API, in its
// final phase, until its volumes are unmounted; then the kubelet deletes
// it. A pod deleted before its sandbox (and volumes) existed goes at once.
func TestDeletedPodWaitsForVolumeTeardown(t *testing.T) {
	c, term := cluster(t)
	applyWeb(t, term, "nginx:1.14.2")
	c.Advance(10 * time.Second)
	term.Run("kubectl delete pod web --wait=false")
	p := pod(t, c, "default", "web")
	if p.Status.Phase != api.PodSucceeded || p.Status.ContainerStatuses[0].State.Terminated == nil {
		t.Fatalf("right after the delete: phase %s, state %+v", p.Status.Phase, p.Status.ContainerStatuses[0].State)
	}
	c.Advance(500 * time.Millisecond)
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "web"); err != nil {
		t.Fatal("gone before its volumes were unmounted")
	}
	c.Advance(500 * time.Millisecond)
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "web"); err == nil {
		t.Fatal("still there a second after the delete")
	}

	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: early
spec:
  nodeName: node01
  containers:
  - name: nginx
    image: nginx:1.14.2
`)
	term.Run("kubectl delete pod early --wait=false")
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "early"); err == nil {
		t.Fatal("a pod without a sandbox is still there after its delete")
	}
}
