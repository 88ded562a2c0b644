// Package job is the Job controller: it runs a Job's pods until enough of
// them succeed, replaces failed ones after a back-off, fails the Job past
// its backoffLimit or activeDeadlineSeconds, and counts finished pods
// exactly once through the batch.kubernetes.io/job-tracking finalizer.
package job

import (
	"fmt"
	"maps"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// Queue delays, as upstream's.
const (
	// syncJobBatchPeriod gathers the pod events of one moment into one sync.
	syncJobBatchPeriod = time.Second
	// DefaultJobApiBackOff and MaxJobApiBackOff bound the retry of a sync
	// that failed on an API error.
	DefaultJobApiBackOff = time.Second
	MaxJobApiBackOff     = time.Minute
)

// Controller syncs Jobs with their pods.
type Controller struct {
	client                client.Interface
	clock                 *clock.Clock
	jobInf                *client.Informer
	podInf                *client.Informer
	queue                 *workqueue.Queue[string]
	orphanQueue           *workqueue.Queue[string]
	expectations          *controller.ControllerExpectations
	finalizerExpectations *uidTrackingExpectations
	podControl            controller.PodControl
	recorder              *client.Recorder
	backoff               *backoffStore
}

// syncJobCtx is what one sync of one job knows.
type syncJobCtx struct {
	job                  *api.Job
	pods                 []*api.Pod
	activePods           []*api.Pod
	finishedCondition    *api.JobCondition
	succeeded, failed    int32
	prevSucceededIndexes orderedIntervals
	succeededIndexes     orderedIntervals
	newBackoffRecord     backoffRecord
	expectedRmFinalizers map[string]bool
	uncounted            *uncountedTerminatedPods
	terminating          int32
	ready                int32
}

// NewController builds the Job controller on ctx's informers.
func NewController(ctx *controller.Context) *Controller {
	cl := ctx.Client("job-controller")
	rec := client.NewRecorder(cl, "job-controller", "")
	jm := &Controller{
		client:                cl,
		clock:                 ctx.Clock,
		jobInf:                client.InformerFor[*api.Job](ctx.Informers),
		podInf:                client.InformerFor[*api.Pod](ctx.Informers),
		queue:                 workqueue.New[string]("job", ctx.Clock, workqueue.NewItemExponentialFailureRateLimiter[string](DefaultJobApiBackOff, MaxJobApiBackOff)),
		orphanQueue:           workqueue.New[string]("job_orphan_pod", ctx.Clock, workqueue.NewItemExponentialFailureRateLimiter[string](DefaultJobApiBackOff, MaxJobApiBackOff)),
		expectations:          controller.NewControllerExpectations(ctx.Clock),
		finalizerExpectations: newUIDTrackingExpectations(),
		podControl:            controller.PodControl{Client: cl, Recorder: rec},
		recorder:              rec,
		backoff:               newBackoffStore(),
	}
	jm.jobInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { jm.queue.Add(client.KeyOf(o)) },
		OnUpdate: jm.updateJob,
		OnDelete: jm.deleteJob,
	})
	jm.podInf.AddHandler(client.Handler{
		OnAdd:    jm.addPod,
		OnUpdate: jm.updatePod,
		OnDelete: func(o api.Object) { jm.deletePod(o.(*api.Pod), true) },
	})
	return jm
}

// Name implements controller.Worker.
func (jm *Controller) Name() string { return "job-controller/syncJob" }

// ProcessNextWorkItem implements controller.Worker: one job, or else one
// orphan pod whose finalizer is left to remove.
func (jm *Controller) ProcessNextWorkItem() bool {
	if key, ok := jm.queue.Get(); ok {
		defer jm.queue.Done(key)
		if err := jm.syncJob(key); err != nil {
			jm.queue.AddRateLimited(key)
		} else {
			jm.queue.Forget(key)
		}
		return true
	}
	if key, ok := jm.orphanQueue.Get(); ok {
		defer jm.orphanQueue.Done(key)
		if err := jm.syncOrphanPod(key); err != nil {
			jm.orphanQueue.AddRateLimited(key)
		} else {
			jm.orphanQueue.Forget(key)
		}
		return true
	}
	return false
}

