package statefulset

import (
	"errors"
	"sort"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/controller/history"
)

// MaxBatchSize caps one slow-start batch of Parallel pod operations.
const MaxBatchSize = 500

// defaultStatefulSetControl is the StatefulSet's update loop: scale up in
// ordinal order with no new pod while one is unhealthy, scale down from the
// highest ordinal, roll updates from the highest ordinal down to the
// partition. Parallel pod management relaxes the ordering.
type defaultStatefulSetControl struct {
	podControl *StatefulPodControl
	history    *history.History
	status     *statusUpdater
	now        func() time.Time
	// maxUnavailable follows the MaxUnavailableStatefulSet feature gate,
	// alpha and off in v1.32: rolling updates replace one pod at a time.
	maxUnavailable bool
}

// UpdateStatefulSet syncs set's pods and revisions and writes its status.
func (ssc *defaultStatefulSetControl) UpdateStatefulSet(set *api.StatefulSet, pods []*api.Pod) (*api.StatefulSetStatus, error) {
	set = set.DeepCopy()
	revisions, err := ssc.ListRevisions(set)
	if err != nil {
		return nil, err
	}
	history.SortControllerRevisions(revisions)
	current, update, status, err := ssc.performUpdate(set, pods, revisions)
	truncErr := ssc.truncateHistory(set, pods, revisions, current, update)
	if err != nil {
		return nil, errors.Join(err, truncErr)
	}
	return status, truncErr
}

func (ssc *defaultStatefulSetControl) performUpdate(set *api.StatefulSet, pods []*api.Pod, revisions []*api.ControllerRevision) (*api.ControllerRevision, *api.ControllerRevision, *api.StatefulSetStatus, error) {
	current, update, collisionCount, err := ssc.getStatefulSetRevisions(set, revisions)
	if err != nil {
		return current, update, nil, err
	}
	status, err := ssc.updateStatefulSet(set, current, update, collisionCount, pods)
	if err != nil && status == nil {
		return current, update, nil, err
	}
	// The status is written even when the update stopped on an error.
	statusErr := ssc.updateStatefulSetStatus(set, status)
	if err != nil {
		return current, update, status, err
	}
	return current, update, status, statusErr
}

// ListRevisions lists the revisions set's selector matches and set owns
// or nobody does.
func (ssc *defaultStatefulSetControl) ListRevisions(set *api.StatefulSet) ([]*api.ControllerRevision, error) {
	selector, err := labels.SelectorFromLabelSelector(set.Spec.Selector)
	if err != nil {
		return nil, err
	}
	return ssc.history.ListControllerRevisions(set, selector), nil
}

// AdoptOrphanRevisions makes set the controller of revisions.
func (ssc *defaultStatefulSetControl) AdoptOrphanRevisions(set *api.StatefulSet, revisions []*api.ControllerRevision) error {
	for i := range revisions {
		adopted, err := ssc.history.AdoptControllerRevision(set, controllerKind, revisions[i])
		if err != nil {
			return err
		}
		revisions[i] = adopted
	}
	return nil
}

