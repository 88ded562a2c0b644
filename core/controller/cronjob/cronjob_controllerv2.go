// Package cronjob is the CronJob controller (upstream's ControllerV2): at
// each schedule time it creates a Job named after that time, applies the
// concurrency policy, keeps status.active and the last schedule and
// success times, and deletes finished Jobs past the history limits. It
// sleeps on the virtual clock until the next schedule time.
package cronjob

import (
	"fmt"
	"sort"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/cron"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/controller/job"
)

// Controller syncs CronJobs with the Jobs they create.
type Controller struct {
	client   client.Interface
	clock    *clock.Clock
	jobInf   *client.Informer
	cronInf  *client.Informer
	queue    *workqueue.Queue[string]
	recorder *client.Recorder
}

// NewController builds the CronJob controller on ctx's informers.
func NewController(ctx *controller.Context) *Controller {
	cl := ctx.Client("cronjob-controller")
	jm := &Controller{
		client:   cl,
		clock:    ctx.Clock,
		jobInf:   client.InformerFor[*api.Job](ctx.Informers),
		cronInf:  client.InformerFor[*api.CronJob](ctx.Informers),
		queue:    workqueue.New[string]("cronjob", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		recorder: client.NewRecorder(cl, "cronjob-controller", ""),
	}
	jm.jobInf.AddHandler(client.Handler{OnAdd: jm.addJob, OnUpdate: jm.updateJob, OnDelete: jm.deleteJob})
	jm.cronInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { jm.queue.Add(client.KeyOf(o)) },
		OnUpdate: jm.updateCronJob,
		OnDelete: func(o api.Object) { jm.queue.Add(client.KeyOf(o)) },
	})
	return jm
}

// Name implements controller.Worker.
func (jm *Controller) Name() string { return "cronjob-controller/syncCronJob" }

// ProcessNextWorkItem implements controller.Worker.
func (jm *Controller) ProcessNextWorkItem() bool {
	key, ok := jm.queue.Get()
	if !ok {
		return false
	}
	defer jm.queue.Done(key)
	requeueAfter, err := jm.sync(key)
	switch {
	case err != nil:
		jm.queue.AddRateLimited(key)
	case requeueAfter != nil:
		jm.queue.Forget(key)
		jm.queue.AddAfter(key, *requeueAfter)
	}
	return true
}

// resolveControllerRef returns the CronJob a controller reference names,
// if it is the one in the cache.
func (jm *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.CronJob {
	if ref == nil || ref.Kind != "CronJob" {
		return nil
	}
	o, ok := jm.cronInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.CronJob)
}

func (jm *Controller) enqueueOwner(j *api.Job) {
	if cj := jm.resolveControllerRef(j.Namespace, j.GetControllerOf()); cj != nil {
		jm.queue.Add(client.KeyOf(cj))
	}
}

func (jm *Controller) addJob(o api.Object) { jm.enqueueOwner(o.(*api.Job)) }

func (jm *Controller) updateJob(old, cur api.Object) {
	oldJob, curJob := old.(*api.Job), cur.(*api.Job)
	if oldJob.ResourceVersion == curJob.ResourceVersion {
		return
	}
	if oldRef, curRef := oldJob.GetControllerOf(), curJob.GetControllerOf(); oldRef != nil && (curRef == nil || oldRef.UID != curRef.UID) {
		jm.enqueueOwner(oldJob)
	}
	jm.enqueueOwner(curJob)
}

func (jm *Controller) deleteJob(o api.Object) { jm.enqueueOwner(o.(*api.Job)) }

// updateCronJob: a new schedule or time zone moves the next sync to the
// new schedule's next time; any other change syncs now.
func (jm *Controller) updateCronJob(old, cur api.Object) {
	oldCJ, newCJ := old.(*api.CronJob), cur.(*api.CronJob)
	key := client.KeyOf(newCJ)
	if oldCJ.Spec.Schedule != newCJ.Spec.Schedule || !sameString(oldCJ.Spec.TimeZone, newCJ.Spec.TimeZone) {
		sched, err := cron.Parse(jm.formatSchedule(newCJ, false))
		if err != nil {
			jm.recorder.Eventf(newCJ, api.EventTypeWarning, "UnParseableCronJobSchedule", "unparseable schedule for cronjob: %s", newCJ.Spec.Schedule)
			return
		}
		jm.queue.AddAfter(key, nextScheduleTimeDuration(newCJ, jm.clock.Now(), sched))
		return
	}
	jm.queue.Add(key)
}

