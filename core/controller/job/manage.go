package job

import (
	"encoding/json"
	"fmt"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/controller"
)

// Batch limits of one sync, as upstream's.
const (
	// MaxUncountedPods bounds status.uncountedTerminatedPods (about 20 KB).
	MaxUncountedPods = 500
	// MaxPodCreateDeletePerSync bounds the pods created or deleted in one sync.
	MaxPodCreateDeletePerSync = 500
	// slowStartInitialBatchSize is the first batch of creations; batches
	// double while creations succeed.
	slowStartInitialBatchSize = 1
)

func jobSuspended(j *api.Job) bool { return j.Spec.Suspend != nil && *j.Spec.Suspend }

func parallelismOf(j *api.Job) int32 {
	if j.Spec.Parallelism == nil {
		return 1
	}
	return *j.Spec.Parallelism
}

func backoffLimitOf(j *api.Job) int32 {
	if j.Spec.BackoffLimit == nil {
		return 6
	}
	return *j.Spec.BackoffLimit
}

// onlyReplaceFailedPods: with podReplacementPolicy Failed (or a pod failure
// policy), a replacement waits until the old pod has fully terminated.
func onlyReplaceFailedPods(j *api.Job) bool {
	if j.Spec.PodReplacementPolicy != nil && *j.Spec.PodReplacementPolicy == api.PodReplacementPolicyFailed {
		return true
	}
	return j.Spec.PodFailurePolicy != nil
}

// isPodFailed: a Failed pod, or (unless only failed pods are replaced) a
// pod deleted before it succeeded, which may never reach Failed.
func isPodFailed(p *api.Pod, j *api.Job) bool {
	if p.Status.Phase == api.PodFailed {
		return true
	}
	if onlyReplaceFailedPods(j) {
		return false
	}
	return p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded
}

func countReadyPods(pods []*api.Pod) int32 {
	var n int32
	for _, p := range pods {
		if api.IsPodReady(p) {
			n++
		}
	}
	return n
}

// countTerminatingPods counts pods being deleted that have not finished.
func countTerminatingPods(pods []*api.Pod) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil && !api.IsPodTerminal(p) {
			n++
		}
	}
	return n
}

// pastBackoffLimitOnFailure: with restartPolicy OnFailure the kubelet
// restarts containers in place, so the restarts of running and pending
// pods count toward backoffLimit.
func pastBackoffLimitOnFailure(j *api.Job, pods []*api.Pod) bool {
	if j.Spec.Template.Spec.RestartPolicy != api.RestartPolicyOnFailure {
		return false
	}
	var restarts int32
	for _, p := range pods {
		if p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodPending {
			continue
		}
		for _, s := range p.Status.InitContainerStatuses {
			restarts += s.RestartCount
		}
		for _, s := range p.Status.ContainerStatuses {
			restarts += s.RestartCount
		}
	}
	limit := backoffLimitOf(j)
	if limit == 0 {
		return restarts > 0
	}
	return restarts >= limit
}

// pastActiveDeadline: the job ran longer than activeDeadlineSeconds since
// it (last) started; a suspended job's clock is stopped.
func (jm *Controller) pastActiveDeadline(j *api.Job) bool {
	if j.Spec.ActiveDeadlineSeconds == nil || j.Status.StartTime == nil || jobSuspended(j) {
		return false
	}
	return jm.clock.Since(j.Status.StartTime.Time) >= time.Duration(*j.Spec.ActiveDeadlineSeconds)*time.Second
}