// truncateHistory deletes the oldest revisions nothing uses until at most
// revisionHistoryLimit remain. Live are the current and update revisions
// and every revision a pod carries.
func (ssc *defaultStatefulSetControl) truncateHistory(set *api.StatefulSet, pods []*api.Pod, revisions []*api.ControllerRevision, current, update *api.ControllerRevision) error {
	live := map[string]bool{}
	if current != nil {
		live[current.Name] = true
	}
	if update != nil {
		live[update.Name] = true
	}
	for _, p := range pods {
		live[getPodRevision(p)] = true
	}
	limit := 10
	if set.Spec.RevisionHistoryLimit != nil {
		limit = int(*set.Spec.RevisionHistoryLimit)
	}
	for _, r := range history.RevisionsToTruncate(revisions, live, limit) {
		if err := ssc.history.DeleteControllerRevision(r); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// getStatefulSetRevisions returns the current and update revisions and the
// collision count. The update revision is the set's template: an existing
// equal revision is reused (renumbered when it is not the latest, which is
// a rollback), otherwise a new one is created.
func (ssc *defaultStatefulSetControl) getStatefulSetRevisions(set *api.StatefulSet, revisions []*api.ControllerRevision) (*api.ControllerRevision, *api.ControllerRevision, int32, error) {
	var collisionCount int32
	if set.Status.CollisionCount != nil {
		collisionCount = *set.Status.CollisionCount
	}
	update, err := newRevision(set, history.NextRevision(revisions), &collisionCount)
	if err != nil {
		return nil, nil, collisionCount, err
	}
	equal := history.FindEqualRevisions(revisions, update)
	switch {
	case len(equal) > 0 && history.EqualRevision(revisions[len(revisions)-1], equal[len(equal)-1]):
		update = revisions[len(revisions)-1]
	case len(equal) > 0:
		update, err = ssc.history.UpdateControllerRevision(equal[len(equal)-1], update.Revision)
	default:
		update, err = ssc.history.CreateControllerRevision(set, update, &collisionCount)
	}
	if err != nil {
		return nil, nil, collisionCount, err
	}
	var current *api.ControllerRevision
	for _, r := range revisions {
		if r.Name == set.Status.CurrentRevision {
			current = r
			break
		}
	}
	if current == nil {
		current = update
	}
	return current, update, collisionCount, nil
}

// computeReplicaStatus counts pods by state and revision.
func computeReplicaStatus(status *api.StatefulSetStatus, pods []*api.Pod, minReadySeconds int32, now time.Time, current, update *api.ControllerRevision) {
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		if isCreated(pod) {
			status.Replicas++
		}
		if isRunningAndReady(pod) {
			status.ReadyReplicas++
			if isRunningAndAvailable(pod, minReadySeconds, now) {
				status.AvailableReplicas++
			}
		}
		if isCreated(pod) && !isTerminating(pod) {
			rev := getPodRevision(pod)
			if rev == current.Name {
				status.CurrentReplicas++
			}
			if rev == update.Name {
				status.UpdatedReplicas++
			}
		}
	}
}

func (ssc *defaultStatefulSetControl) updateStatus(status *api.StatefulSetStatus, minReadySeconds int32, current, update *api.ControllerRevision, podLists ...[]*api.Pod) {
	status.Replicas, status.ReadyReplicas, status.AvailableReplicas = 0, 0, 0
	status.CurrentReplicas, status.UpdatedReplicas = 0, 0
	now := ssc.now()
	for _, list := range podLists {
		computeReplicaStatus(status, list, minReadySeconds, now, current, update)
	}
}

// processReplica brings replica i to its identity, storage and revision.
// It reports whether a monotonic (OrderedReady) sync must stop here.
func (ssc *defaultStatefulSetControl) processReplica(set, updateSet *api.StatefulSet, monotonic bool, replicas []*api.Pod, i int) (bool, error) {
	pod := replicas[i]
	// A finished pod is replaced whatever its exit: the next sync, once it
	// is gone, creates it again.
	if isFailed(pod) || isSucceeded(pod) {
		if pod.DeletionTimestamp == nil {
			if err := ssc.podControl.DeleteStatefulPod(set, pod); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	if !isCreated(pod) {
		if ssc.podControl.PodClaimIsStale(set, pod) {
			// Its claim is still being deleted with the old pod.
			return true, nil
		}
		if err := ssc.podControl.CreateStatefulPod(set, pod); err != nil {
			return true, err
		}
		if monotonic {
			return true, nil
		}
	}
	if isPending(pod) {
		if err := ssc.podControl.createMissingPersistentVolumeClaims(set, pod); err != nil {
			return true, err
		}
	}
	now := ssc.now()
	if monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, set.Spec.MinReadySeconds, now)) {
		// Wait for this pod before touching its successors.
		return true, nil
	}
	retentionMatch, err := ssc.podControl.ClaimsMatchRetentionPolicy(updateSet, pod)
	if err != nil {
		retentionMatch = true
	}
	if identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch {
		return false, nil
	}
	if err := ssc.podControl.UpdateStatefulPod(updateSet, pod.DeepCopy()); err != nil {
		return true, err
	}
	return false, nil
}

// processCondemned deletes condemned pod i (one beyond the wanted
// ordinals); in OrderedReady mode only once it is healthy or the first
// unhealthy pod, and one at a time.
func (ssc *defaultStatefulSetControl) processCondemned(set *api.StatefulSet, firstUnhealthy *api.Pod, monotonic bool, condemned []*api.Pod, i int) (bool, error) {
	pod := condemned[i]
	if isTerminating(pod) {
		return monotonic, nil
	}
	now := ssc.now()
	if monotonic && pod != firstUnhealthy && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, set.Spec.MinReadySeconds, now)) {
		return true, nil
	}
	return true, ssc.podControl.DeleteStatefulPod(set, pod)
}

