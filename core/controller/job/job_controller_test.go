package job_test

import (
	"reflect"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// A job with completions 3 and parallelism 2 runs two pods at a time,
// counts each success once (finalizer first, counter after) and ends with
// SuccessCriteriaMet then Complete, as v1.32 does.
func TestJobCompletes(t *testing.T) {
	c, cl := newCluster(t)
	start := c.Now()
	j := mustCreate(t, cl, newJob("pi", api.Int32(3), api.Int32(2), api.RestartPolicyNever))
	c.Settle()

	pods := jobPods(cl, "pi")
	if len(pods) != 2 {
		t.Fatalf("got %d pods, want 2", len(pods))
	}
	for _, p := range pods {
		if !p.HasFinalizer(api.JobTrackingFinalizer) {
			t.Errorf("pod %s has no tracking finalizer: %v", p.Name, p.Finalizers)
		}
		want := map[string]string{
			api.ControllerUidLabel: j.UID, api.JobNameLabel: "pi",
			api.LegacyControllerUidLabel: j.UID, api.LegacyJobNameLabel: "pi",
		}
		if !reflect.DeepEqual(p.Labels, want) {
			t.Errorf("pod %s labels %v, want %v", p.Name, p.Labels, want)
		}
		if p.GenerateName != "pi-" {
			t.Errorf("pod generateName %q", p.GenerateName)
		}
	}
	got := getJob(t, cl, "pi")
	if got.Status.Active != 2 || deref(got.Status.Ready) != 0 || deref(got.Status.Terminating) != 0 ||
		got.Status.StartTime == nil || !got.Status.StartTime.Equal(start) || got.Status.UncountedTerminatedPods == nil {
		t.Fatalf("status after create: %+v", got.Status)
	}

	for _, p := range pods {
		setRunning(t, c, cl, p)
	}
	c.Advance(second)
	if got := getJob(t, cl, "pi"); deref(got.Status.Ready) != 2 {
		t.Fatalf("ready = %d, want 2", deref(got.Status.Ready))
	}

	setFinished(t, c, cl, pods[0], 0)
	c.Advance(second)
	got = getJob(t, cl, "pi")
	if got.Status.Succeeded != 1 || got.Status.Active != 2 || len(got.Status.UncountedTerminatedPods.Succeeded) != 0 {
		t.Fatalf("after one success: %+v", got.Status)
	}
	if fresh(t, cl, pods[0]).HasFinalizer(api.JobTrackingFinalizer) {
		t.Fatal("counted pod keeps its finalizer")
	}
	pods = jobPods(cl, "pi")
	if len(pods) != 3 {
		t.Fatalf("got %d pods, want a third", len(pods))
	}

	setFinished(t, c, cl, pods[1], 0)
	setFinished(t, c, cl, pods[2], 0)
	finish := c.Now()
	c.Advance(second)
	got = getJob(t, cl, "pi")
	if got.Status.Succeeded != 3 || got.Status.Active != 0 || got.Status.Failed != 0 {
		t.Fatalf("final status: %+v", got.Status)
	}
	if want := "SuccessCriteriaMet=True/CompletionsReached Complete=True/CompletionsReached"; conditions(got) != want {
		t.Fatalf("conditions %q, want %q", conditions(got), want)
	}
	if got.Status.Conditions[1].Message != "Reached expected number of succeeded pods" {
		t.Errorf("message %q", got.Status.Conditions[1].Message)
	}
	if got.Status.CompletionTime == nil || !got.Status.CompletionTime.Equal(finish.Add(second)) {
		t.Errorf("completionTime %v, want %v", got.Status.CompletionTime, finish.Add(second))
	}
	for _, p := range jobPods(cl, "pi") {
		if p.HasFinalizer(api.JobTrackingFinalizer) {
			t.Errorf("pod %s keeps its finalizer", p.Name)
		}
	}
	// The first two pods were created at one instant, in either order.
	first := []string{pods[0].Name, pods[1].Name}
	if ev := events(cl, "Job", "pi"); len(ev) == 4 && ev[0] == "Normal SuccessfulCreate Created pod: "+pods[1].Name {
		first[0], first[1] = first[1], first[0]
	}
	wantEvents := []string{
		"Normal SuccessfulCreate Created pod: " + first[0],
		"Normal SuccessfulCreate Created pod: " + first[1],
		"Normal SuccessfulCreate Created pod: " + pods[2].Name,
		"Normal Completed Job completed",
	}
	if ev := events(cl, "Job", "pi"); !reflect.DeepEqual(ev, wantEvents) {
		t.Fatalf("events\n%q\nwant\n%q", ev, wantEvents)
	}
	// Nothing more happens.
	rv := got.ResourceVersion
	c.Advance(10 * second)
	if getJob(t, cl, "pi").ResourceVersion != rv {
		t.Fatal("a finished job was written again")
	}
}

// Each failed pod is replaced after 10 s, 20 s, 40 s (doubling since the
// last success); the failure past backoffLimit fails the job with
// FailureTarget then Failed, reason BackoffLimitExceeded.
func TestJobBackoffLimitExceeded(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("fail", nil, nil, api.RestartPolicyNever)
	j.Spec.BackoffLimit = api.Int32(3)
	mustCreate(t, cl, j)
	c.Settle()
	start := c.Now()

	var created []string
	var names []string
	for i := 0; i < 4; i++ {
		active := activePods(cl, "fail")
		for step := 0; len(active) == 0 && step < 120; step++ {
			c.Advance(second)
			active = activePods(cl, "fail")
		}
		if len(active) != 1 {
			t.Fatalf("attempt %d: %d active pods", i+1, len(active))
		}
		p := active[0]
		created = append(created, p.CreationTimestamp.Sub(start).String())
		names = append(names, p.Name)
		setFinished(t, c, cl, p, 1)
	}
	c.Advance(second)

	if want := []string{"0s", "10s", "30s", "1m10s"}; !reflect.DeepEqual(created, want) {
		t.Fatalf("pods created at %v, want %v", created, want)
	}
	got := getJob(t, cl, "fail")
	if want := "FailureTarget=True/BackoffLimitExceeded Failed=True/BackoffLimitExceeded"; conditions(got) != want {
		t.Fatalf("conditions %q, want %q", conditions(got), want)
	}
	if got.Status.Conditions[1].Message != "Job has reached the specified backoff limit" {
		t.Errorf("message %q", got.Status.Conditions[1].Message)
	}
	if got.Status.Failed != 4 || got.Status.Active != 0 || got.Status.CompletionTime != nil {
		t.Fatalf("status %+v", got.Status)
	}
	var want []string
	for _, n := range names {
		want = append(want, "Normal SuccessfulCreate Created pod: "+n)
	}
	want = append(want, "Warning BackoffLimitExceeded Job has reached the specified backoff limit")
	if ev := events(cl, "Job", "fail"); !reflect.DeepEqual(ev, want) {
		t.Fatalf("events\n%q\nwant\n%q", ev, want)
	}
}

// With restartPolicy OnFailure the kubelet restarts containers in place;
// their restarts count toward backoffLimit and the job fails, deleting
// the pod.
func TestJobOnFailureRestartsCount(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("retry", nil, nil, api.RestartPolicyOnFailure)
	j.Spec.BackoffLimit = api.Int32(2)
	mustCreate(t, cl, j)
	c.Settle()
	p := jobPods(cl, "retry")[0]
	setRunning(t, c, cl, p)
	p = fresh(t, cl, p)
	p.Status.ContainerStatuses[0].RestartCount = 2
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
	c.Advance(second)
	// The deleted pod was terminating when FailureTarget was written:
	// Failed follows at the next sync.
	if got := getJob(t, cl, "retry"); conditions(got) != "FailureTarget=True/BackoffLimitExceeded" || deref(got.Status.Terminating) != 1 {
		t.Fatalf("first: conditions %q terminating %d", conditions(got), deref(got.Status.Terminating))
	}
	c.Advance(second)
	got := getJob(t, cl, "retry")
	if want := "FailureTarget=True/BackoffLimitExceeded Failed=True/BackoffLimitExceeded"; conditions(got) != want {
		t.Fatalf("conditions %q, want %q (status %+v)", conditions(got), want, got.Status)
	}
	if got.Status.Failed != 1 || len(jobPods(cl, "retry")) != 0 {
		t.Fatalf("status %+v, pods %d", got.Status, len(jobPods(cl, "retry")))
	}
	ev := events(cl, "Job", "retry")
	if len(ev) != 3 || ev[1] != "Normal SuccessfulDelete Deleted pod: "+p.Name {
		t.Fatalf("events %q", ev)
	}
}

// activeDeadlineSeconds: the controller wakes when the deadline passes,
// deletes the running pods (counting them failed) and fails the job with
// DeadlineExceeded once they are gone.
func TestJobActiveDeadline(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("slow", api.Int32(4), api.Int32(2), api.RestartPolicyNever)
	j.Spec.ActiveDeadlineSeconds = api.Int64(30)
	mustCreate(t, cl, j)
	c.Settle()
	pods := jobPods(cl, "slow")
	for _, p := range pods {
		setRunning(t, c, cl, p)
	}
	c.Advance(29 * second)
	if got := getJob(t, cl, "slow"); len(got.Status.Conditions) != 0 || got.Status.Active != 2 {
		t.Fatalf("before the deadline: %+v", got.Status)
	}
	c.Advance(second)
	got := getJob(t, cl, "slow")
	if conditions(got) != "FailureTarget=True/DeadlineExceeded" {
		t.Fatalf("at the deadline: conditions %q", conditions(got))
	}
	c.Advance(second)
	got = getJob(t, cl, "slow")
	if want := "FailureTarget=True/DeadlineExceeded Failed=True/DeadlineExceeded"; conditions(got) != want {
		t.Fatalf("conditions %q, want %q", conditions(got), want)
	}
	if got.Status.Conditions[1].Message != "Job was active longer than specified deadline" {
		t.Errorf("message %q", got.Status.Conditions[1].Message)
	}
	if got.Status.Failed != 2 || got.Status.Active != 0 || deref(got.Status.Terminating) != 0 || deref(got.Status.Ready) != 0 {
		t.Fatalf("status %+v", got.Status)
	}
	if n := len(jobPods(cl, "slow")); n != 0 {
		t.Fatalf("%d pods left", n)
	}
	ev := events(cl, "Job", "slow")
	if len(ev) != 5 || ev[2][:23] != "Normal SuccessfulDelete" || ev[3][:23] != "Normal SuccessfulDelete" ||
		ev[4] != "Warning DeadlineExceeded Job was active longer than specified deadline" {
		t.Fatalf("events %q", ev)
	}
}

// An Indexed job gives each pod its index (annotation, label, hostname,
// JOB_COMPLETION_INDEX), replaces a failed index with the same index and
// reports completed indexes as intervals.
func TestIndexedJob(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("idx", api.Int32(3), api.Int32(3), api.RestartPolicyNever)
	j.Spec.CompletionMode = api.String(api.IndexedCompletion)
	mustCreate(t, cl, j)
	c.Settle()
	byIndex := func() map[string]*api.Pod {
		m := map[string]*api.Pod{}
		for _, p := range activePods(cl, "idx") {
			m[p.Annotations[api.JobCompletionIndexAnnotation]] = p
		}
		return m
	}
	pods := byIndex()
	if len(pods) != 3 {
		t.Fatalf("pods by index: %v", pods)
	}
	for ix, p := range pods {
		if p.GenerateName != "idx-"+ix+"-" || p.Labels[api.JobCompletionIndexAnnotation] != ix || p.Spec.Hostname != "idx-"+ix {
			t.Errorf("index %s: generateName %q labels %v hostname %q", ix, p.GenerateName, p.Labels, p.Spec.Hostname)
		}
		env := p.Spec.Containers[0].Env
		if len(env) != 1 || env[0].Name != "JOB_COMPLETION_INDEX" || env[0].ValueFrom == nil || env[0].ValueFrom.FieldRef == nil ||
			env[0].ValueFrom.FieldRef.FieldPath != "metadata.labels['batch.kubernetes.io/job-completion-index']" {
			t.Errorf("index %s: env %+v", ix, env)
		}
	}
	setFinished(t, c, cl, pods["1"], 0)
	setFinished(t, c, cl, pods["0"], 1)
	c.Advance(second)
	got := getJob(t, cl, "idx")
	if got.Status.CompletedIndexes != "1" || got.Status.Succeeded != 1 || got.Status.Failed != 1 {
		t.Fatalf("status %+v", got.Status)
	}
	c.Advance(10 * second)
	pods = byIndex()
	if pods["0"] == nil || len(pods) != 2 {
		t.Fatalf("index 0 not replaced: %v", pods)
	}
	setFinished(t, c, cl, pods["0"], 0)
	setFinished(t, c, cl, pods["2"], 0)
	c.Advance(second)
	got = getJob(t, cl, "idx")
	if got.Status.CompletedIndexes != "0-2" || got.Status.Succeeded != 3 || conditions(got) != "SuccessCriteriaMet=True/CompletionsReached Complete=True/CompletionsReached" {
		t.Fatalf("status %+v, conditions %q", got.Status, conditions(got))
	}
}

// A suspended job deletes its pods without counting them as failed; on
// resume it starts again with a fresh startTime.
func TestJobSuspendAndResume(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newJob("nap", api.Int32(2), api.Int32(2), api.RestartPolicyNever))
	c.Settle()
	for _, p := range jobPods(cl, "nap") {
		setRunning(t, c, cl, p)
	}
	c.Advance(5 * second)
	j := getJob(t, cl, "nap").DeepCopy()
	j.Spec.Suspend = api.Bool(true)
	if _, err := client.Update(cl, j); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	got := getJob(t, cl, "nap")
	if conditions(got) != "Suspended=True/JobSuspended" || got.Status.Active != 0 || got.Status.Failed != 0 || len(jobPods(cl, "nap")) != 0 {
		t.Fatalf("suspended: conditions %q status %+v pods %d", conditions(got), got.Status, len(jobPods(cl, "nap")))
	}
	c.Advance(5 * second)
	j = getJob(t, cl, "nap").DeepCopy()
	j.Spec.Suspend = api.Bool(false)
	if _, err := client.Update(cl, j); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	got = getJob(t, cl, "nap")
	if conditions(got) != "Suspended=False/JobResumed" || got.Status.Active != 2 || !got.Status.StartTime.Equal(c.Now()) {
		t.Fatalf("resumed: conditions %q status %+v", conditions(got), got.Status)
	}
	ev := events(cl, "Job", "nap")
	var reasons []string
	for _, e := range ev {
		reasons = append(reasons, e[:len("Normal ")+len("SuccessfulCreate")])
	}
	want := []string{"Normal SuccessfulCreate", "Normal SuccessfulCreate", "Normal SuccessfulDelete", "Normal SuccessfulDelete"}
	if len(ev) != 8 || !reflect.DeepEqual(reasons[:4], want) || ev[4] != "Normal Suspended Job suspended" || ev[7] != "Normal Resumed Job resumed" {
		t.Fatalf("events %q", ev)
	}
}

