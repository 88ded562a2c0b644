package ttlafterfinished_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/controller/garbagecollector"
	"kubeplay/core/controller/job"
	"kubeplay/core/controller/ttlafterfinished"
	"kubeplay/core/sim"
)

func newJob(name string, ttl *int32) *api.Job {
	return &api.Job{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.JobSpec{
			TTLSecondsAfterFinished: ttl,
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever,
				Containers:    []api.Container{{Name: "main", Image: "busybox"}},
			}},
		},
	}
}

// succeedPods ends every pod of the cluster successfully, as a kubelet would.
func succeedPods(t *testing.T, c *sim.Cluster, cl client.Interface) {
	t.Helper()
	now := api.NewTime(c.Now())
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		p = p.DeepCopy()
		p.Status.Phase = api.PodSucceeded
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
			Terminated: &api.ContainerStateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now},
		}}}
		if _, err := client.UpdateStatus(cl, p); err != nil {
			t.Fatal(err)
		}
	}
}

func exists(t *testing.T, cl client.Interface, name string) bool {
	t.Helper()
	_, err := client.Get[*api.Job](cl, "default", name)
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// A finished Job with ttlSecondsAfterFinished 100 is deleted, pods and
// all, 100 s after its Complete condition; one without a TTL stays.
func TestDeletesFinishedJobAfterTTL(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	ctx := c.ControllerContext()
	c.AddWorker(garbagecollector.NewGarbageCollector(ctx))
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(ttlafterfinished.New(ctx))
	cl := c.Client("test")
	for _, j := range []*api.Job{newJob("pi", api.Int32(100)), newJob("keep", nil)} {
		if _, err := client.Create(cl, j); err != nil {
			t.Fatal(err)
		}
	}
	c.Settle()
	succeedPods(t, c, cl)
	c.Advance(time.Second)
	pi, _ := client.Get[*api.Job](cl, "default", "pi")
	if !job.IsJobSucceeded(pi) {
		t.Fatalf("pi not complete: %+v", pi.Status)
	}
	c.Advance(99 * time.Second)
	if !exists(t, cl, "pi") {
		t.Fatal("pi deleted before its TTL")
	}
	c.Advance(time.Second)
	if exists(t, cl, "pi") {
		t.Fatal("pi not deleted at its TTL")
	}
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if p.Labels[api.JobNameLabel] == "pi" {
			t.Errorf("pod %s of pi left", p.Name)
		}
	}
	if !exists(t, cl, "keep") {
		t.Fatal("a job without TTL was deleted")
	}
}