// manageJob creates or deletes pods so the job runs as many as it should,
// and returns how many are active afterwards. A suspended job loses all
// its pods; a job within its failure back-off creates none yet.
func (jm *Controller) manageJob(job *api.Job, jc *syncJobCtx) (int32, error) {
	active := int32(len(jc.activePods))
	key := client.KeyOf(job)
	if jobSuspended(job) {
		toDelete := activePodsForRemoval(job, jc.activePods, int(active))
		jm.expectations.ExpectDeletions(key, len(toDelete))
		removedReady, removed, err := jm.deleteJobPods(job, key, toDelete)
		jc.terminating += removed
		jc.ready -= removedReady
		return active - removed, err
	}
	parallelism := parallelismOf(job)
	var want int32
	if job.Spec.Completions == nil {
		// Without completions any success ends the job: keep what runs.
		if jc.succeeded > 0 {
			want = active
		} else {
			want = parallelism
		}
	} else {
		want = min(*job.Spec.Completions-jc.succeeded, parallelism)
		want = max(want, 0)
	}
	toDelete := activePodsForRemoval(job, jc.activePods, int(max(active-want, 0)))
	if len(toDelete) > MaxPodCreateDeletePerSync {
		toDelete = toDelete[:MaxPodCreateDeletePerSync]
	}
	if len(toDelete) > 0 {
		// Deleting takes precedence over creating in one sync.
		jm.expectations.ExpectDeletions(key, len(toDelete))
		removedReady, removed, err := jm.deleteJobPods(job, key, toDelete)
		jc.terminating += removed
		jc.ready -= removedReady
		return active - removed, err
	}
	var terminating int32
	if onlyReplaceFailedPods(job) {
		terminating = jc.terminating
	}
	diff := want - terminating - active
	if diff <= 0 {
		return active, nil
	}
	if remaining := jc.newBackoffRecord.getRemainingTime(jm.clock.Now()); remaining > 0 {
		jm.enqueueSyncJobWithDelay(key, remaining)
		// v1.32 returned 0 here, a bug fixed upstream later (#139428):
		// the running pods are still active.
		return active, nil
	}
	diff = min(diff, MaxPodCreateDeletePerSync)
	var indexes []int
	if isIndexedJob(job) {
		indexes = firstPendingIndexes(jc.activePods, jc.succeededIndexes, int(diff), int(*job.Spec.Completions))
		diff = int32(len(indexes))
	}
	jm.expectations.ExpectCreations(key, int(diff))
	template := job.Spec.Template.DeepCopy()
	if isIndexedJob(job) {
		addCompletionIndexEnvVariables(template)
	}
	if !template.HasFinalizer(api.JobTrackingFinalizer) {
		template.Finalizers = append(template.Finalizers, api.JobTrackingFinalizer)
	}
	if job.Spec.Selector == nil {
		addGeneratedLabels(template, job)
	}
	ref := controller.NewControllerRef(job)
	active += diff
	var firstErr error
	for batch := min(diff, slowStartInitialBatchSize); diff > 0; batch = min(2*batch, diff) {
		failed := false
		for i := int32(0); i < batch; i++ {
			ix := unknownCompletionIndex
			if len(indexes) > 0 {
				ix, indexes = indexes[0], indexes[1:]
			}
			if err := jm.createPod(job, template, ref, ix); err != nil {
				jm.expectations.CreationObserved(key)
				active--
				if firstErr == nil {
					firstErr = err
				}
				failed = true
			}
		}
		diff -= batch
		if failed && diff > 0 {
			// Slow start: after a failed batch, skip the rest until the next sync.
			for i := int32(0); i < diff; i++ {
				jm.expectations.CreationObserved(key)
			}
			active -= diff
			break
		}
	}
	return active, firstErr
}

// createPod creates one pod of the job, with its completion index (-1
// for none). A namespace being deleted is not an error worth retrying.
func (jm *Controller) createPod(job *api.Job, template *api.PodTemplateSpec, ref *api.OwnerReference, ix int) error {
	t := template
	if ix != unknownCompletionIndex {
		t = template.DeepCopy()
		addCompletionIndex(t, job.Name, ix)
	}
	pod := controller.GetPodFromTemplate(t, job, ref)
	if ix != unknownCompletionIndex {
		pod.GenerateName = podGenerateNameWithIndex(job.Name, ix)
	}
	_, err := jm.podControl.CreatePod(pod, job)
	if err != nil && isNamespaceTerminating(err) {
		return nil
	}
	return err
}

// addGeneratedLabels adds the labels the API server puts on a Job's
// template with its generated selector, for a Job stored without one.
func addGeneratedLabels(t *api.PodTemplateSpec, job *api.Job) {
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for k, v := range map[string]string{
		api.ControllerUidLabel: job.UID, api.JobNameLabel: job.Name,
		api.LegacyControllerUidLabel: job.UID, api.LegacyJobNameLabel: job.Name,
	} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = v
		}
	}
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

