package deployment

import (
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/controller/deployment/util"
)

// rolloutRolling moves one step of a rolling update: scale the new
// ReplicaSet up within maxSurge, or the old ones down within
// maxUnavailable, then report progress.
func (dc *DeploymentController) rolloutRolling(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	scaledUp, err := dc.reconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}
	scaledDown, err := dc.reconcileOldReplicaSets(allRSs, util.FilterActiveReplicaSets(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}
	if util.DeploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(allRSs, newRS, d)
}

func (dc *DeploymentController) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	switch {
	case util.RSReplicas(newRS) == util.Replicas(d):
		return false, nil
	case util.RSReplicas(newRS) > util.Replicas(d):
		scaled, _, err := dc.scaleReplicaSetAndRecordEvent(newRS, util.Replicas(d), d)
		return scaled, err
	}
	scaled, _, err := dc.scaleReplicaSetAndRecordEvent(newRS, util.NewRSNewReplicas(d, allRSs, newRS), d)
	return scaled, err
}

// reconcileOldReplicaSets scales old ReplicaSets down as far as
// maxUnavailable allows, unhealthy replicas first.
func (dc *DeploymentController) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if util.GetReplicaCountForReplicaSets(oldRSs) == 0 {
		return false, nil
	}
	allPods := util.GetReplicaCountForReplicaSets(allRSs)
	minAvailable := util.Replicas(d) - util.MaxUnavailable(d)
	newRSUnavailable := util.RSReplicas(newRS) - newRS.Status.AvailableReplicas
	maxScaledDown := allPods - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	oldRSs, cleaned, err := dc.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown)
	if err != nil {
		return false, err
	}
	allRSs = append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	scaledDown, err := dc.scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs, d)
	if err != nil {
		return false, err
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas removes old replicas that are not available,
// oldest ReplicaSet first, at most maxCleanup.
func (dc *DeploymentController) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, d *api.Deployment, maxCleanup int32) ([]*api.ReplicaSet, int32, error) {
	sort.Sort(util.ReplicaSetsByCreationTimestamp(oldRSs))
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		if util.RSReplicas(rs) == 0 || util.RSReplicas(rs) == rs.Status.AvailableReplicas {
			continue
		}
		down := min(maxCleanup-total, util.RSReplicas(rs)-rs.Status.AvailableReplicas)
		newCount := util.RSReplicas(rs) - down
		if newCount > util.RSReplicas(rs) {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, util.RSReplicas(rs), newCount)
		}
		_, updated, err := dc.scaleReplicaSetAndRecordEvent(rs, newCount, d)
		if err != nil {
			return nil, total, err
		}
		total += down
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate removes available old replicas
// while more than replicas-maxUnavailable stay available.
func (dc *DeploymentController) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment) (int32, error) {
	minAvailable := util.Replicas(d) - util.MaxUnavailable(d)
	available := util.GetAvailableReplicaCountForReplicaSets(allRSs)
	if available <= minAvailable {
		return 0, nil
	}
	toScaleDown := available - minAvailable
	sort.Sort(util.ReplicaSetsByCreationTimestamp(oldRSs))
	var total int32
	for _, rs := range oldRSs {
		if total >= toScaleDown {
			break
		}
		if util.RSReplicas(rs) == 0 {
			continue
		}
		down := min(util.RSReplicas(rs), toScaleDown-total)
		newCount := util.RSReplicas(rs) - down
		if _, _, err := dc.scaleReplicaSetAndRecordEvent(rs, newCount, d); err != nil {
			return total, err
		}
		total += down
	}
	return total, nil
}