// enqueueSyncJobBatched syncs a job a second from now, so the pod events
// of one moment make one sync.
func (jm *Controller) enqueueSyncJobBatched(key string) { jm.queue.AddAfter(key, syncJobBatchPeriod) }

// enqueueSyncJobWithDelay syncs a job after d, never sooner than the batch period.
func (jm *Controller) enqueueSyncJobWithDelay(key string, d time.Duration) {
	jm.queue.AddAfter(key, max(d, syncJobBatchPeriod))
}

// jobSelector is the job's pod selector. The API server generates
// spec.selector (batch.kubernetes.io/controller-uid); a Job stored without
// one selects its pods by that label all the same.
func jobSelector(j *api.Job) (labels.Selector, error) {
	if j.Spec.Selector == nil {
		return labels.SelectorFromSet(labels.Set{api.ControllerUidLabel: j.UID}), nil
	}
	return labels.SelectorFromLabelSelector(j.Spec.Selector)
}

// resolveControllerRef returns the job a controller reference names, if
// it is the one in the cache.
func (jm *Controller) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Job {
	if ref == nil || ref.Kind != "Job" {
		return nil
	}
	o, ok := jm.jobInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.Job)
}

// getPodJobs lists the jobs whose selector matches an orphan pod.
func (jm *Controller) getPodJobs(pod *api.Pod) []*api.Job {
	var out []*api.Job
	for _, o := range jm.jobInf.List(pod.Namespace) {
		j := o.(*api.Job)
		sel, err := jobSelector(j)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, j)
	}
	return out
}

func (jm *Controller) addPod(o api.Object) {
	pod := o.(*api.Pod)
	if pod.DeletionTimestamp != nil {
		// Seen first already terminating: not a creation we wait for.
		jm.deletePod(pod, false)
		return
	}
	if ref := pod.GetControllerOf(); ref != nil {
		if j := jm.resolveControllerRef(pod.Namespace, ref); j != nil {
			key := client.KeyOf(j)
			jm.expectations.CreationObserved(key)
			jm.enqueueSyncJobBatched(key)
		}
		return
	}
	if hasJobTrackingFinalizer(pod) {
		jm.orphanQueue.Add(client.KeyOf(pod))
	}
	for _, j := range jm.getPodJobs(pod) {
		jm.enqueueSyncJobBatched(client.KeyOf(j))
	}
}

func (jm *Controller) updatePod(old, cur api.Object) {
	oldPod, curPod := old.(*api.Pod), cur.(*api.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	if curPod.DeletionTimestamp != nil {
		// Replace a terminating pod now rather than when it is gone.
		jm.deletePod(curPod, false)
		return
	}
	finalizerRemoved := !hasJobTrackingFinalizer(curPod)
	curRef, oldRef := curPod.GetControllerOf(), oldPod.GetControllerOf()
	refChanged := !controller.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if j := jm.resolveControllerRef(oldPod.Namespace, oldRef); j != nil {
			key := client.KeyOf(j)
			if finalizerRemoved {
				jm.finalizerExpectations.finalizerRemovalObserved(key, curPod.UID)
			}
			jm.enqueueSyncJobBatched(key)
		}
	}
	if curRef != nil {
		if j := jm.resolveControllerRef(curPod.Namespace, curRef); j != nil {
			key := client.KeyOf(j)
			if finalizerRemoved {
				jm.finalizerExpectations.finalizerRemovalObserved(key, curPod.UID)
			}
			jm.enqueueSyncJobBatched(key)
		}
		return
	}
	if hasJobTrackingFinalizer(curPod) {
		jm.orphanQueue.Add(client.KeyOf(curPod))
	}
	if refChanged || !maps.Equal(curPod.Labels, oldPod.Labels) {
		for _, j := range jm.getPodJobs(curPod) {
			jm.enqueueSyncJobBatched(client.KeyOf(j))
		}
	}
}