func sameString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sync cleans up old jobs, runs syncCronJob and writes status once; it
// returns when to look again.
func (jm *Controller) sync(key string) (*time.Duration, error) {
	ns, name := client.SplitKey(key)
	o, ok := jm.cronInf.Get(ns, name)
	if !ok {
		return nil, nil
	}
	cj := o.(*api.CronJob).DeepCopy()
	jobs := jm.getJobsToBeReconciled(cj)
	updateAfterCleanup := jm.cleanupFinishedJobs(cj, jobs)
	requeueAfter, updateAfterSync, syncErr := jm.syncCronJob(cj, jobs)
	if updateAfterCleanup || updateAfterSync {
		if _, err := client.UpdateStatus(jm.client, cj); err != nil {
			return nil, err
		}
	}
	if requeueAfter != nil {
		return requeueAfter, nil
	}
	return nil, syncErr
}

// getJobsToBeReconciled lists the jobs this CronJob controls, in name order.
func (jm *Controller) getJobsToBeReconciled(cj *api.CronJob) []*api.Job {
	var out []*api.Job
	for _, o := range jm.jobInf.List(cj.Namespace) {
		j := o.(*api.Job)
		if ref := j.GetControllerOf(); ref != nil && ref.Kind == "CronJob" && ref.Name == cj.Name {
			out = append(out, j)
		}
	}
	return out
}

