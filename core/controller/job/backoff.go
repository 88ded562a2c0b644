package job

import (
	"sort"
	"time"

	"kubeplay/core/api"
)

// Pod failure back-off: a replacement for a failed pod waits 10 s, doubling
// with each failure since the last success, capped at 10 minutes (v1.32's
// MaxJobPodFailureBackOff; the docs' "six minutes" is the pre-1.27 cap).
const (
	DefaultJobPodFailureBackOff = 10 * time.Second
	MaxJobPodFailureBackOff     = 10 * time.Minute
)

// backoffRecord counts a job's pod failures since its last success.
type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// backoffStore keeps each job's record between syncs; it lives only in the
// controller, as upstream's does (a restarted controller forgets it).
type backoffStore struct {
	records map[string]backoffRecord
}

func newBackoffStore() *backoffStore { return &backoffStore{records: map[string]backoffRecord{}} }

func (s *backoffStore) updateBackoffRecord(r backoffRecord) { s.records[r.key] = r }

func (s *backoffStore) removeBackoffRecord(key string) { delete(s.records, key) }

// newBackoffRecord folds the pods that finished since the last sync into
// the job's record: a success resets the count, and only failures after
// the latest success count.
func (s *backoffStore) newBackoffRecord(key string, newSucceeded, newFailed []*api.Pod) backoffRecord {
	r, ok := s.records[key]
	if !ok {
		r = backoffRecord{key: key}
	}
	succeeded := sortByFinishedTime(newSucceeded)
	failed := sortByFinishedTime(newFailed)
	if len(succeeded) == 0 {
		if len(failed) == 0 {
			return r
		}
		r.failuresAfterLastSuccess += int32(len(failed))
		t := getFinishedTime(failed[len(failed)-1])
		r.lastFailureTime = &t
		return r
	}
	r.failuresAfterLastSuccess = 0
	r.lastFailureTime = nil
	lastSuccess := getFinishedTime(succeeded[len(succeeded)-1])
	for i := len(failed) - 1; i >= 0; i-- {
		t := getFinishedTime(failed[i])
		if !t.After(lastSuccess) {
			break
		}
		if r.lastFailureTime == nil {
			r.lastFailureTime = &t
		}
		r.failuresAfterLastSuccess++
	}
	return r
}

// sortByFinishedTime returns a copy of pods, earliest finish first.
func sortByFinishedTime(pods []*api.Pod) []*api.Pod {
	out := append([]*api.Pod(nil), pods...)
	sort.SliceStable(out, func(i, j int) bool { return getFinishedTime(out[i]).Before(getFinishedTime(out[j])) })
	return out
}

// getFinishedTime estimates when a pod finished: its last container's
// finish, else when it stopped being Ready, else its deletion time minus
// the grace period, else its creation.
func getFinishedTime(p *api.Pod) time.Time {
	if t := finishTimeFromContainers(p); t != nil {
		return *t
	}
	if c := api.GetPodReadyCondition(&p.Status); c != nil && c.Status == api.ConditionFalse && !c.LastTransitionTime.IsZero() {
		return c.LastTransitionTime.Time
	}
	if p.DeletionTimestamp != nil {
		grace := int64(0)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Time.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}

// finishTimeFromContainers is the latest container finish, counting
// sidecars (restartable init containers), or nil while any still runs.
func finishTimeFromContainers(p *api.Pod) *time.Time {
	var latest *time.Time
	consider := func(cs api.ContainerStatus) bool {
		term := cs.State.Terminated
		if term == nil || term.FinishedAt.IsZero() {
			return false
		}
		if latest == nil || latest.Before(term.FinishedAt.Time) {
			t := term.FinishedAt.Time
			latest = &t
		}
		return true
	}
	for _, cs := range p.Status.ContainerStatuses {
		if !consider(cs) {
			return nil
		}
	}
	sidecars := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
		}
	}
	for _, cs := range p.Status.InitContainerStatuses {
		if sidecars[cs.Name] && !consider(cs) {
			return nil
		}
	}
	return latest
}

// getRemainingTime is how long the next pod creation must still wait.
func (r backoffRecord) getRemainingTime(now time.Time) time.Duration {
	return remainingTimeForFailures(now, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff, r.failuresAfterLastSuccess, r.lastFailureTime)
}

// backoffDelay is the wait after n consecutive failures: base, doubled for
// each failure after the first, capped at max.
func backoffDelay(base, max time.Duration, n int32) time.Duration {
	if n <= 0 {
		return 0
	}
	d := base
	for i := int32(1); i < n; i++ {
		d *= 2
		if d >= max {
			return max
		}
	}
	if d > max {
		return max
	}
	return d
}

func remainingTimeForFailures(now time.Time, base, max time.Duration, failures int32, lastFailure *time.Time) time.Duration {
	if failures == 0 || lastFailure == nil {
		return 0
	}
	d := backoffDelay(base, max, failures)
	elapsed := now.Sub(*lastFailure)
	if d < elapsed {
		return 0
	}
	return d - elapsed
}
