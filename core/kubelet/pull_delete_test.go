package kubelet_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// A pod deleted while its image is still being pulled leaves the API soon
// after, whenever in the pull the delete comes (a pull that ends during
// the volume teardown once swallowed the teardown's wake-up).
func TestPodDeletedDuringImagePullGoes(t *testing.T) {
	for wait := 1500 * time.Millisecond; wait <= 12*time.Second; wait += 250 * time.Millisecond {
		c, term := cluster(t)
		applyWeb(t, term, "nginx:1.16.1")
		c.Advance(wait)
		term.Run("kubectl delete pod web --wait=false")
		c.Advance(5 * time.Second)
		if _, err := client.Get[*api.Pod](c.Client("test"), "default", "web"); err == nil {
			t.Fatalf("deleted %v after creation, the pod is still there 5 s later:\n%s", wait, term.Run("kubectl describe pod web"))
		}
	}
}