// deletePod handles a pod deleted (final) or being deleted.
func (jm *Controller) deletePod(pod *api.Pod, final bool) {
	ref := pod.GetControllerOf()
	hasFinalizer := hasJobTrackingFinalizer(pod)
	if ref == nil {
		if hasFinalizer {
			jm.orphanQueue.Add(client.KeyOf(pod))
		}
		return
	}
	j := jm.resolveControllerRef(pod.Namespace, ref)
	if j == nil || IsJobFinished(j) {
		// syncJob will not release this pod any more.
		if hasFinalizer {
			jm.orphanQueue.Add(client.KeyOf(pod))
		}
		return
	}
	key := client.KeyOf(j)
	jm.expectations.DeletionObserved(key)
	if final || !hasFinalizer {
		jm.finalizerExpectations.finalizerRemovalObserved(key, pod.UID)
	}
	jm.enqueueSyncJobBatched(key)
}

func (jm *Controller) updateJob(old, cur api.Object) {
	oldJob, curJob := old.(*api.Job), cur.(*api.Job)
	key := client.KeyOf(curJob)
	if curJob.Generation == oldJob.Generation {
		// A status write: batch it with the pod events.
		jm.enqueueSyncJobBatched(key)
	} else {
		jm.queue.Add(key)
	}
	if IsJobFinished(curJob) {
		jm.cleanupPodFinalizers(curJob)
	}
	// A changed activeDeadlineSeconds needs a sync when it runs out.
	if curJob.Status.StartTime != nil && curJob.Spec.ActiveDeadlineSeconds != nil {
		if o := oldJob.Spec.ActiveDeadlineSeconds; o == nil || *o != *curJob.Spec.ActiveDeadlineSeconds {
			total := time.Duration(*curJob.Spec.ActiveDeadlineSeconds) * time.Second
			jm.queue.AddAfter(key, total-jm.clock.Since(curJob.Status.StartTime.Time))
		}
	}
}

func (jm *Controller) deleteJob(o api.Object) {
	jm.queue.Add(client.KeyOf(o))
	jm.cleanupPodFinalizers(o.(*api.Job))
}

// cleanupPodFinalizers queues the job's pods that still carry the tracking
// finalizer, for a job that is finished or gone.
func (jm *Controller) cleanupPodFinalizers(j *api.Job) {
	sel, err := jobSelector(j)
	if err != nil {
		return
	}
	for _, o := range jm.podInf.List(j.Namespace) {
		p := o.(*api.Pod)
		if !sel.Matches(labels.Set(p.Labels)) || !hasJobTrackingFinalizer(p) {
			continue
		}
		if ref := p.GetControllerOf(); ref != nil && ref.UID == j.UID {
			jm.orphanQueue.Add(client.KeyOf(p))
		}
	}
}

// managedByExternalController: a Job whose spec.managedBy names another
// controller is left to it.
func managedByExternalController(j *api.Job) bool {
	return j.Spec.ManagedBy != nil && *j.Spec.ManagedBy != api.JobControllerName
}

