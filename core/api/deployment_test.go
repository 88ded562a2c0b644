package api

import "testing"

func TestSetDeploymentCondition(t *testing.T) {
	progressing := func(status, reason string, ts Time) DeploymentCondition {
		return *NewDeploymentCondition(DeploymentProgressing, status, reason, "msg "+reason, ts)
	}
	tests := []struct {
		name     string
		existing []DeploymentCondition
		set      DeploymentCondition
		want     DeploymentCondition
	}{
		{"added when absent", nil, progressing(ConditionTrue, "NewReplicaSetCreated", at(1)), progressing(ConditionTrue, "NewReplicaSetCreated", at(1))},
		{"same status and reason: nothing changes, not even lastUpdateTime",
			[]DeploymentCondition{progressing(ConditionTrue, "ReplicaSetUpdated", at(0))},
			progressing(ConditionTrue, "ReplicaSetUpdated", at(9)),
			progressing(ConditionTrue, "ReplicaSetUpdated", at(0))},
		{"new reason with the same status keeps lastTransitionTime",
			[]DeploymentCondition{progressing(ConditionTrue, "ReplicaSetUpdated", at(0))},
			progressing(ConditionTrue, "NewReplicaSetAvailable", at(9)),
			DeploymentCondition{Type: DeploymentProgressing, Status: ConditionTrue, Reason: "NewReplicaSetAvailable",
				Message: "msg NewReplicaSetAvailable", LastUpdateTime: at(9), LastTransitionTime: at(0)}},
		{"status change moves lastTransitionTime",
			[]DeploymentCondition{progressing(ConditionTrue, "ReplicaSetUpdated", at(0))},
			progressing(ConditionFalse, "ProgressDeadlineExceeded", at(9)),
			progressing(ConditionFalse, "ProgressDeadlineExceeded", at(9))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			avail := *NewDeploymentCondition(DeploymentAvailable, ConditionTrue, "MinimumReplicasAvailable", "ok", at(0))
			st := &DeploymentStatus{Conditions: append([]DeploymentCondition{avail}, tt.existing...)}
			SetDeploymentCondition(st, tt.set)
			got := GetDeploymentCondition(*st, DeploymentProgressing)
			if got == nil || *got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			if len(st.Conditions) != 2 || st.Conditions[0] != avail {
				t.Errorf("other conditions disturbed: %+v", st.Conditions)
			}
		})
	}
}

func TestRemoveDeploymentCondition(t *testing.T) {
	st := &DeploymentStatus{Conditions: []DeploymentCondition{
		{Type: DeploymentAvailable}, {Type: DeploymentReplicaFailure}, {Type: DeploymentProgressing},
	}}
	RemoveDeploymentCondition(st, DeploymentReplicaFailure)
	if len(st.Conditions) != 2 || GetDeploymentCondition(*st, DeploymentReplicaFailure) != nil {
		t.Errorf("got %+v", st.Conditions)
	}
	if st.Conditions[0].Type != DeploymentAvailable || st.Conditions[1].Type != DeploymentProgressing {
		t.Errorf("order changed: %+v", st.Conditions)
	}
}