// runForAll calls fn for each index: in order, stopping at the first stop
// or error, when monotonic; otherwise in slow-start batches (1, 2, 4, …)
// that stop after a batch with errors, as upstream's parallel batches do.
func runForAll(n int, fn func(i int) (bool, error), monotonic bool) (bool, error) {
	if monotonic {
		for i := 0; i < n; i++ {
			if stop, err := fn(i); stop || err != nil {
				return true, err
			}
		}
		return false, nil
	}
	if _, err := slowStartBatch(1, n, fn); err != nil {
		return true, err
	}
	return false, nil
}

func slowStartBatch(initial, remaining int, fn func(int) (bool, error)) (int, error) {
	successes, j := 0, 0
	for batch := min(remaining, initial); batch > 0; batch = min(2*batch, remaining, MaxBatchSize) {
		var errs []error
		for k := 0; k < batch; k++ {
			if _, err := fn(j); err != nil {
				errs = append(errs, err)
			}
			j++
		}
		successes += batch - len(errs)
		if len(errs) > 0 {
			return successes, errors.Join(errs...)
		}
		remaining -= batch
	}
	return successes, nil
}

// updateStatefulSet creates, updates and deletes pods toward the set's
// spec and returns the status to record.
func (ssc *defaultStatefulSetControl) updateStatefulSet(set *api.StatefulSet, current, update *api.ControllerRevision, collisionCount int32, pods []*api.Pod) (*api.StatefulSetStatus, error) {
	currentSet, err := ApplyRevision(set, current)
	if err != nil {
		return nil, err
	}
	updateSet, err := ApplyRevision(set, update)
	if err != nil {
		return nil, err
	}
	status := &api.StatefulSetStatus{
		ObservedGeneration: set.Generation,
		CurrentRevision:    current.Name,
		UpdateRevision:     update.Name,
		CollisionCount:     api.Int32(collisionCount),
	}
	minReady := set.Spec.MinReadySeconds
	ssc.updateStatus(status, minReady, current, update, pods)

	replicas, condemned, complete := buildReplicas(set, pods, func(ord int) *api.Pod {
		return newVersionedStatefulSetPod(currentSet, updateSet, current.Name, update.Name, ord)
	})
	sortDescendingOrdinal(condemned)

	now := ssc.now()
	var firstUnavailable *api.Pod
	for _, p := range replicas {
		if isUnavailable(p, minReady, now) {
			firstUnavailable = p
			break
		}
	}
	if firstUnavailable == nil {
		for i := len(condemned) - 1; i >= 0; i-- {
			if isUnavailable(condemned[i], minReady, now) {
				firstUnavailable = condemned[i]
				break
			}
		}
	}

	// A set being deleted only reports.
	if set.DeletionTimestamp != nil {
		return status, nil
	}
	monotonic := !allowsBurst(set)
	recount := func() { ssc.updateStatus(status, minReady, current, update, replicas, condemned) }

	if stop, err := runForAll(len(replicas), func(i int) (bool, error) {
		return ssc.processReplica(set, updateSet, monotonic, replicas, i)
	}, monotonic); stop || err != nil || !complete {
		// An incomplete view (a huge scale-up) waits for the next sync.
		recount()
		return status, err
	}
	if stop, err := runForAll(len(condemned), func(i int) (bool, error) {
		match, err := ssc.podControl.ClaimsMatchRetentionPolicy(updateSet, condemned[i])
		if err != nil {
			return true, err
		}
		if !match {
			if err := ssc.podControl.UpdatePodClaimForRetentionPolicy(updateSet, condemned[i]); err != nil {
				return true, err
			}
		}
		return false, nil
	}, monotonic); stop || err != nil {
		recount()
		return status, err
	}
	// Every wanted replica is healthy now (in OrderedReady mode): scale down.
	if stop, err := runForAll(len(condemned), func(i int) (bool, error) {
		return ssc.processCondemned(set, firstUnavailable, monotonic, condemned, i)
	}, monotonic); stop || err != nil {
		recount()
		return status, err
	}
	recount()

	if set.Spec.UpdateStrategy.Type == api.OnDeleteStatefulSetStrategyType {
		// Pods take the new template only when someone deletes them.
		return status, nil
	}
	if ssc.maxUnavailable {
		return ssc.updateStatefulSetAfterInvariantEstablished(set, replicas, update, status)
	}
	// Replace the highest-ordinal pod not at the update revision, waiting
	// for each replaced pod to be available before the next.
	updateMin := 0
	if set.Spec.UpdateStrategy.RollingUpdate != nil {
		updateMin = int(partitionOf(set))
	}
	for target := len(replicas) - 1; target >= updateMin; target-- {
		if getPodRevision(replicas[target]) != update.Name && !isTerminating(replicas[target]) {
			if err := ssc.podControl.DeleteStatefulPod(set, replicas[target]); err != nil && !apierrors.IsNotFound(err) {
				return status, err
			}
			status.CurrentReplicas--
			return status, nil
		}
		if isUnavailable(replicas[target], minReady, now) {
			return status, nil
		}
	}
	return status, nil
}

