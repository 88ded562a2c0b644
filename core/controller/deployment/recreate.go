package deployment

import (
	"kubeplay/core/api"
	"kubeplay/core/controller/deployment/util"
)

// rolloutRecreate kills every old pod before the new ReplicaSet starts.
func (dc *DeploymentController) rolloutRecreate(d *api.Deployment, rsList []*api.ReplicaSet, podMap map[string][]*api.Pod) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	scaledDown := false
	for _, rs := range util.FilterActiveReplicaSets(oldRSs) {
		scaled, _, err := dc.scaleReplicaSetAndRecordEvent(rs, 0, d)
		if err != nil {
			return err
		}
		scaledDown = scaledDown || scaled
	}
	if scaledDown {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}
	if oldPodsRunning(newRS, oldRSs, podMap) {
		return dc.syncRolloutStatus(allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	}
	if _, _, err := dc.scaleReplicaSetAndRecordEvent(newRS, util.Replicas(d), d); err != nil {
		return err
	}
	if util.DeploymentComplete(d, &d.Status) {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncRolloutStatus(allRSs, newRS, d)
}

// oldPodsRunning reports old pods that have not finished.
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, podMap map[string][]*api.Pod) bool {
	if util.GetActualReplicaCountForReplicaSets(oldRSs) > 0 {
		return true
	}
	for uid, pods := range podMap {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, p := range pods {
			if p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
				return true
			}
		}
	}
	return false
}
