// Package ttlafterfinished is the TTL-after-finished controller: it
// deletes a finished Job (with its pods) ttlSecondsAfterFinished after it
// finished, waking on the virtual clock when the TTL runs out.
package ttlafterfinished

import (
	"fmt"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/controller/job"
)

// Controller deletes Jobs whose TTL after finishing has expired.
type Controller struct {
	client client.Interface
	clock  *clock.Clock
	jobInf *client.Informer
	queue  *workqueue.Queue[string]
}

// New builds the controller on ctx's informers.
func New(ctx *controller.Context) *Controller {
	tc := &Controller{
		client: ctx.Client("ttl-after-finished-controller"),
		clock:  ctx.Clock,
		jobInf: client.InformerFor[*api.Job](ctx.Informers),
		queue:  workqueue.New[string]("ttl_jobs_to_delete", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
	}
	tc.jobInf.AddHandler(client.Handler{
		OnAdd:    tc.enqueueIfNeeded,
		OnUpdate: func(_, cur api.Object) { tc.enqueueIfNeeded(cur) },
	})
	return tc
}

// Name implements controller.Worker.
func (tc *Controller) Name() string { return "ttl-after-finished-controller/processJob" }

// ProcessNextWorkItem implements controller.Worker.
func (tc *Controller) ProcessNextWorkItem() bool {
	key, ok := tc.queue.Get()
	if !ok {
		return false
	}
	defer tc.queue.Done(key)
	if err := tc.processJob(key); err != nil {
		tc.queue.AddRateLimited(key)
	} else {
		tc.queue.Forget(key)
	}
	return true
}

func (tc *Controller) enqueueIfNeeded(o api.Object) {
	if j := o.(*api.Job); j.DeletionTimestamp == nil && needsCleanup(j) {
		tc.queue.Add(client.KeyOf(j))
	}
}

// needsCleanup: the job has a TTL and has finished.
func needsCleanup(j *api.Job) bool {
	return j.Spec.TTLSecondsAfterFinished != nil && job.IsJobFinished(j)
}

// processJob deletes the job once its TTL expired, re-checking a fresh
// copy first (the TTL may just have been changed); a job not yet expired
// is looked at again when it will be.
func (tc *Controller) processJob(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := tc.jobInf.Get(ns, name)
	if !ok {
		return nil
	}
	if expired, err := tc.processTTL(o.(*api.Job)); err != nil || !expired {
		return err
	}
	fresh, err := client.Get[*api.Job](tc.client, ns, name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if expired, err := tc.processTTL(fresh); err != nil || !expired {
		return err
	}
	// Foreground, as upstream: the Job goes once its pods are gone.
	err = client.Delete[*api.Job](tc.client, ns, name, api.DeleteOptions{
		PropagationPolicy: api.String(api.DeletePropagationForeground),
		Preconditions:     &api.Preconditions{UID: api.String(fresh.UID)},
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// processTTL reports whether the job's TTL has expired, and otherwise
// queues it for when it will.
func (tc *Controller) processTTL(j *api.Job) (bool, error) {
	if j.DeletionTimestamp != nil || !needsCleanup(j) {
		return false, nil
	}
	left, err := timeLeft(j, tc.clock.Now())
	if err != nil {
		return false, err
	}
	if left <= 0 {
		return true, nil
	}
	tc.queue.AddAfter(client.KeyOf(j), left)
	return false, nil
}

// timeLeft is how long until a finished job's TTL expires.
func timeLeft(j *api.Job, now time.Time) (time.Duration, error) {
	finishAt, err := jobFinishTime(j)
	if err != nil {
		return 0, err
	}
	expireAt := finishAt.Add(time.Duration(*j.Spec.TTLSecondsAfterFinished) * time.Second)
	return expireAt.Sub(now), nil
}

// jobFinishTime is when the job's Complete or Failed condition became True.
func jobFinishTime(j *api.Job) (time.Time, error) {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			if c.LastTransitionTime.IsZero() {
				return time.Time{}, fmt.Errorf("unable to find the time when the Job %s/%s finished", j.Namespace, j.Name)
			}
			return c.LastTransitionTime.Time, nil
		}
	}
	return time.Time{}, fmt.Errorf("unable to find the status of the finished Job %s/%s", j.Namespace, j.Name)
}
