package job_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/job"
	"kubeplay/core/sim"
)

// newCluster is a bare cluster running only the Job controller: the test
// plays the kubelet.
func newCluster(t *testing.T) (*sim.Cluster, client.Interface) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	c.AddWorker(job.NewController(c.ControllerContext()))
	return c, c.Client("test")
}

// newJob is a Job with one busybox container.
func newJob(name string, completions, parallelism *int32, restart string) *api.Job {
	return &api.Job{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.JobSpec{
			Completions: completions,
			Parallelism: parallelism,
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: restart,
				Containers:    []api.Container{{Name: "main", Image: "busybox", Command: []string{"sleep", "5"}}},
			}},
		},
	}
}

func mustCreate(t *testing.T, cl client.Interface, j *api.Job) *api.Job {
	t.Helper()
	out, err := client.Create(cl, j)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func getJob(t *testing.T, cl client.Interface, name string) *api.Job {
	t.Helper()
	j, err := client.Get[*api.Job](cl, "default", name)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// jobPods lists the job's pods, oldest first (names break ties).
func jobPods(cl client.Interface, name string) []*api.Pod {
	var out []*api.Pod
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if ref := p.GetControllerOf(); ref != nil && ref.Kind == "Job" && ref.Name == name {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].CreationTimestamp.Time, out[j].CreationTimestamp.Time
		if !a.Equal(b) {
			return a.Before(b)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// activePods are the pods neither finished nor being deleted.
func activePods(cl client.Interface, name string) []*api.Pod {
	var out []*api.Pod
	for _, p := range jobPods(cl, name) {
		if p.DeletionTimestamp == nil && !api.IsPodTerminal(p) {
			out = append(out, p)
		}
	}
	return out
}

// setRunning makes a pod Running and Ready, as a kubelet would.
func setRunning(t *testing.T, c *sim.Cluster, cl client.Interface, p *api.Pod) {
	t.Helper()
	p = fresh(t, cl, p)
	now := api.NewTime(c.Now())
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: now}}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", Ready: true, State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: now}}}}
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
}

// setFinished ends a pod's container with exitCode: Succeeded for 0,
// Failed otherwise.
func setFinished(t *testing.T, c *sim.Cluster, cl client.Interface, p *api.Pod, exitCode int32) {
	t.Helper()
	p = fresh(t, cl, p)
	now := api.NewTime(c.Now())
	p.Status.Phase = api.PodSucceeded
	reason := "Completed"
	if exitCode != 0 {
		p.Status.Phase = api.PodFailed
		reason = "Error"
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, Reason: "PodCompleted", LastTransitionTime: now}}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
		Terminated: &api.ContainerStateTerminated{ExitCode: exitCode, Reason: reason, StartedAt: now, FinishedAt: now},
	}}}
	if _, err := client.UpdateStatus(cl, p); err != nil {
		t.Fatal(err)
	}
}

func fresh(t *testing.T, cl client.Interface, p *api.Pod) *api.Pod {
	t.Helper()
	got, err := client.Get[*api.Pod](cl, p.Namespace, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	return got.DeepCopy()
}

// events lists "Type Reason Message" of the events about an object, in order.
func events(cl client.Interface, kind, name string) []string {
	var out []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name {
			out = append(out, e.Type+" "+e.Reason+" "+e.Message)
		}
	}
	return out
}

// conditions summarises a job's conditions as "Type=Status/Reason".
func conditions(j *api.Job) string {
	var parts []string
	for _, c := range j.Status.Conditions {
		parts = append(parts, c.Type+"="+c.Status+"/"+c.Reason)
	}
	return strings.Join(parts, " ")
}

func deref(p *int32) int32 {
	if p == nil {
		return -1
	}
	return *p
}

const second = time.Second