// Pods of a deleted job lose the tracking finalizer, so they are not left
// stuck when the garbage collector deletes them.
func TestDeletedJobReleasesPodFinalizers(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newJob("gone", api.Int32(2), api.Int32(2), api.RestartPolicyNever))
	c.Settle()
	pods := jobPods(cl, "gone")
	if len(pods) != 2 {
		t.Fatalf("%d pods", len(pods))
	}
	if err := client.Delete[*api.Job](cl, "default", "gone", api.DeleteOptions{PropagationPolicy: api.String(api.DeletePropagationOrphan)}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	for _, p := range pods {
		if got := fresh(t, cl, p); got.HasFinalizer(api.JobTrackingFinalizer) {
			t.Errorf("pod %s keeps %v", p.Name, got.Finalizers)
		}
	}
}

// A job whose selector matches an orphan pod adopts it and counts it.
func TestJobAdoptsOrphanPod(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("adopt", api.Int32(1), api.Int32(1), api.RestartPolicyNever)
	j.Spec.Suspend = api.Bool(true)
	j = mustCreate(t, cl, j)
	c.Settle()
	orphan := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{api.ControllerUidLabel: j.UID}},
		Spec:       api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "main", Image: "busybox"}}},
	}
	if _, err := client.Create(cl, orphan); err != nil {
		t.Fatal(err)
	}
	setFinished(t, c, cl, orphan, 0)
	j = getJob(t, cl, "adopt").DeepCopy()
	j.Spec.Suspend = api.Bool(false)
	if _, err := client.Update(cl, j); err != nil {
		t.Fatal(err)
	}
	c.Advance(second)
	got := getJob(t, cl, "adopt")
	if got.Status.Succeeded != 1 || !isComplete(got) || len(jobPods(cl, "adopt")) != 1 {
		t.Fatalf("status %+v conditions %q pods %d", got.Status, conditions(got), len(jobPods(cl, "adopt")))
	}
}

