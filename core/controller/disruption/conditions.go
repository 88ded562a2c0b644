package disruption

import (
	"time"

	"kubeplay/core/api"
)

// setStatusCondition sets c in conditions as apimachinery's meta helper
// does: the transition time moves only when the status changes.
func setStatusCondition(conditions *[]api.Condition, c api.Condition, now time.Time) {
	for i := range *conditions {
		cur := &(*conditions)[i]
		if cur.Type != c.Type {
			continue
		}
		if cur.Status != c.Status {
			cur.Status = c.Status
			cur.LastTransitionTime = api.NewTime(now)
		}
		cur.Reason, cur.Message, cur.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		return
	}
	c.LastTransitionTime = api.NewTime(now)
	*conditions = append(*conditions, c)
}

func findCondition(conditions []api.Condition, t string) *api.Condition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}

// UpdateDisruptionAllowedCondition sets the DisruptionAllowed condition from
// status.disruptionsAllowed: True with SufficientPods while evictions are
// allowed, False with InsufficientPods otherwise.
func UpdateDisruptionAllowedCondition(pdb *api.PodDisruptionBudget, now time.Time) {
	c := api.Condition{
		Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
		Reason: api.InsufficientPodsReason, ObservedGeneration: pdb.Status.ObservedGeneration,
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = api.ConditionTrue, api.SufficientPodsReason
	}
	setStatusCondition(&pdb.Status.Conditions, c, now)
}

// ConditionsAreUpToDate says whether the DisruptionAllowed condition agrees
// with the status and the current generation.
func ConditionsAreUpToDate(pdb *api.PodDisruptionBudget) bool {
	c := findCondition(pdb.Status.Conditions, api.DisruptionAllowedCondition)
	if c == nil || pdb.Status.ObservedGeneration != pdb.Generation {
		return false
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		return c.Status == api.ConditionTrue && c.Reason == api.SufficientPodsReason
	}
	return c.Status == api.ConditionFalse && c.Reason == api.InsufficientPodsReason
}