// syncJob brings one job's pods and status up to date.
func (jm *Controller) syncJob(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := jm.jobInf.Get(ns, name)
	if !ok {
		jm.expectations.DeleteExpectations(key)
		jm.finalizerExpectations.deleteExpectations(key)
		jm.backoff.removeBackoffRecord(key)
		return nil
	}
	shared := o.(*api.Job)
	if managedByExternalController(shared) {
		return nil
	}
	job := shared.DeepCopy()
	if IsJobFinished(job) {
		jm.backoff.removeBackoffRecord(key)
		return nil
	}
	if cm := job.Spec.CompletionMode; cm != nil && *cm != api.NonIndexedCompletion && *cm != api.IndexedCompletion {
		jm.recorder.Event(job, api.EventTypeWarning, "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
		return nil
	}
	if isIndexedJob(job) && job.Spec.Completions == nil {
		// Validation requires completions for Indexed jobs.
		return nil
	}
	if job.Status.UncountedTerminatedPods == nil {
		job.Status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	// Expectations are read before the pods, so a pod created in between
	// cannot be missed.
	satisfied := jm.expectations.SatisfiedExpectations(key)
	pods, err := jm.getPodsForJob(job)
	if err != nil {
		return err
	}
	now := jm.clock.Now()
	activePods := controller.FilterActivePods(pods)
	jc := &syncJobCtx{
		job:                  job,
		pods:                 pods,
		activePods:           activePods,
		ready:                countReadyPods(activePods),
		uncounted:            newUncountedTerminatedPods(*job.Status.UncountedTerminatedPods),
		expectedRmFinalizers: jm.finalizerExpectations.getExpectedUIDs(key),
		terminating:          countTerminatingPods(pods),
	}
	active := int32(len(activePods))
	newSucceeded, newFailed := getNewFinishedPods(jc)
	jc.succeeded = job.Status.Succeeded + int32(len(newSucceeded)) + int32(len(jc.uncounted.succeeded))
	jc.failed = job.Status.Failed + int32(len(newFailed)) + int32(len(jc.uncounted.failed))

	if job.Status.StartTime == nil && !jobSuspended(job) {
		t := api.NewTime(now)
		job.Status.StartTime = &t
	}
	jc.newBackoffRecord = jm.backoff.newBackoffRecord(key, newSucceeded, newFailed)

	jc.finishedCondition = hasSuccessCriteriaMetCondition(job)
	if jc.finishedCondition == nil {
		if ft := findConditionByType(job.Status.Conditions, api.JobFailureTarget); ft != nil && ft.Status == api.ConditionTrue {
			jc.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, ft.Reason, ft.Message, now)
		}
	}
	if jc.finishedCondition == nil {
		switch {
		case jc.failed > backoffLimitOf(job) || pastBackoffLimitOnFailure(job, pods):
			jc.finishedCondition = newFailureCondition(api.JobReasonBackoffLimitExceeded, msgBackoffLimitExceeded, now)
		case jm.pastActiveDeadline(job):
			jc.finishedCondition = newFailureCondition(api.JobReasonDeadlineExceeded, msgDeadlineExceeded, now)
		case job.Spec.ActiveDeadlineSeconds != nil && !jobSuspended(job):
			left := time.Duration(*job.Spec.ActiveDeadlineSeconds)*time.Second - jm.clock.Since(job.Status.StartTime.Time)
			jm.queue.AddAfter(key, left)
		}
	}
	if isIndexedJob(job) {
		jc.prevSucceededIndexes, jc.succeededIndexes = calculateSucceededIndexes(job, pods)
		jc.succeeded = int32(jc.succeededIndexes.total())
	}

	var manageErr error
	suspendCondChanged := false
	if jc.finishedCondition != nil {
		deletedReady, deleted, err := jm.deleteActivePods(job, jc.activePods)
		if deleted != active || !satisfied {
			// Pods may remain that the cache has not shown yet: not finished.
			jc.finishedCondition = nil
		}
		active -= deleted
		jc.terminating += deleted
		jc.ready -= deletedReady
		manageErr = err
	} else {
		manageCalled := false
		if satisfied && job.DeletionTimestamp == nil {
			active, manageErr = jm.manageJob(job, jc)
			manageCalled = true
		}
		var complete bool
		if job.Spec.Completions == nil {
			// Any success completes the job once nothing runs.
			complete = jc.succeeded > 0 && active == 0
		} else {
			complete = jc.succeeded >= *job.Spec.Completions && active == 0
		}
		switch {
		case complete:
			jc.finishedCondition = newSuccessCondition(now)
		case manageCalled && jobSuspended(job):
			var changed bool
			job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionTrue, "JobSuspended", "Job suspended", now)
			if changed {
				suspendCondChanged = true
				jm.recorder.Event(job, api.EventTypeNormal, "Suspended", "Job suspended")
			}
		case manageCalled:
			var changed bool
			job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionFalse, "JobResumed", "Job resumed", now)
			if changed {
				suspendCondChanged = true
				jm.recorder.Event(job, api.EventTypeNormal, "Resumed", "Job resumed")
				// activeDeadlineSeconds counts continuous activity: restart it.
				t := api.NewTime(now)
				job.Status.StartTime = &t
			}
		}
	}

	needsStatusUpdate := suspendCondChanged || active != job.Status.Active ||
		job.Status.Ready == nil || *job.Status.Ready != jc.ready ||
		job.Status.Terminating == nil || *job.Status.Terminating != jc.terminating
	job.Status.Active = active
	job.Status.Ready = api.Int32(jc.ready)
	job.Status.Terminating = api.Int32(jc.terminating)
	if err := jm.trackJobStatusAndRemoveFinalizers(jc, needsStatusUpdate); err != nil {
		return fmt.Errorf("tracking status: %w", err)
	}
	return manageErr
}