// maxNewReplicasPerSync bounds the pods one sync builds for missing
// ordinals, so a mistyped replica count cannot exhaust memory in one go.
const maxNewReplicasPerSync = MaxBatchSize

// buildReplicas splits pods into the wanted replicas, indexed by ordinal
// with newPod filling the gaps, and the condemned ones beyond the range.
// When more than maxNewReplicasPerSync are missing, replicas holds the
// existing pods and only that many new ones, in ordinal order, and
// complete is false: later syncs build the rest.
func buildReplicas(set *api.StatefulSet, pods []*api.Pod, newPod func(ord int) *api.Pod) (replicas, condemned []*api.Pod, complete bool) {
	start, end := getStartOrdinal(set), getEndOrdinal(set)
	byOrdinal := map[int]*api.Pod{}
	for _, pod := range pods {
		switch o := getOrdinal(pod); {
		case podInOrdinalRange(pod, set):
			byOrdinal[o] = pod
		case o >= 0:
			condemned = append(condemned, pod)
		}
	}
	sortDescendingOrdinal(condemned)
	want := max(end-start+1, 0)
	if want-len(byOrdinal) <= maxNewReplicasPerSync {
		replicas = make([]*api.Pod, want)
		for o, p := range byOrdinal {
			replicas[o-start] = p
		}
		for i := range replicas {
			if replicas[i] == nil {
				replicas[i] = newPod(start + i)
			}
		}
		return replicas, condemned, true
	}
	existing := make([]int, 0, len(byOrdinal))
	for o := range byOrdinal {
		existing = append(existing, o)
	}
	sort.Ints(existing)
	added := 0
	for o, k := start, 0; k < len(existing) || added < maxNewReplicasPerSync; {
		switch {
		case k < len(existing) && existing[k] == o:
			replicas = append(replicas, byOrdinal[o])
			k++
			o++
		case added < maxNewReplicasPerSync:
			replicas = append(replicas, newPod(o))
			added++
			o++
		default:
			o = existing[k]
		}
	}
	return replicas, condemned, false
}

// updateStatefulSetAfterInvariantEstablished is the rolling update with
// maxUnavailable: up to that many pods down at once, highest ordinal first.
func (ssc *defaultStatefulSetControl) updateStatefulSetAfterInvariantEstablished(set *api.StatefulSet, replicas []*api.Pod, update *api.ControllerRevision, status *api.StatefulSetStatus) (*api.StatefulSetStatus, error) {
	updateMin, maxUnavailable := 0, 1
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		updateMin = int(partitionOf(set))
		var err error
		if maxUnavailable, err = getStatefulSetMaxUnavailable(ru.MaxUnavailable, int(replicasOf(set))); err != nil {
			return status, err
		}
	}
	now := ssc.now()
	unavailable := 0
	for _, p := range replicas {
		if isUnavailable(p, set.Spec.MinReadySeconds, now) {
			unavailable++
		}
	}
	if unavailable > maxUnavailable {
		return status, nil
	}
	toDelete := maxUnavailable - unavailable
	for target := len(replicas) - 1; target >= updateMin && toDelete > 0; target-- {
		if getPodRevision(replicas[target]) != update.Name && !isTerminating(replicas[target]) {
			if err := ssc.podControl.DeleteStatefulPod(set, replicas[target]); err != nil && !apierrors.IsNotFound(err) {
				return status, err
			}
			toDelete--
			status.CurrentReplicas--
		}
	}
	return status, nil
}

// updateStatefulSetStatus completes a finished rolling update in status and
// writes it when it differs from what set shows.
func (ssc *defaultStatefulSetControl) updateStatefulSetStatus(set *api.StatefulSet, status *api.StatefulSetStatus) error {
	completeRollingUpdate(set, status)
	if !inconsistentStatus(set, status) {
		return nil
	}
	return ssc.status.UpdateStatefulSetStatus(set.DeepCopy(), status)
}
