package replicaset

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// calculateStatus counts the pods as the status reports them and sets or
// clears the ReplicaFailure condition.
func calculateStatus(rs *api.ReplicaSet, filteredPods []*api.Pod, manageErr error, now time.Time) api.ReplicaSetStatus {
	status := rs.Status
	status.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
	templateLabels := labels.SelectorFromSet(labels.Set(rs.Spec.Template.Labels))
	var fullyLabeled, ready, available int32
	for _, p := range filteredPods {
		if templateLabels.Matches(labels.Set(p.Labels)) {
			fullyLabeled++
		}
		if api.IsPodReady(p) {
			ready++
			if api.IsPodAvailable(p, rs.Spec.MinReadySeconds, api.Time{Time: now}) {
				available++
			}
		}
	}
	failure := getCondition(status, api.ReplicaSetReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		reason := ""
		if diff := len(filteredPods) - int(replicasOf(rs)); diff < 0 {
			reason = "FailedCreate"
		} else if diff > 0 {
			reason = "FailedDelete"
		}
		status.Conditions = append(status.Conditions, api.ReplicaSetCondition{
			Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(now), Reason: reason, Message: manageErr.Error(),
		})
	case manageErr == nil && failure != nil:
		kept := status.Conditions[:0]
		for _, c := range status.Conditions {
			if c.Type != api.ReplicaSetReplicaFailure {
				kept = append(kept, c)
			}
		}
		status.Conditions = kept
	}
	status.Replicas = int32(len(filteredPods))
	status.FullyLabeledReplicas = fullyLabeled
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	return status
}

func getCondition(status api.ReplicaSetStatus, t string) *api.ReplicaSetCondition {
	for i := range status.Conditions {
		if string(status.Conditions[i].Type) == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// updateReplicaSetStatus writes status when it changed or the generation
// moved on, retrying once on a conflict with a fresh read.
func (c *ReplicaSetController) updateReplicaSetStatus(rs *api.ReplicaSet, status api.ReplicaSetStatus) (*api.ReplicaSet, error) {
	if statusEqual(rs.Status, status) && rs.Status.ObservedGeneration >= rs.Generation {
		return rs, nil
	}
	status.ObservedGeneration = rs.Generation
	var err error
	for i := 0; i < 2; i++ {
		rs.Status = status
		var updated *api.ReplicaSet
		updated, err = client.UpdateStatus(c.client, rs)
		if err == nil {
			return updated, nil
		}
		fresh, getErr := client.Get[*api.ReplicaSet](c.client, rs.Namespace, rs.Name)
		if getErr != nil {
			return nil, getErr
		}
		rs = fresh.DeepCopy()
	}
	return nil, err
}

func statusEqual(a, b api.ReplicaSetStatus) bool {
	if a.Replicas != b.Replicas || a.FullyLabeledReplicas != b.FullyLabeledReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas ||
		len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		if a.Conditions[i] != b.Conditions[i] {
			return false
		}
	}
	return true
}
