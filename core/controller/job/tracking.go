package job

import (
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// uidTrackingExpectations remembers, per job, the pods whose tracking
// finalizer the controller removed and has not yet seen removed in its
// informer, so a stale cache never counts a pod twice.
type uidTrackingExpectations struct {
	byJob map[string]map[string]bool
}

func newUIDTrackingExpectations() *uidTrackingExpectations {
	return &uidTrackingExpectations{byJob: map[string]map[string]bool{}}
}

// getExpectedUIDs returns a copy of the pod UIDs still expected for key.
func (u *uidTrackingExpectations) getExpectedUIDs(key string) map[string]bool {
	out := map[string]bool{}
	for uid := range u.byJob[key] {
		out[uid] = true
	}
	return out
}

func (u *uidTrackingExpectations) expectFinalizersRemoved(key string, uids []string) {
	set := u.byJob[key]
	if set == nil {
		set = map[string]bool{}
		u.byJob[key] = set
	}
	for _, uid := range uids {
		set[uid] = true
	}
}

func (u *uidTrackingExpectations) finalizerRemovalObserved(key, uid string) {
	if set := u.byJob[key]; set != nil {
		delete(set, uid)
		if len(set) == 0 {
			delete(u.byJob, key)
		}
	}
}

func (u *uidTrackingExpectations) deleteExpectations(key string) { delete(u.byJob, key) }

func hasJobTrackingFinalizer(p *api.Pod) bool { return p.HasFinalizer(api.JobTrackingFinalizer) }

// uncountedTerminatedPods is status.uncountedTerminatedPods as sets.
type uncountedTerminatedPods struct {
	succeeded, failed map[string]bool
}

func newUncountedTerminatedPods(in api.UncountedTerminatedPods) *uncountedTerminatedPods {
	u := &uncountedTerminatedPods{succeeded: map[string]bool{}, failed: map[string]bool{}}
	for _, uid := range in.Succeeded {
		u.succeeded[uid] = true
	}
	for _, uid := range in.Failed {
		u.failed[uid] = true
	}
	return u
}

// cleanUncountedPodsWithoutFinalizers moves the uncounted pods whose
// finalizer is gone into the succeeded and failed counters: only then is a
// pod counted, exactly once. It reports whether status changed.
func cleanUncountedPodsWithoutFinalizers(status *api.JobStatus, withFinalizer map[string]bool) bool {
	u := status.UncountedTerminatedPods
	changed := false
	if kept := filterUIDs(u.Succeeded, withFinalizer); len(kept) != len(u.Succeeded) {
		status.Succeeded += int32(len(u.Succeeded) - len(kept))
		u.Succeeded = kept
		changed = true
	}
	if kept := filterUIDs(u.Failed, withFinalizer); len(kept) != len(u.Failed) {
		status.Failed += int32(len(u.Failed) - len(kept))
		u.Failed = kept
		changed = true
	}
	return changed
}

func filterUIDs(uids []string, keep map[string]bool) []string {
	var out []string
	for _, uid := range uids {
		if keep[uid] {
			out = append(out, uid)
		}
	}
	return out
}

// trackJobStatusAndRemoveFinalizers is the counting protocol of v1.32:
//  1. finished pods still carrying the finalizer go into
//     status.uncountedTerminatedPods (written first, so a crash cannot lose them);
//  2. their finalizers are removed;
//  3. pods whose finalizer is gone move from the uncounted lists to the
//     succeeded and failed counters;
//  4. once nothing is uncounted or terminating, the interim condition
//     becomes Complete or Failed.
func (jm *Controller) trackJobStatusAndRemoveFinalizers(jc *syncJobCtx, needsFlush bool) error {
	job := jc.job
	indexed := isIndexedJob(job)
	pods := jc.pods
	if indexed {
		pods = append([]*api.Pod(nil), pods...)
		sort.SliceStable(pods, func(i, j int) bool {
			return getCompletionIndex(pods[i].Annotations) < getCompletionIndex(pods[j].Annotations)
		})
	}
	withFinalizer := map[string]bool{}
	for _, p := range pods {
		if hasJobTrackingFinalizer(p) && !jc.expectedRmFinalizers[p.UID] {
			withFinalizer[p.UID] = true
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&job.Status, withFinalizer) {
		needsFlush = true
	}
	uncounted := job.Status.UncountedTerminatedPods
	var toRemove []*api.Pod
	var newSucceededIndexes []int
	reachedMax := false
	for _, p := range pods {
		if !hasJobTrackingFinalizer(p) || jc.expectedRmFinalizers[p.UID] {
			continue // counted in an earlier sync
		}
		failed := isPodFailed(p, job)
		if !canRemoveFinalizer(jc, p, failed) {
			continue
		}
		toRemove = append(toRemove, p)
		switch {
		case p.Status.Phase == api.PodSucceeded && !jc.uncounted.failed[p.UID]:
			if indexed {
				ix := getCompletionIndex(p.Annotations)
				if ix != unknownCompletionIndex && ix < int(*job.Spec.Completions) && !jc.prevSucceededIndexes.has(ix) {
					newSucceededIndexes = append(newSucceededIndexes, ix)
					needsFlush = true
				}
			} else if !jc.uncounted.succeeded[p.UID] {
				uncounted.Succeeded = append(uncounted.Succeeded, p.UID)
				needsFlush = true
			}
		case failed || (jc.finishedCondition != nil && !isSuccessCriteriaMetCondition(jc.finishedCondition)):
			// A job that is failing counts every pod it stops as failed.
			ix := getCompletionIndex(p.Annotations)
			if !jc.uncounted.failed[p.UID] && (!indexed || (ix != unknownCompletionIndex && ix < int(*job.Spec.Completions))) {
				uncounted.Failed = append(uncounted.Failed, p.UID)
				needsFlush = true
			}
		}
		if len(newSucceededIndexes)+len(uncounted.Succeeded)+len(uncounted.Failed) >= MaxUncountedPods {
			// Keep status small; the status write requeues the job for the rest.
			reachedMax = true
			break
		}
	}
	if indexed {
		sort.Ints(newSucceededIndexes)
		jc.succeededIndexes = jc.succeededIndexes.withOrderedIndexes(newSucceededIndexes)
		s := jc.succeededIndexes.String()
		if s != job.Status.CompletedIndexes {
			needsFlush = true
		}
		job.Status.Succeeded = int32(jc.succeededIndexes.total())
		job.Status.CompletedIndexes = s
	}
	if fc := jc.finishedCondition; fc != nil && fc.Type == api.JobFailureTarget {
		job.Status.Conditions = append(job.Status.Conditions, *fc)
		needsFlush = true
		jc.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, fc.Reason, fc.Message, jm.clock.Now())
	}
	if fc := jc.finishedCondition; isSuccessCriteriaMetCondition(fc) {
		if hasSuccessCriteriaMetCondition(job) == nil {
			job.Status.Conditions = append(job.Status.Conditions, *fc)
			needsFlush = true
		}
		jc.finishedCondition = newCondition(api.JobComplete, api.ConditionTrue, fc.Reason, fc.Message, jm.clock.Now())
	}
	var err error
	if needsFlush, err = jm.flushUncountedAndRemoveFinalizers(jc, toRemove, withFinalizer, needsFlush); err != nil {
		return err
	}
	finished := !reachedMax && jm.enactJobFinished(jc)
	if finished {
		needsFlush = true
	}
	if needsFlush {
		if _, err := jm.updateJobStatus(jc); err != nil {
			return err
		}
		if finished {
			jm.recordJobFinished(jc.job, jc.finishedCondition)
		}
	}
	return nil
}

// canRemoveFinalizer: a pod is released once it succeeded, once it failed,
// or once the whole job is finishing or being deleted.
func canRemoveFinalizer(jc *syncJobCtx, p *api.Pod, failed bool) bool {
	return jc.job.DeletionTimestamp != nil || jc.finishedCondition != nil || p.Status.Phase == api.PodSucceeded || failed
}

// flushUncountedAndRemoveFinalizers writes the uncounted pods, removes
// their finalizers and moves them into the counters; it returns whether
// status still has unwritten changes.
func (jm *Controller) flushUncountedAndRemoveFinalizers(jc *syncJobCtx, toRemove []*api.Pod, withFinalizer map[string]bool, needsFlush bool) (bool, error) {
	if needsFlush {
		if _, err := jm.updateJobStatus(jc); err != nil {
			return needsFlush, err
		}
		jm.backoff.updateBackoffRecord(jc.newBackoffRecord)
		needsFlush = false
	}
	var rmErr error
	if len(toRemove) > 0 {
		var removed []bool
		removed, rmErr = jm.removeTrackingFinalizerFromPods(client.KeyOf(jc.job), toRemove)
		for i, p := range toRemove {
			if removed[i] {
				delete(withFinalizer, p.UID)
			}
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&jc.job.Status, withFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		if _, err := jm.updateJobStatus(jc); err != nil {
			return needsFlush, err
		}
	}
	return needsFlush, rmErr
}

// enactJobFinished adds Complete or Failed once every pod is counted and
// none is terminating, and reports whether it did.
func (jm *Controller) enactJobFinished(jc *syncJobCtx) bool {
	fc := jc.finishedCondition
	if fc == nil {
		return false
	}
	job := jc.job
	if u := job.Status.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		return false
	}
	if jc.terminating > 0 {
		return false
	}
	job.Status.Conditions, _ = ensureJobConditionStatus(job.Status.Conditions, fc.Type, fc.Status, fc.Reason, fc.Message, jm.clock.Now())
	if fc.Type == api.JobComplete {
		t := fc.LastTransitionTime
		job.Status.CompletionTime = &t
	}
	return true
}

// recordJobFinished records the Completed event, or the failure reason
// as a warning.
func (jm *Controller) recordJobFinished(job *api.Job, fc *api.JobCondition) {
	if fc.Type == api.JobComplete {
		if job.Spec.Completions != nil && job.Status.Succeeded > *job.Spec.Completions {
			jm.recorder.Event(job, api.EventTypeWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		jm.recorder.Event(job, api.EventTypeNormal, "Completed", "Job completed")
		return
	}
	jm.recorder.Event(job, api.EventTypeWarning, fc.Reason, fc.Message)
}
