package statefulset_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/statefulset"
	"kubeplay/core/sim"
)

// On a whole cluster (scheduler, kubelets, volume provisioning) the pods
// start one after another and each claim is bound.
func TestStatefulSetOnWholeCluster(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	c.AddWorker(statefulset.NewStatefulSetController(c.ControllerContext()))
	cl := c.Client("test")
	mustCreate(t, cl, newSet("web", 3, true))
	c.Advance(2 * time.Minute)
	if got := podStates(cl); got != "web-0:Running/ready web-1:Running/ready web-2:Running/ready" {
		t.Fatalf("pods %s", got)
	}
	ps := pods(cl)
	if !ps[0].CreationTimestamp.Before(ps[1].CreationTimestamp.Time) || !ps[1].CreationTimestamp.Before(ps[2].CreationTimestamp.Time) {
		t.Fatalf("pods not created in order: %v %v %v", ps[0].CreationTimestamp, ps[1].CreationTimestamp, ps[2].CreationTimestamp)
	}
	for _, claim := range client.List[*api.PersistentVolumeClaim](cl, "default", nil) {
		if claim.Status.Phase != api.ClaimBound {
			t.Fatalf("claim %s is %s", claim.Name, claim.Status.Phase)
		}
	}
	st := getSet(t, cl, "web").Status
	if st.ReadyReplicas != 3 || st.AvailableReplicas != 3 {
		t.Fatalf("status %+v", st)
	}
}

// Seed 003's trap on a whole cluster: the kubelet cannot pull the broken
// image, the rollout stalls there, reverting the template leaves the
// broken pod, and deleting it finishes the rollback.
func TestBrokenRolloutOnWholeCluster(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	c.AddWorker(statefulset.NewStatefulSetController(c.ControllerContext()))
	cl := c.Client("test")
	mustCreate(t, cl, newSet("web", 3, false))
	c.Advance(time.Minute)
	setImage(t, cl, "web", "nginx:no-such-tag")
	c.Advance(2 * time.Minute)
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:no-such-tag" {
		t.Fatalf("images %s (%s)", got, podStates(cl))
	}
	setImage(t, cl, "web", "nginx:1.25")
	c.Advance(2 * time.Minute)
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:no-such-tag" {
		t.Fatalf("after revert: images %s", got)
	}
	if err := client.Delete[*api.Pod](cl, "default", "web-2", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * time.Minute)
	if got := podStates(cl); got != "web-0:Running/ready web-1:Running/ready web-2:Running/ready" {
		t.Fatalf("after deleting the stuck pod: %s (%s)", got, images(cl))
	}
}