func isComplete(j *api.Job) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == api.JobComplete && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

// The seed's pi job (completions 5) with pods that finish the moment they
// start, as KWOK's did in real-v1.32/s0-s2-jobs.session: the one-second
// sync batching creates a pod a second and completes the job after 5 s.
func TestPiJobTimingMatchesSeed(t *testing.T) {
	c, cl := newCluster(t)
	j := newJob("pi", api.Int32(5), nil, api.RestartPolicyNever)
	j.Spec.BackoffLimit = api.Int32(4)
	mustCreate(t, cl, j)
	c.Settle()
	start := c.Now()
	for i := 0; i < 6; i++ {
		for _, p := range activePods(cl, "pi") {
			setFinished(t, c, cl, p, 0)
		}
		c.Advance(second)
	}
	var created []string
	for _, p := range jobPods(cl, "pi") {
		created = append(created, p.CreationTimestamp.Sub(start).String())
	}
	if want := []string{"0s", "1s", "2s", "3s", "4s"}; !reflect.DeepEqual(created, want) {
		t.Fatalf("pods created at %v, want %v", created, want)
	}
	got := getJob(t, cl, "pi")
	if d := got.Status.CompletionTime.Sub(got.Status.StartTime.Time); d != 5*second || got.Status.Succeeded != 5 {
		t.Fatalf("duration %v, status %+v", d, got.Status)
	}
}
