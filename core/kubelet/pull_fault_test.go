package kubelet_test

import (
	"strings"
	"testing"
	"time"
)

// A download the registry cannot serve in time (kubeplay registry fail)
// stalls for containerd's 30 s connect timeout, fails with ErrImagePull,
// backs off as ImagePullBackOff with that error in its message, and the
// next pull works.
func TestImageDownloadTimesOutOnce(t *testing.T) {
	c, term := cluster(t)
	if out := term.Run("kubeplay registry fail linuxduduniao/nginx:v1.0.1"); out != "the next download of linuxduduniao/nginx:v1.0.1 will time out\n" {
		t.Fatalf("kubeplay registry fail: %q", out)
	}
	applyWeb(t, term, "linuxduduniao/nginx:v1.0.1")
	c.Advance(30 * time.Second)
	if w := pod(t, c, "default", "web").Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "ContainerCreating" {
		t.Fatalf("after 30 s: waiting %+v, want the pull still stalled", w)
	}
	c.Advance(2 * time.Second)
	w := pod(t, c, "default", "web").Status.ContainerStatuses[0].State.Waiting
	timeout := `failed to resolve reference "docker.io/linuxduduniao/nginx:v1.0.1": failed to do request: Head "https://registry-1.docker.io/v2/linuxduduniao/nginx/manifests/v1.0.1": dial tcp 54.236.113.205:443: i/o timeout`
	if w == nil || w.Reason != "ErrImagePull" || !strings.HasSuffix(w.Message, timeout) {
		t.Fatalf("waiting %+v", w)
	}
	if !hasEvent(c, "web", `Failed: Failed to pull image "linuxduduniao/nginx:v1.0.1": rpc error: code = Unknown desc = failed to pull and unpack image`) {
		t.Fatalf("events %q", events(c, "web"))
	}
	c.Advance(5 * time.Second)
	w = pod(t, c, "default", "web").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "ImagePullBackOff" || !strings.HasSuffix(w.Message, timeout) {
		t.Fatalf("waiting %+v", w)
	}
	c.Advance(15 * time.Second)
	if st := pod(t, c, "default", "web").Status.ContainerStatuses[0]; st.State.Running == nil {
		t.Fatalf("after the back-off: %+v", st.State)
	}
}

// Only downloads count: with N = 2 the first download works, a second pod
// on the same node finds the image there, and the download on another
// node is the one that times out.
func TestImageDownloadFaultCountsDownloads(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Node
metadata:
  name: node02
`)
	term.Run("kubeplay registry fail nginx:1.14.2 2")
	podOn := func(name, node string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\nspec:\n  nodeName: " + node +
			"\n  containers:\n  - name: nginx\n    image: nginx:1.14.2\n"
	}
	apply(t, term, podOn("first", "node01"))
	c.Advance(10 * time.Second)
	apply(t, term, podOn("second", "node01"))
	apply(t, term, podOn("third", "node02"))
	c.Advance(10 * time.Second)
	for _, n := range []string{"first", "second"} {
		if st := pod(t, c, "default", n).Status.ContainerStatuses[0]; st.State.Running == nil {
			t.Fatalf("%s: %+v", n, st.State)
		}
	}
	if st := pod(t, c, "default", "third").Status.ContainerStatuses[0]; st.State.Waiting == nil || st.State.Waiting.Reason != "ContainerCreating" {
		t.Fatalf("third, 10 s into its download: %+v", st.State)
	}
	c.Advance(25 * time.Second)
	if st := pod(t, c, "default", "third").Status.ContainerStatuses[0]; st.State.Waiting == nil || st.State.Waiting.Reason != "ErrImagePull" {
		t.Fatalf("third, after the timeout: %+v", st.State)
	}
	if out := term.Run("kubeplay registry fail nginx:1.99.99"); !strings.Contains(out, "not found") {
		t.Fatalf("an image the registry does not have: %q", out)
	}
}
