package cronjob_test

import (
	"reflect"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
	"kubeplay/core/controller/cronjob"
	"kubeplay/core/controller/job"
	"kubeplay/core/sim"
)

// binder stands in for the scheduler, which the simulation lacks yet.
type binder struct {
	cl     client.Interface
	podInf *client.Informer
	queue  *workqueue.Queue[string]
}

func newBinder(ctx *controller.Context) *binder {
	b := &binder{cl: ctx.Client("default-scheduler"), podInf: client.InformerFor[*api.Pod](ctx.Informers),
		queue: workqueue.New[string]("binder", ctx.Clock, nil)}
	b.podInf.AddHandler(client.Handler{OnAdd: func(o api.Object) { b.queue.Add(client.KeyOf(o)) }})
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
		_ = b.cl.Bind(o.GetObjectMeta().Namespace, &api.Binding{ObjectMeta: api.ObjectMeta{Name: o.GetObjectMeta().Name},
			Target: api.ObjectReference{Kind: "Node", Name: sim.DefaultNodeName}})
	}
	return true
}

// The seed's CronJob on a real kubelet (busybox printing the date): the
// same jobs and events as with KWOK, and the deleted job's pod goes too.
func TestCronJobOnKubelet(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	ctx := c.ControllerContext()
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(cronjob.NewController(ctx))
	c.AddWorker(newBinder(ctx))
	cl := c.Client("test")
	c.Advance(3*time.Minute + 49*time.Second)
	if _, err := client.Create(cl, hello(api.ForbidConcurrent)); err != nil {
		t.Fatal(err)
	}
	c.Advance(250 * time.Second)
	if got, want := jobNames(cl), []string{"hello-29922454", "hello-29922455", "hello-29922456"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("jobs %v, want %v (events %q)", got, want, cronEvents(cl, "hello"))
	}
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if p.Labels[api.JobNameLabel] == "hello-29922453" {
			t.Errorf("pod %s of the deleted job is left", p.Name)
		}
		if p.Status.Phase != api.PodSucceeded {
			t.Errorf("pod %s is %s", p.Name, p.Status.Phase)
		}
	}
	if got := cronEvents(cl, "hello"); len(got) != 9 || got[7] != "SuccessfulDelete Deleted job hello-29922453" {
		t.Fatalf("events %q", got)
	}
}
