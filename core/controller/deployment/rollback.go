package deployment

import (
	"fmt"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/deployment/util"
)

// getRollbackTo reads the deprecated rollback annotation (extensions/v1beta1
// clients set it; kubectl rollout undo now patches the template itself).
func getRollbackTo(d *api.Deployment) *int64 {
	v, ok := d.Annotations[api.DeprecatedRollbackTo]
	if !ok {
		return nil
	}
	rev, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &rev
}

// rollback copies the template of the wanted revision's ReplicaSet into the
// deployment, then clears the request.
func (dc *DeploymentController) rollback(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, allOldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	all := append(allOldRSs, newRS)
	rev := *getRollbackTo(d)
	if rev == 0 {
		if rev = util.LastRevision(all); rev == 0 {
			dc.recorder.Eventf(d, api.EventTypeWarning, util.RollbackRevisionNotFound, "Unable to find last revision.")
			return dc.updateDeploymentAndClearRollbackTo(d)
		}
	}
	for _, rs := range all {
		if rs == nil {
			continue
		}
		v, err := util.Revision(rs)
		if err != nil || v != rev {
			continue
		}
		if util.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			dc.recorder.Eventf(d, api.EventTypeWarning, util.RollbackTemplateUnchanged, "The rollback revision contains the same template as current deployment %q", d.Name)
		} else {
			t := rs.Spec.Template.DeepCopy()
			delete(t.Labels, api.DefaultDeploymentUniqueLabelKey)
			d.Spec.Template = *t
			util.SetDeploymentAnnotationsTo(d, rs)
			dc.recorder.Eventf(d, api.EventTypeNormal, util.RollbackDone, "Rolled back deployment %q to revision %d", d.Name, rev)
		}
		return dc.updateDeploymentAndClearRollbackTo(d)
	}
	dc.recorder.Eventf(d, api.EventTypeWarning, util.RollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return dc.updateDeploymentAndClearRollbackTo(d)
}

func (dc *DeploymentController) updateDeploymentAndClearRollbackTo(d *api.Deployment) error {
	delete(d.Annotations, api.DeprecatedRollbackTo)
	_, err := client.Update(dc.client, d)
	if err != nil {
		return fmt.Errorf("clearing the rollback request of %s: %w", d.Name, err)
	}
	return nil
}
