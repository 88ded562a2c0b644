package cronjob_test

import (
	"reflect"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/cronjob"
	"kubeplay/core/controller/job"
	"kubeplay/core/sim"
)

// newCluster runs the Job and CronJob controllers and a fake kubelet
// whose pods succeed runFor after they start.
func newCluster(t *testing.T, runFor time.Duration) (*sim.Cluster, client.Interface) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	ctx := c.ControllerContext()
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(cronjob.NewController(ctx))
	c.AddWorker(newFakeKubelet(ctx, runFor))
	return c, c.Client("test")
}

// hello is the seed's CronJob (batch/v1 in v1.32).
func hello(policy string) *api.CronJob {
	return &api.CronJob{
		ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default"},
		Spec: api.CronJobSpec{
			Schedule:                   "*/1 * * * *",
			ConcurrencyPolicy:          policy,
			SuccessfulJobsHistoryLimit: api.Int32(3),
			FailedJobsHistoryLimit:     api.Int32(10),
			JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyOnFailure,
				Containers: []api.Container{{Name: "hello", Image: "busybox", ImagePullPolicy: "IfNotPresent",
					Args: []string{"/bin/sh", "-c", "date; echo Hello from the Kubernetes cluster"}}},
			}}}},
		},
	}
}

func cronEvents(cl client.Interface, name string) []string {
	var out []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Kind == "CronJob" && e.InvolvedObject.Name == name {
			out = append(out, e.Reason+" "+e.Message)
		}
	}
	return out
}

func jobNames(cl client.Interface) []string {
	var out []string
	for _, j := range client.List[*api.Job](cl, "default", nil) {
		out = append(out, j.Name)
	}
	return out
}

// The seed's session (real-v1.32/s0-s2-jobs.session): a CronJob created at
// 11:32:49 that runs every minute, with pods that finish at once, has made
// hello-29922453 … hello-29922456 by 11:36:59, kept the newest three, and
// recorded its events in upstream's order.
func TestCronJobEveryMinuteMatchesSeed(t *testing.T) {
	c, cl := newCluster(t, 0)
	c.Advance(3*time.Minute + 49*time.Second)
	if _, err := client.Create(cl, hello(api.ForbidConcurrent)); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if got := jobNames(cl); len(got) != 0 {
		t.Fatalf("jobs before the first minute: %v", got)
	}
	c.Advance(250 * time.Second)

	if got, want := jobNames(cl), []string{"hello-29922454", "hello-29922455", "hello-29922456"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
	want := []string{
		"SuccessfulCreate Created job hello-29922453",
		"SawCompletedJob Saw completed job: hello-29922453, condition: Complete",
		"SuccessfulCreate Created job hello-29922454",
		"SawCompletedJob Saw completed job: hello-29922454, condition: Complete",
		"SuccessfulCreate Created job hello-29922455",
		"SawCompletedJob Saw completed job: hello-29922455, condition: Complete",
		"SuccessfulCreate Created job hello-29922456",
		"SuccessfulDelete Deleted job hello-29922453",
		"SawCompletedJob Saw completed job: hello-29922456, condition: Complete",
	}
	if got := cronEvents(cl, "hello"); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n%q\nwant\n%q", got, want)
	}
	j, err := client.Get[*api.Job](cl, "default", "hello-29922456")
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Annotations[api.CronJobScheduledTimestampAnnotation]; got != "2026-11-22T11:36:00Z" {
		t.Errorf("scheduled-timestamp annotation %q", got)
	}
	if ref := j.GetControllerOf(); ref == nil || ref.Kind != "CronJob" || ref.Name != "hello" || ref.APIVersion != "batch/v1" {
		t.Errorf("owner %+v", ref)
	}
	if d := j.Status.CompletionTime.Sub(j.Status.StartTime.Time); d != time.Second {
		t.Errorf("job duration %v, want 1s as in the seed", d)
	}
	cj, _ := client.Get[*api.CronJob](cl, "default", "hello")
	if len(cj.Status.Active) != 0 || !cj.Status.LastScheduleTime.Equal(time.Date(2026, 11, 22, 11, 36, 0, 0, time.UTC)) ||
		!cj.Status.LastSuccessfulTime.Equal(time.Date(2026, 11, 22, 11, 36, 1, 0, time.UTC)) {
		t.Fatalf("cronjob status %+v", cj.Status)
	}
}