// activePodsForRemoval picks at least rmAtLeast pods to delete, cheapest
// first; an Indexed job also drops pods with a repeated, missing or
// out-of-range index.
func activePodsForRemoval(job *api.Job, pods []*api.Pod, rmAtLeast int) []*api.Pod {
	var rm, left []*api.Pod
	if isIndexedJob(job) {
		rm, left = appendDuplicatedIndexPodsForRemoval(nil, nil, pods, int(*job.Spec.Completions))
	} else {
		left = append([]*api.Pod(nil), pods...)
	}
	if len(rm) < rmAtLeast {
		sortActivePods(left)
		rm = append(rm, left[:min(rmAtLeast-len(rm), len(left))]...)
	}
	return rm
}

// deleteJobPods releases and deletes pods the job no longer wants (scale
// down, suspend): they are not counted as failures. It returns how many
// ready pods and how many pods in all were deleted.
func (jm *Controller) deleteJobPods(job *api.Job, key string, pods []*api.Pod) (int32, int32, error) {
	var deletedReady, deleted int32
	var firstErr error
	fail := func(err error) {
		jm.expectations.DeletionObserved(key)
		if !apierrors.IsNotFound(err) && firstErr == nil {
			firstErr = err
		}
	}
	for _, p := range pods {
		if err := jm.removeTrackingFinalizer(p); err != nil {
			fail(fmt.Errorf("removing completion finalizer: %w", err))
			continue
		}
		if err := jm.podControl.DeletePod(p.Namespace, p.Name, job); err != nil {
			fail(err)
			if !apierrors.IsNotFound(err) {
				continue
			}
		}
		deleted++
		if api.IsPodReady(p) {
			deletedReady++
		}
	}
	return deletedReady, deleted, firstErr
}

// deleteActivePods deletes the pods of a finishing job but keeps their
// finalizers: they are counted (as failed) before they go.
func (jm *Controller) deleteActivePods(job *api.Job, pods []*api.Pod) (int32, int32, error) {
	var deletedReady, deleted int32
	var firstErr error
	for _, p := range pods {
		if err := jm.podControl.DeletePod(job.Namespace, p.Name, job); err != nil && !apierrors.IsNotFound(err) {
			if firstErr == nil {
				firstErr = err
			}
		} else {
			deleted++
		}
		if api.IsPodReady(p) {
			deletedReady++
		}
	}
	return deletedReady, deleted, firstErr
}

// removeTrackingFinalizerFromPods removes the finalizer from each pod and
// reports which removals took effect (a pod already gone counts).
func (jm *Controller) removeTrackingFinalizerFromPods(key string, pods []*api.Pod) ([]bool, error) {
	done := make([]bool, len(pods))
	uids := make([]string, len(pods))
	for i, p := range pods {
		uids[i] = p.UID
	}
	jm.finalizerExpectations.expectFinalizersRemoved(key, uids)
	var firstErr error
	for i, p := range pods {
		if !hasJobTrackingFinalizer(p) {
			continue
		}
		if err := jm.removeTrackingFinalizer(p); err != nil {
			jm.finalizerExpectations.finalizerRemovalObserved(key, p.UID)
			if !apierrors.IsNotFound(err) {
				if firstErr == nil {
					firstErr = fmt.Errorf("removing tracking finalizer: %w", err)
				}
				continue
			}
		}
		done[i] = true
	}
	return done, firstErr
}

// removeTrackingFinalizer patches the job-tracking finalizer off a pod; a
// strategic merge patch cannot conflict with the kubelet's status writes.
func (jm *Controller) removeTrackingFinalizer(p *api.Pod) error {
	if !hasJobTrackingFinalizer(p) {
		return nil
	}
	data, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"$deleteFromPrimitiveList/finalizers": []string{api.JobTrackingFinalizer}},
	})
	_, err := jm.client.Patch(client.ResourceFor[*api.Pod](jm.client), p.Namespace, p.Name, apiserver.StrategicMergePatchType, data, apiserver.PatchOptions{})
	return err
}
