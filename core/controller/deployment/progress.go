package deployment

import (
	"encoding/json"
	"fmt"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/deployment/util"
)

// syncRolloutStatus writes status with the Progressing condition updated:
// complete, progressing, or past its deadline; and ReplicaFailure copied
// from the ReplicaSets.
func (dc *DeploymentController) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	now := dc.clock.Now()
	t := api.NewTime(now)
	status := calculateStatus(allRSs, newRS, d, now)
	if !util.HasProgressDeadline(d) {
		api.RemoveDeploymentCondition(&status, api.DeploymentProgressing)
	}
	cur := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	complete := status.Replicas == status.UpdatedReplicas && cur != nil && cur.Reason == util.NewRSAvailableReason
	if util.HasProgressDeadline(d) && !complete {
		switch {
		case util.DeploymentComplete(d, &status):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name)
			}
			api.SetDeploymentCondition(&status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, util.NewRSAvailableReason, msg, t))
		case util.DeploymentProgressing(d, &status):
			msg := fmt.Sprintf("Deployment %q is progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Name)
			}
			c := api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, util.ReplicaSetUpdatedReason, msg, t)
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				api.RemoveDeploymentCondition(&status, api.DeploymentProgressing)
			}
			api.SetDeploymentCondition(&status, *c)
		case util.DeploymentTimedOut(d, &status, now):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)
			}
			api.SetDeploymentCondition(&status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, util.TimedOutReason, msg, t))
		}
	}
	if f := getReplicaFailure(allRSs, newRS); f != nil {
		api.SetDeploymentCondition(&status, *f)
	} else {
		api.RemoveDeploymentCondition(&status, api.DeploymentReplicaFailure)
	}
	if statusEqual(d.Status, status) {
		dc.requeueStuckDeployment(d, status, now)
		return nil
	}
	d.Status = status
	_, err := client.UpdateStatus(dc.client, d)
	return err
}

// getReplicaFailure lifts a ReplicaFailure condition from the new
// ReplicaSet (or, failing that, an old one).
func getReplicaFailure(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) *api.DeploymentCondition {
	find := func(rs *api.ReplicaSet) *api.DeploymentCondition {
		if rs == nil {
			return nil
		}
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaSetReplicaFailure {
				return &api.DeploymentCondition{Type: api.DeploymentReplicaFailure, Status: c.Status,
					LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
			}
		}
		return nil
	}
	if c := find(newRS); c != nil {
		return c
	}
	for _, rs := range allRSs {
		if c := find(rs); c != nil {
			return c
		}
	}
	return nil
}

// requeueStuckDeployment looks at a deployment again when its progress
// deadline would pass, so ProgressDeadlineExceeded is reported on time.
func (dc *DeploymentController) requeueStuckDeployment(d *api.Deployment, status api.DeploymentStatus, now time.Time) {
	cur := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if !util.HasProgressDeadline(d) || cur == nil || util.DeploymentComplete(d, &status) || cur.Reason == util.TimedOutReason {
		return
	}
	after := cur.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(now)
	if after < time.Second {
		dc.queue.AddRateLimited(client.KeyOf(d))
		return
	}
	dc.enqueueAfter(d, after+time.Second)
}

func statusEqual(a, b api.DeploymentStatus) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