// With Forbid, a job still running at the next minute holds the schedule
// back (JobAlreadyActive); the missed minute is then run late, once.
func TestCronJobForbid(t *testing.T) {
	c, cl := newCluster(t, 90*time.Second)
	if _, err := client.Create(cl, hello(api.ForbidConcurrent)); err != nil {
		t.Fatal(err)
	}
	c.Advance(3*time.Minute + 30*time.Second) // to 11:32:30
	// 11:30 runs until 11:31:30; 11:31 is held back, then started late at
	// 11:31:31 (its job keeps the 11:31 name) and runs until 11:33:01.
	// 11:32 is held back too: the recorder folds the repeated event into
	// one with count 2, as client-go's correlator does.
	got := cronEvents(cl, "hello")
	want := []string{
		"SuccessfulCreate Created job hello-29922450",
		"JobAlreadyActive Not starting job because prior execution is running and concurrency policy is Forbid",
		"SawCompletedJob Saw completed job: hello-29922450, condition: Complete",
		"SuccessfulCreate Created job hello-29922451",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n%q\nwant\n%q", got, want)
	}
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.Reason == "JobAlreadyActive" && e.Count != 2 {
			t.Errorf("JobAlreadyActive count %d, want 2", e.Count)
		}
	}
	j, _ := client.Get[*api.Job](cl, "default", "hello-29922451")
	if got := j.CreationTimestamp.Time; !got.Equal(time.Date(2026, 11, 22, 11, 31, 31, 0, time.UTC)) {
		t.Errorf("late job created at %v", got)
	}
}

// With Replace, the running job is deleted for the new one.
func TestCronJobReplace(t *testing.T) {
	c, cl := newCluster(t, 90*time.Second)
	if _, err := client.Create(cl, hello(api.ReplaceConcurrent)); err != nil {
		t.Fatal(err)
	}
	c.Advance(2*time.Minute + 10*time.Second) // to 11:31:10
	want := []string{
		"SuccessfulCreate Created job hello-29922450",
		"SuccessfulDelete Deleted job hello-29922450",
		"SuccessfulCreate Created job hello-29922451",
	}
	if got := cronEvents(cl, "hello"); !reflect.DeepEqual(got, want) {
		t.Fatalf("events\n%q\nwant\n%q", got, want)
	}
	cj, _ := client.Get[*api.CronJob](cl, "default", "hello")
	if len(cj.Status.Active) != 1 || cj.Status.Active[0].Name != "hello-29922451" {
		t.Fatalf("active %+v", cj.Status.Active)
	}
}

// A suspended CronJob creates nothing; resumed, it runs the most recent
// missed time once.
func TestCronJobSuspend(t *testing.T) {
	c, cl := newCluster(t, 0)
	cj := hello(api.AllowConcurrent)
	cj.Spec.Suspend = api.Bool(true)
	if _, err := client.Create(cl, cj); err != nil {
		t.Fatal(err)
	}
	c.Advance(3*time.Minute + 30*time.Second)
	if got := jobNames(cl); len(got) != 0 {
		t.Fatalf("suspended cronjob made %v", got)
	}
	cur, _ := client.Get[*api.CronJob](cl, "default", "hello")
	cur = cur.DeepCopy()
	cur.Spec.Suspend = api.Bool(false)
	if _, err := client.Update(cl, cur); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if got, want := jobNames(cl), []string{"hello-29922452"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
}