// syncCronJob reconciles status.active with the jobs, then creates the
// job due now, if any. It returns when to sync next and whether status
// changed.
func (jm *Controller) syncCronJob(cj *api.CronJob, jobs []*api.Job) (*time.Duration, bool, error) {
	now := jm.clock.Now()
	updateStatus := false
	children := map[string]bool{}
	for _, j := range jobs {
		children[j.UID] = true
		found := inActiveList(cj, j.UID)
		finished, cond := job.FinishedCondition(j)
		switch {
		case !found && !finished:
			fresh, err := client.Get[*api.CronJob](jm.client, cj.Namespace, cj.Name)
			if err != nil {
				return nil, updateStatus, err
			}
			if inActiveList(fresh, j.UID) {
				cj = fresh.DeepCopy()
				continue
			}
			jm.recorder.Eventf(cj, api.EventTypeWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: %s", j.Name)
		case finished:
			if found {
				deleteFromActiveList(cj, j.UID)
				jm.recorder.Eventf(cj, api.EventTypeNormal, "SawCompletedJob", "Saw completed job: %s, condition: %v", j.Name, cond)
				updateStatus = true
			}
			if cond == api.JobComplete && j.Status.CompletionTime != nil {
				if cj.Status.LastSuccessfulTime == nil || j.Status.CompletionTime.After(cj.Status.LastSuccessfulTime.Time) {
					t := *j.Status.CompletionTime
					cj.Status.LastSuccessfulTime = &t
					updateStatus = true
				}
			}
		}
	}
	// An active job that no longer exists would block Forbid forever.
	for _, r := range append([]api.ObjectReference(nil), cj.Status.Active...) {
		if children[r.UID] {
			continue
		}
		_, err := client.Get[*api.Job](jm.client, r.Namespace, r.Name)
		switch {
		case apierrors.IsNotFound(err):
			jm.recorder.Eventf(cj, api.EventTypeNormal, "MissingJob", "Active job went missing: %v", r.Name)
			deleteFromActiveList(cj, r.UID)
			updateStatus = true
		case err != nil:
			return nil, updateStatus, err
		}
	}
	if cj.DeletionTimestamp != nil {
		return nil, updateStatus, nil
	}
	if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := cron.LoadLocation(*tz); err != nil {
			jm.recorder.Eventf(cj, api.EventTypeWarning, "UnknownTimeZone", "invalid timeZone: %q: %s", *tz, err)
			return nil, updateStatus, nil
		}
	}
	if cj.Spec.Suspend != nil && *cj.Spec.Suspend {
		return nil, updateStatus, nil
	}
	sched, err := cron.Parse(jm.formatSchedule(cj, true))
	if err != nil {
		jm.recorder.Eventf(cj, api.EventTypeWarning, "UnparseableSchedule", "unparseable schedule: %q : %s", cj.Spec.Schedule, err)
		return nil, updateStatus, nil
	}
	next := func() (*time.Duration, bool, error) {
		d := nextScheduleTimeDuration(cj, now, sched)
		return &d, updateStatus, nil
	}
	scheduled, err := jm.nextScheduleTime(cj, now, sched)
	if err != nil {
		jm.recorder.Eventf(cj, api.EventTypeWarning, "InvalidSchedule", "invalid schedule: %s : %s", cj.Spec.Schedule, err)
		return nil, updateStatus, nil
	}
	if scheduled == nil {
		return next()
	}
	if sds := cj.Spec.StartingDeadlineSeconds; sds != nil && scheduled.Add(time.Duration(*sds)*time.Second).Before(now) {
		jm.recorder.Eventf(cj, api.EventTypeWarning, "MissSchedule", "Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z))
		return next()
	}
	if inActiveListByName(cj, cj.Namespace, getJobName(cj, *scheduled)) ||
		(cj.Status.LastScheduleTime != nil && cj.Status.LastScheduleTime.Equal(*scheduled)) {
		return next()
	}
	if cj.Spec.ConcurrencyPolicy == api.ForbidConcurrent && len(cj.Status.Active) > 0 {
		jm.recorder.Event(cj, api.EventTypeNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		return next()
	}
	if cj.Spec.ConcurrencyPolicy == api.ReplaceConcurrent {
		for _, r := range append([]api.ObjectReference(nil), cj.Status.Active...) {
			j, err := client.Get[*api.Job](jm.client, r.Namespace, r.Name)
			if err != nil {
				jm.recorder.Eventf(cj, api.EventTypeWarning, "FailedGet", "Get job: %v", err)
				return nil, updateStatus, err
			}
			if !jm.reapJob(cj, j) {
				return nil, updateStatus, fmt.Errorf("could not replace job %s/%s", j.Namespace, j.Name)
			}
			updateStatus = true
		}
	}
	req, err := getJobFromTemplate2(cj, *scheduled)
	if err != nil {
		return nil, updateStatus, err
	}
	created, err := client.Create(jm.client, req)
	switch {
	case err != nil && isNamespaceTerminating(err):
		return nil, updateStatus, err
	case apierrors.IsAlreadyExists(err):
		// Created earlier but not recorded in status (or by someone else).
		existing, gerr := client.Get[*api.Job](jm.client, req.Namespace, req.Name)
		if gerr != nil {
			return nil, updateStatus, gerr
		}
		if ref := existing.GetControllerOf(); ref == nil || ref.UID != cj.UID || inActiveList(cj, existing.UID) {
			return nil, updateStatus, nil
		}
		created = existing
	case err != nil:
		jm.recorder.Eventf(cj, api.EventTypeWarning, "FailedCreate", "Error creating job: %v", err)
		return nil, updateStatus, err
	default:
		jm.recorder.Eventf(cj, api.EventTypeNormal, "SuccessfulCreate", "Created job %v", created.Name)
	}
	cj.Status.Active = append(cj.Status.Active, getRef(created))
	t := api.NewTime(*scheduled)
	cj.Status.LastScheduleTime = &t
	updateStatus = true
	return next()
}

func isNamespaceTerminating(err error) bool {
	st, ok := err.(interface{ Status() api.Status })
	if !ok || st.Status().Details == nil {
		return false
	}
	for _, c := range st.Status().Details.Causes {
		if c.Type == "NamespaceTerminating" {
			return true
		}
	}
	return false
}

// cleanupFinishedJobs deletes the oldest finished jobs past the success
// and failure history limits; it reports whether status changed.
func (jm *Controller) cleanupFinishedJobs(cj *api.CronJob, jobs []*api.Job) bool {
	if cj.Spec.FailedJobsHistoryLimit == nil && cj.Spec.SuccessfulJobsHistoryLimit == nil {
		return false
	}
	var succeeded, failed []*api.Job
	for _, j := range jobs {
		switch _, t := job.FinishedCondition(j); t {
		case api.JobComplete:
			succeeded = append(succeeded, j)
		case api.JobFailed:
			failed = append(failed, j)
		}
	}
	changed := false
	if l := cj.Spec.SuccessfulJobsHistoryLimit; l != nil && jm.removeOldestJobs(cj, succeeded, *l) {
		changed = true
	}
	if l := cj.Spec.FailedJobsHistoryLimit; l != nil && jm.removeOldestJobs(cj, failed, *l) {
		changed = true
	}
	return changed
}

func (jm *Controller) removeOldestJobs(cj *api.CronJob, jobs []*api.Job, limit int32) bool {
	n := len(jobs) - int(limit)
	if n <= 0 {
		return false
	}
	sorted := append([]*api.Job(nil), jobs...)
	sort.SliceStable(sorted, func(a, b int) bool { return byJobStartTime(sorted[a], sorted[b]) })
	changed := false
	for _, j := range sorted[:n] {
		if jm.reapJob(cj, j) {
			changed = true
		}
	}
	return changed
}

// reapJob deletes a job with its pods (background propagation) and
// drops it from status.active.
func (jm *Controller) reapJob(cj *api.CronJob, j *api.Job) bool {
	err := client.Delete[*api.Job](jm.client, j.Namespace, j.Name, api.DeleteOptions{PropagationPolicy: api.String(api.DeletePropagationBackground)})
	if err != nil {
		jm.recorder.Eventf(cj, api.EventTypeWarning, "FailedDelete", "Deleted job: %v", err)
		return false
	}
	deleteFromActiveList(cj, j.UID)
	jm.recorder.Eventf(cj, api.EventTypeNormal, "SuccessfulDelete", "Deleted job %v", j.Name)
	return true
}