// getPodsForJob returns the job's pods after adoption and release. Pods
// it adopts are given the tracking finalizer for this sync's counting.
func (jm *Controller) getPodsForJob(j *api.Job) ([]*api.Pod, error) {
	sel, err := jobSelector(j)
	if err != nil {
		return nil, fmt.Errorf("couldn't convert Job selector: %v", err)
	}
	var all []*api.Pod
	orphans := map[string]bool{}
	for _, o := range jm.podInf.List(j.Namespace) {
		p := o.(*api.Pod)
		all = append(all, p)
		if p.GetControllerOf() == nil {
			orphans[p.UID] = true
		}
	}
	m := &controller.PodControllerRefManager{
		Client:     jm.client,
		Controller: j,
		Selector:   sel,
		CanAdopt: controller.RecheckDeletionTimestamp(func() (api.Object, error) {
			return client.Get[*api.Job](jm.client, j.Namespace, j.Name)
		}, j.UID),
	}
	pods, err := m.ClaimPods(all)
	for i, p := range pods {
		if orphans[p.UID] && !hasJobTrackingFinalizer(p) {
			c := p.DeepCopy()
			c.Finalizers = append(c.Finalizers, api.JobTrackingFinalizer)
			pods[i] = c
		}
	}
	return pods, err
}

// getNewFinishedPods returns the succeeded and failed pods not yet
// counted: those still carrying the finalizer and not in the uncounted
// lists (and, for Indexed jobs, with a valid index).
func getNewFinishedPods(jc *syncJobCtx) (succeeded, failed []*api.Pod) {
	for _, p := range jc.pods {
		if !hasJobTrackingFinalizer(p) || jc.expectedRmFinalizers[p.UID] {
			continue
		}
		if isIndexedJob(jc.job) {
			if ix := getCompletionIndex(p.Annotations); ix == unknownCompletionIndex || ix >= int(*jc.job.Spec.Completions) {
				continue
			}
		}
		if p.Status.Phase == api.PodSucceeded && !jc.uncounted.succeeded[p.UID] {
			succeeded = append(succeeded, p)
		} else if isPodFailed(p, jc.job) && !jc.uncounted.failed[p.UID] {
			failed = append(failed, p)
		}
	}
	return succeeded, failed
}

// updateJobStatus writes jc.job's status and keeps the stored result.
func (jm *Controller) updateJobStatus(jc *syncJobCtx) (*api.Job, error) {
	updated, err := client.UpdateStatus(jm.client, jc.job)
	if err != nil {
		return nil, err
	}
	jc.job = updated.DeepCopy()
	if jc.job.Status.UncountedTerminatedPods == nil {
		jc.job.Status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	return jc.job, nil
}
