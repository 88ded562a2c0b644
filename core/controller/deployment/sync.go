package deployment

import (
	"fmt"
	"kubeplay/core/controller/hashutil"
	"sort"
	"strconv"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/controller"
	"kubeplay/core/controller/deployment/util"
)

// syncStatusOnly only updates status (a deployment being deleted).
func (dc *DeploymentController) syncStatusOnly(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return dc.syncDeploymentStatus(append(oldRSs, newRS), newRS, d)
}

// sync handles scaling and paused deployments: no new template is rolled out.
func (dc *DeploymentController) sync(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := dc.scale(d, newRS, oldRSs); err != nil {
		return err
	}
	if d.Spec.Paused && getRollbackTo(d) == nil {
		if err := dc.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return dc.syncDeploymentStatus(append(oldRSs, newRS), newRS, d)
}

// checkPausedConditions records pausing and resuming in the Progressing
// condition, so a paused rollout does not time out.
func (dc *DeploymentController) checkPausedConditions(d *api.Deployment) error {
	if !util.HasProgressDeadline(d) {
		return nil
	}
	cond := api.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if cond != nil && cond.Reason == util.TimedOutReason {
		return nil
	}
	paused := cond != nil && cond.Reason == util.PausedDeployReason
	now := api.NewTime(dc.clock.Now())
	switch {
	case d.Spec.Paused && !paused:
		api.SetDeploymentCondition(&d.Status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, util.PausedDeployReason, "Deployment is paused", now))
	case !d.Spec.Paused && paused:
		api.SetDeploymentCondition(&d.Status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, util.ResumedDeployReason, "Deployment is resumed", now))
	default:
		return nil
	}
	return dc.updateDeploymentStatus(d)
}

// getAllReplicaSetsAndSyncRevision returns the new ReplicaSet (created
// when asked and missing) and the old ones, and syncs the revision.
func (dc *DeploymentController) getAllReplicaSetsAndSyncRevision(d *api.Deployment, rsList []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	oldRSs := util.FindOldReplicaSets(d, rsList)
	newRS, err := dc.getNewReplicaSet(d, rsList, oldRSs, createIfNotExisted)
	if err != nil {
		return nil, nil, err
	}
	return newRS, oldRSs, nil
}

// ComputeHash is the pod-template-hash of a template and collision count,
// as upstream computes it, so ReplicaSets get a real cluster's names.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	return hashutil.ComputeHash(template, collisionCount)
}

// getNewReplicaSet finds or creates the ReplicaSet for the current template.
func (dc *DeploymentController) getNewReplicaSet(d *api.Deployment, rsList, oldRSs []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, error) {
	existing := util.FindNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(util.MaxRevision(oldRSs)+1, 10)
	now := api.NewTime(dc.clock.Now())
	if existing != nil {
		cp := existing.DeepCopy()
		annotationsUpdated := util.SetNewReplicaSetAnnotations(d, cp, newRevision, true, util.MaxRevHistoryLengthInChars)
		if annotationsUpdated || cp.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			cp.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			return client.Update(dc.client, cp)
		}
		needsUpdate := setDeploymentRevision(d, cp.Annotations[api.RevisionAnnotation])
		if util.HasProgressDeadline(d) && api.GetDeploymentCondition(d.Status, api.DeploymentProgressing) == nil {
			msg := fmt.Sprintf("Found new replica set %q", cp.Name)
			api.SetDeploymentCondition(&d.Status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, util.FoundNewRSReason, msg, now))
			needsUpdate = true
		}
		if needsUpdate {
			if err := dc.updateDeploymentStatus(d); err != nil {
				return nil, err
			}
		}
		return cp, nil
	}
	if !createIfNotExisted {
		return nil, nil
	}
	template := d.Spec.Template.DeepCopy()
	hash := ComputeHash(template, d.Status.CollisionCount)
	template.Labels = withLabel(d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey, hash)
	selector := d.Spec.Selector.DeepCopy()
	selector.MatchLabels = withLabel(selector.MatchLabels, api.DefaultDeploymentUniqueLabelKey, hash)
	zero := int32(0)
	newRS := &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			OwnerReferences: []api.OwnerReference{*controller.NewControllerRef(d)},
			Labels:          template.Labels,
		},
		Spec: api.ReplicaSetSpec{Replicas: &zero, MinReadySeconds: d.Spec.MinReadySeconds, Selector: selector, Template: *template},
	}
	newReplicas := util.NewRSNewReplicas(d, append(append([]*api.ReplicaSet(nil), oldRSs...), newRS), newRS)
	newRS.Spec.Replicas = &newReplicas
	util.SetNewReplicaSetAnnotations(d, newRS, newRevision, false, util.MaxRevHistoryLengthInChars)
	created, err := client.Create(dc.client, newRS)
	alreadyExists := false
	switch {
	case apierrors.IsAlreadyExists(err):
		alreadyExists = true
		rs, getErr := client.Get[*api.ReplicaSet](dc.client, d.Namespace, newRS.Name)
		if getErr != nil {
			return nil, getErr
		}
		if ref := rs.GetControllerOf(); ref != nil && ref.UID == d.UID && util.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created, err = rs, nil
			break
		}
		// A hash collision: count it so the next hash differs.
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		*d.Status.CollisionCount++
		if _, uerr := client.UpdateStatus(dc.client, d); uerr != nil {
			return nil, uerr
		}
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if util.HasProgressDeadline(d) {
			api.SetDeploymentCondition(&d.Status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, util.FailedRSCreateReason, msg, now))
			client.UpdateStatus(dc.client, d)
		}
		dc.recorder.Eventf(d, api.EventTypeWarning, util.FailedRSCreateReason, "%s", msg)
		return nil, err
	}
	if !alreadyExists && newReplicas > 0 {
		dc.recorder.Eventf(d, api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", created.Name, newReplicas)
	}
	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && util.HasProgressDeadline(d) {
		msg := fmt.Sprintf("Created new replica set %q", created.Name)
		api.SetDeploymentCondition(&d.Status, *api.NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, util.NewReplicaSetReason, msg, now))
		needsUpdate = true
	}
	if needsUpdate {
		if err := dc.updateDeploymentStatus(d); err != nil {
			return nil, err
		}
	}
	return created, nil
}

