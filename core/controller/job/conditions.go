package job

import (
	"time"

	"kubeplay/core/api"
)

// Messages and reasons of the conditions and events the controller writes,
// worded as v1.32's.
const (
	msgBackoffLimitExceeded = "Job has reached the specified backoff limit"
	msgDeadlineExceeded     = "Job was active longer than specified deadline"
	msgCompletionsReached   = "Reached expected number of succeeded pods"
)

// newCondition is a condition that holds from now.
func newCondition(t api.JobConditionType, status api.ConditionStatus, reason, message string, now time.Time) *api.JobCondition {
	return &api.JobCondition{
		Type:               t,
		Status:             status,
		LastProbeTime:      api.NewTime(now),
		LastTransitionTime: api.NewTime(now),
		Reason:             reason,
		Message:            message,
	}
}

// newFailureCondition is the interim FailureTarget: v1.32 writes it first
// and adds Failed only once no pod of the job is left terminating.
func newFailureCondition(reason, message string, now time.Time) *api.JobCondition {
	return newCondition(api.JobFailureTarget, api.ConditionTrue, reason, message, now)
}

// newSuccessCondition is the interim SuccessCriteriaMet; Complete follows
// the same way Failed follows FailureTarget.
func newSuccessCondition(now time.Time) *api.JobCondition {
	return newCondition(api.JobSuccessCriteriaMet, api.ConditionTrue, api.JobReasonCompletionsReached, msgCompletionsReached, now)
}

// findConditionByType returns a pointer into list, or nil.
func findConditionByType(list []api.JobCondition, t api.JobConditionType) *api.JobCondition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

// ensureJobConditionStatus sets the condition of type t and reports a
// change. A condition that does not exist is not added as False: absence
// already says so.
func ensureJobConditionStatus(list []api.JobCondition, t api.JobConditionType, status api.ConditionStatus, reason, message string, now time.Time) ([]api.JobCondition, bool) {
	if c := findConditionByType(list, t); c != nil {
		if c.Status != status || c.Reason != reason || c.Message != message {
			*c = *newCondition(t, status, reason, message, now)
			return list, true
		}
		return list, false
	}
	if status != api.ConditionFalse {
		return append(list, *newCondition(t, status, reason, message, now)), true
	}
	return list, false
}

// FinishedCondition returns the job's terminal condition type (Complete or
// Failed) when one is True.
func FinishedCondition(j *api.Job) (bool, api.JobConditionType) {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			return true, c.Type
		}
	}
	return false, ""
}

// IsJobFinished reports whether the job is Complete or Failed.
func IsJobFinished(j *api.Job) bool {
	finished, _ := FinishedCondition(j)
	return finished
}

// IsJobSucceeded reports whether the job is Complete.
func IsJobSucceeded(j *api.Job) bool {
	_, t := FinishedCondition(j)
	return t == api.JobComplete
}

// hasSuccessCriteriaMetCondition returns the True SuccessCriteriaMet condition.
func hasSuccessCriteriaMetCondition(j *api.Job) *api.JobCondition {
	if c := findConditionByType(j.Status.Conditions, api.JobSuccessCriteriaMet); c != nil && c.Status == api.ConditionTrue {
		return c
	}
	return nil
}

func isSuccessCriteriaMetCondition(c *api.JobCondition) bool {
	return c != nil && c.Type == api.JobSuccessCriteriaMet
}
