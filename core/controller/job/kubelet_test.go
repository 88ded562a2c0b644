package job_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
	"kubeplay/core/controller/job"
	"kubeplay/core/sim"
)

// binder stands in for the scheduler, which the simulation does not have
// yet: every unscheduled pod is bound to one node.
type binder struct {
	cl     client.Interface
	podInf *client.Informer
	queue  *workqueue.Queue[string]
	node   string
}

func newBinder(ctx *controller.Context, node string) *binder {
	b := &binder{cl: ctx.Client("default-scheduler"), podInf: client.InformerFor[*api.Pod](ctx.Informers),
		queue: workqueue.New[string]("binder", ctx.Clock, nil), node: node}
	b.podInf.AddHandler(client.Handler{OnAdd: func(o api.Object) {
		if o.(*api.Pod).Spec.NodeName == "" {
			b.queue.Add(client.KeyOf(o))
		}
	}})
	return b
}

func (b *binder) Name() string { return "binder/scheduleOne" }

func (b *binder) ProcessNextWorkItem() bool {
	key, ok := b.queue.Get()
	if !ok {
		return false
	}
	defer b.queue.Done(key)
	if o, ok := b.podInf.GetByKey(key); ok && o.(*api.Pod).Spec.NodeName == "" && o.GetObjectMeta().DeletionTimestamp == nil {
		p := o.(*api.Pod)
		_ = b.cl.Bind(p.Namespace, &api.Binding{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace},
			Target: api.ObjectReference{Kind: "Node", Name: b.node}})
	}
	return true
}

// withKubelet is a whole cluster (kubelet, garbage collector) plus the Job
// controller and a binder.
func withKubelet(t *testing.T) (*sim.Cluster, client.Interface) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	ctx := c.ControllerContext()
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(newBinder(ctx, sim.DefaultNodeName))
	return c, c.Client("test")
}

func container(cmd ...string) []api.Container {
	return []api.Container{{Name: "main", Image: "busybox", Command: cmd}}
}

// The seed's pi job on a real kubelet: five pods run one after another and
// the job completes with 5/5.
func TestPiJobOnKubelet(t *testing.T) {
	c, cl := withKubelet(t)
	j := newJob("pi", api.Int32(5), nil, api.RestartPolicyNever)
	j.Spec.BackoffLimit = api.Int32(4)
	j.Spec.Template.Spec.Containers = []api.Container{{Name: "pi", Image: "perl", Command: []string{"perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"}}}
	mustCreate(t, cl, j)
	c.Advance(3 * time.Minute)
	got := getJob(t, cl, "pi")
	if !job.IsJobSucceeded(got) || got.Status.Succeeded != 5 || len(jobPods(cl, "pi")) != 5 {
		t.Fatalf("status %+v conditions %q pods %d", got.Status, conditions(got), len(jobPods(cl, "pi")))
	}
	t.Logf("pi took %v", got.Status.CompletionTime.Sub(got.Status.StartTime.Time))
}

// A pod that exits 1 with restartPolicy Never is replaced after the
// back-off; past backoffLimit the job fails.
func TestFailingJobOnKubelet(t *testing.T) {
	c, cl := withKubelet(t)
	j := newJob("bad", nil, nil, api.RestartPolicyNever)
	j.Spec.BackoffLimit = api.Int32(2)
	j.Spec.Template.Spec.Containers = container("sh", "-c", "exit 1")
	mustCreate(t, cl, j)
	c.Advance(3 * time.Minute)
	got := getJob(t, cl, "bad")
	if conditions(got) != "FailureTarget=True/BackoffLimitExceeded Failed=True/BackoffLimitExceeded" || got.Status.Failed != 3 {
		t.Fatalf("status %+v conditions %q", got.Status, conditions(got))
	}
	for _, p := range jobPods(cl, "bad") {
		if p.Status.Phase != api.PodFailed || len(p.Finalizers) != 0 {
			t.Errorf("pod %s phase %s finalizers %v", p.Name, p.Status.Phase, p.Finalizers)
		}
	}
}

// With restartPolicy OnFailure the kubelet restarts the container; the
// restarts reach backoffLimit and the job fails, its pod deleted.
func TestOnFailureJobOnKubelet(t *testing.T) {
	c, cl := withKubelet(t)
	j := newJob("crash", nil, nil, api.RestartPolicyOnFailure)
	j.Spec.BackoffLimit = api.Int32(2)
	j.Spec.Template.Spec.Containers = container("sh", "-c", "exit 1")
	mustCreate(t, cl, j)
	c.Advance(3 * time.Minute)
	got := getJob(t, cl, "crash")
	if conditions(got) != "FailureTarget=True/BackoffLimitExceeded Failed=True/BackoffLimitExceeded" {
		t.Fatalf("status %+v conditions %q", got.Status, conditions(got))
	}
	if n := len(jobPods(cl, "crash")); n != 0 {
		t.Errorf("%d pods left", n)
	}
}

// activeDeadlineSeconds on a pod that ignores SIGTERM: FailureTarget at
// the deadline, Failed once the pod is gone after its grace period.
func TestDeadlineJobOnKubelet(t *testing.T) {
	c, cl := withKubelet(t)
	j := newJob("sleepy", nil, nil, api.RestartPolicyNever)
	j.Spec.ActiveDeadlineSeconds = api.Int64(20)
	j.Spec.Template.Spec.Containers = container("sleep", "3600")
	mustCreate(t, cl, j)
	start := c.Now()
	c.Advance(2 * time.Minute)
	got := getJob(t, cl, "sleepy")
	if conditions(got) != "FailureTarget=True/DeadlineExceeded Failed=True/DeadlineExceeded" || got.Status.Failed != 1 {
		t.Fatalf("status %+v conditions %q", got.Status, conditions(got))
	}
	t.Logf("FailureTarget at %v, Failed at %v", got.Status.Conditions[0].LastTransitionTime.Sub(start), got.Status.Conditions[1].LastTransitionTime.Sub(start))
	if n := len(jobPods(cl, "sleepy")); n != 0 {
		t.Errorf("%d pods left", n)
	}
}