// updateDeploymentStatus writes d's status (and revision annotation, which
// upstream also writes through the status subresource).
func (dc *DeploymentController) updateDeploymentStatus(d *api.Deployment) error {
	updated, err := client.UpdateStatus(dc.client, d.DeepCopy())
	if err != nil {
		return err
	}
	if updated.Annotations[api.RevisionAnnotation] != d.Annotations[api.RevisionAnnotation] {
		cp := updated.DeepCopy()
		if cp.Annotations == nil {
			cp.Annotations = map[string]string{}
		}
		cp.Annotations[api.RevisionAnnotation] = d.Annotations[api.RevisionAnnotation]
		if updated, err = client.Update(dc.client, cp); err != nil {
			return err
		}
	}
	*d = *updated.DeepCopy()
	return nil
}

func setDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations[api.RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[api.RevisionAnnotation] = revision
	return true
}

func withLabel(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// scale sizes the ReplicaSets to the deployment's replicas: the one
// active set takes all; during a rollout the change is shared out in
// proportion to each set's size.
func (dc *DeploymentController) scale(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	if active := findActiveOrLatest(newRS, oldRSs); active != nil {
		if util.RSReplicas(active) == util.Replicas(d) {
			return nil
		}
		_, _, err := dc.scaleReplicaSetAndRecordEvent(active, util.Replicas(d), d)
		return err
	}
	if util.IsSaturated(d, newRS) {
		for _, old := range util.FilterActiveReplicaSets(oldRSs) {
			if _, _, err := dc.scaleReplicaSetAndRecordEvent(old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !util.IsRollingUpdate(d) {
		return nil
	}
	all := util.FilterActiveReplicaSets(append(append([]*api.ReplicaSet(nil), oldRSs...), newRS))
	allReplicas := util.GetReplicaCountForReplicaSets(all)
	allowed := int32(0)
	if util.Replicas(d) > 0 {
		allowed = util.Replicas(d) + util.MaxSurge(d)
	}
	toAdd := allowed - allReplicas
	op := ""
	switch {
	case toAdd > 0:
		sort.Sort(util.ReplicaSetsBySizeNewer(all))
		op = "up"
	case toAdd < 0:
		sort.Sort(util.ReplicaSetsBySizeOlder(all))
		op = "down"
	}
	added := int32(0)
	sizes := map[string]int32{}
	for _, rs := range all {
		if toAdd != 0 {
			p := util.GetProportion(rs, d, toAdd, added)
			sizes[rs.Name] = util.RSReplicas(rs) + p
			added += p
		} else {
			sizes[rs.Name] = util.RSReplicas(rs)
		}
	}
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			sizes[rs.Name] += toAdd - added
			if sizes[rs.Name] < 0 {
				sizes[rs.Name] = 0
			}
		}
		if _, _, err := dc.scaleReplicaSet(rs, sizes[rs.Name], d, op); err != nil {
			return err
		}
	}
	return nil
}

func findActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	sorted := append([]*api.ReplicaSet(nil), oldRSs...)
	sort.Sort(sort.Reverse(util.ReplicaSetsByCreationTimestamp(sorted)))
	all := util.FilterActiveReplicaSets(append(sorted, newRS))
	switch len(all) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return all[0]
	}
	return nil
}

