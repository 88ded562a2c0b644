package cronjob_test

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// fakeKubelet stands in for the kubelets as KWOK did when the real
// sessions were recorded: a pod runs as soon as it exists and succeeds
// runFor later.
type fakeKubelet struct {
	cl     client.Interface
	clk    func() time.Time
	podInf *client.Informer
	queue  *workqueue.Queue[string]
	runFor time.Duration
}

func newFakeKubelet(ctx *controller.Context, runFor time.Duration) *fakeKubelet {
	k := &fakeKubelet{
		cl:     ctx.Client("kubelet"),
		clk:    ctx.Clock.Now,
		podInf: client.InformerFor[*api.Pod](ctx.Informers),
		queue:  workqueue.New[string]("kubelet", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		runFor: runFor,
	}
	k.podInf.AddHandler(client.Handler{OnAdd: func(o api.Object) {
		if p := o.(*api.Pod); p.Status.Phase == api.PodPending || p.Status.Phase == "" {
			k.queue.Add(client.KeyOf(o))
			k.queue.AddAfter(client.KeyOf(o), runFor)
		}
	}})
	return k
}

func (k *fakeKubelet) Name() string { return "kubelet/syncPod" }

func (k *fakeKubelet) ProcessNextWorkItem() bool {
	key, ok := k.queue.Get()
	if !ok {
		return false
	}
	defer k.queue.Done(key)
	o, ok := k.podInf.GetByKey(key)
	if !ok {
		return true
	}
	p := o.(*api.Pod).DeepCopy()
	now := api.NewTime(k.clk())
	switch {
	case p.DeletionTimestamp != nil || api.IsPodTerminal(p):
		return true
	case p.Status.Phase != api.PodRunning:
		p.Status.Phase = api.PodRunning
		p.Status.StartTime = &now
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: now}}
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name, Ready: true,
			State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: now}}}}
		if k.runFor == 0 {
			p.Status.Phase = api.PodSucceeded
			k.terminate(p, now)
		}
	default:
		p.Status.Phase = api.PodSucceeded
		k.terminate(p, now)
	}
	_, _ = client.UpdateStatus(k.cl, p)
	return true
}

func (k *fakeKubelet) terminate(p *api.Pod, now api.Time) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, Reason: "PodCompleted", LastTransitionTime: now}}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: p.Spec.Containers[0].Name,
		State: api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now}}}}
}
