package cronjob_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/cronjob"
	"kubeplay/core/controller/job"
	"kubeplay/core/sim"
)

func resume(t *testing.T, cl client.Interface) {
	t.Helper()
	cur, err := client.Get[*api.CronJob](cl, "default", "hello")
	if err != nil {
		t.Fatal(err)
	}
	cur = cur.DeepCopy()
	cur.Spec.Suspend = api.Bool(false)
	if _, err := client.Update(cl, cur); err != nil {
		t.Fatal(err)
	}
}

// More than a hundred missed start times: a warning, and only the most
// recent one runs.
func TestCronJobTooManyMissedStartTimes(t *testing.T) {
	c, cl := newCluster(t, 0)
	cj := hello(api.AllowConcurrent)
	cj.Spec.Suspend = api.Bool(true)
	if _, err := client.Create(cl, cj); err != nil {
		t.Fatal(err)
	}
	c.Advance(2*time.Hour + 30*time.Second) // from 11:29:00 to 13:29:30
	resume(t, cl)
	c.Settle()
	if got, want := jobNames(cl), []string{"hello-29922569"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
	want := "TooManyMissedTimes too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew"
	if got := cronEvents(cl, "hello"); !slices.Contains(got, want) {
		t.Fatalf("events %q lack %q", got, want)
	}
}

// startingDeadlineSeconds: a start time missed by more than the deadline
// is skipped silently; the next one runs on time.
func TestCronJobStartingDeadlineSkipsLateStart(t *testing.T) {
	c, cl := newCluster(t, 0)
	cj := hello(api.AllowConcurrent)
	cj.Spec.Suspend = api.Bool(true)
	cj.Spec.StartingDeadlineSeconds = api.Int64(10)
	if _, err := client.Create(cl, cj); err != nil {
		t.Fatal(err)
	}
	c.Advance(90 * time.Second) // 11:30:30, 30 s after the 11:30 start time
	resume(t, cl)
	c.Settle()
	if got := jobNames(cl); len(got) != 0 {
		t.Fatalf("a start 30 s late ran despite a 10 s deadline: %v", got)
	}
	c.Advance(31 * time.Second) // past 11:31
	if got, want := jobNames(cl), []string{"hello-29922451"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v", got, want)
	}
	if got := cronEvents(cl, "hello"); !reflect.DeepEqual(got, []string{"SuccessfulCreate Created job hello-29922451"}) {
		t.Fatalf("events %q", got)
	}
}

// failedJobsHistoryLimit keeps the newest failed jobs and deletes the
// rest, oldest first, on real kubelets running a failing command.
func TestCronJobFailedJobsHistoryLimit(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	ctx := c.ControllerContext()
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(cronjob.NewController(ctx))
	c.AddWorker(newBinder(ctx))
	cl := c.Client("test")
	cj := hello(api.AllowConcurrent)
	cj.Spec.FailedJobsHistoryLimit = api.Int32(1)
	cj.Spec.JobTemplate.Spec.BackoffLimit = api.Int32(0)
	tpl := &cj.Spec.JobTemplate.Spec.Template.Spec
	tpl.RestartPolicy = api.RestartPolicyNever
	tpl.Containers[0].Args = []string{"/bin/sh", "-c", "echo failing; exit 1"}
	if _, err := client.Create(cl, cj); err != nil {
		t.Fatal(err)
	}
	c.Advance(3*time.Minute + 30*time.Second) // 11:29:00 → 11:32:30: runs at 11:30, 11:31, 11:32
	if got, want := jobNames(cl), []string{"hello-29922452"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v (events %q)", got, want, cronEvents(cl, "hello"))
	}
	var deleted []string
	for _, e := range cronEvents(cl, "hello") {
		if after, ok := strings.CutPrefix(e, "SuccessfulDelete Deleted job "); ok {
			deleted = append(deleted, after)
		}
	}
	if want := []string{"hello-29922450", "hello-29922451"}; !reflect.DeepEqual(deleted, want) {
		t.Fatalf("deleted %v, want %v", deleted, want)
	}
	j, _ := client.Get[*api.Job](cl, "default", "hello-29922452")
	if !hasCondition(j, api.JobFailed) {
		t.Fatalf("the kept job has not failed: %+v", j.Status.Conditions)
	}
}

func hasCondition(j *api.Job, typ string) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == typ && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}