func (dc *DeploymentController) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, newScale int32, d *api.Deployment) (bool, *api.ReplicaSet, error) {
	if util.RSReplicas(rs) == newScale {
		return false, rs, nil
	}
	op := "down"
	if util.RSReplicas(rs) < newScale {
		op = "up"
	}
	scaled, newRS, err := dc.scaleReplicaSet(rs, newScale, d, op)
	return scaled, newRS, err
}

// scaleReplicaSet sets a ReplicaSet's size and its replicas annotations,
// recording ScalingReplicaSet when the size changed.
func (dc *DeploymentController) scaleReplicaSet(rs *api.ReplicaSet, newScale int32, d *api.Deployment, op string) (bool, *api.ReplicaSet, error) {
	sizeNeedsUpdate := util.RSReplicas(rs) != newScale
	annotationsNeedUpdate := util.ReplicasAnnotationsNeedUpdate(rs, util.Replicas(d), util.Replicas(d)+util.MaxSurge(d))
	if !sizeNeedsUpdate && !annotationsNeedUpdate {
		return false, rs, nil
	}
	cp := rs.DeepCopy()
	oldScale := util.RSReplicas(rs)
	cp.Spec.Replicas = &newScale
	util.SetReplicasAnnotations(cp, util.Replicas(d), util.Replicas(d)+util.MaxSurge(d))
	updated, err := client.Update(dc.client, cp)
	if err != nil {
		return false, nil, err
	}
	if sizeNeedsUpdate {
		dc.recorder.Eventf(d, api.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d", op, rs.Name, oldScale, newScale)
	}
	return sizeNeedsUpdate, updated, nil
}

// cleanupDeployment deletes the oldest empty ReplicaSets beyond revisionHistoryLimit.
func (dc *DeploymentController) cleanupDeployment(oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if !util.HasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return nil
	}
	sort.Sort(util.ReplicaSetsByRevision(cleanable))
	for i := int32(0); i < diff; i++ {
		rs := cleanable[i]
		if rs.Status.Replicas != 0 || util.RSReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		if err := client.Delete[*api.ReplicaSet](dc.client, rs.Namespace, rs.Name, api.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// syncDeploymentStatus writes the status computed from the ReplicaSets.
func (dc *DeploymentController) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	status := calculateStatus(allRSs, newRS, d, dc.clock.Now())
	if statusEqual(d.Status, status) {
		return nil
	}
	d.Status = status
	_, err := client.UpdateStatus(dc.client, d)
	return err
}

// calculateStatus counts replicas and sets the Available condition.
func calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, now time.Time) api.DeploymentStatus {
	all := nonNil(allRSs)
	available := util.GetAvailableReplicaCountForReplicaSets(all)
	total := util.GetReplicaCountForReplicaSets(all)
	unavailable := total - available
	if unavailable < 0 {
		unavailable = 0
	}
	status := api.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            util.GetActualReplicaCountForReplicaSets(all),
		UpdatedReplicas:     util.GetActualReplicaCountForReplicaSets(nonNil([]*api.ReplicaSet{newRS})),
		ReadyReplicas:       util.GetReadyReplicaCountForReplicaSets(all),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		CollisionCount:      d.Status.CollisionCount,
		Conditions:          append([]api.DeploymentCondition(nil), d.Status.Conditions...),
	}
	t := api.NewTime(now)
	if available >= util.Replicas(d)-util.MaxUnavailable(d) {
		api.SetDeploymentCondition(&status, *api.NewDeploymentCondition(api.DeploymentAvailable, api.ConditionTrue, util.MinimumReplicasAvailable, "Deployment has minimum availability.", t))
	} else {
		api.SetDeploymentCondition(&status, *api.NewDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse, util.MinimumReplicasUnavailable, "Deployment does not have minimum availability.", t))
	}
	return status
}

func nonNil(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil {
			out = append(out, rs)
		}
	}
	return out
}

// isScalingEvent reports that replicas changed without a template change:
// an active ReplicaSet's desired-replicas annotation disagrees.
func (dc *DeploymentController) isScalingEvent(d *api.Deployment, rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := dc.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range util.FilterActiveReplicaSets(append(oldRSs, newRS)) {
		if desired, ok := util.GetDesiredReplicasAnnotation(rs); ok && desired != util.Replicas(d) {
			return true, nil
		}
	}
	return false, nil
}
