// Package deployment is the Deployment controller: it rolls a pod
// template out through ReplicaSets (RollingUpdate or Recreate), scales
// proportionally during a rollout, keeps a revision history and reports
// progress in conditions. Files are cut as upstream's: sync, rolling,
// recreate, rollback, progress.
package deployment

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// DeploymentController syncs Deployments with their ReplicaSets.
type DeploymentController struct {
	client   client.Interface
	clock    *clock.Clock
	dInf     *client.Informer
	rsInf    *client.Informer
	podInf   *client.Informer
	queue    *workqueue.Queue[string]
	recorder *client.Recorder
}

// NewDeploymentController builds the controller on ctx's informers.
func NewDeploymentController(ctx *controller.Context) *DeploymentController {
	cl := ctx.Client("deployment-controller")
	dc := &DeploymentController{
		client:   cl,
		clock:    ctx.Clock,
		dInf:     client.InformerFor[*api.Deployment](ctx.Informers),
		rsInf:    client.InformerFor[*api.ReplicaSet](ctx.Informers),
		podInf:   client.InformerFor[*api.Pod](ctx.Informers),
		queue:    workqueue.New[string]("deployment", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		recorder: client.NewRecorder(cl, "deployment-controller", ""),
	}
	dc.dInf.AddHandler(client.Handler{
		OnAdd:    dc.enqueue,
		OnUpdate: func(_, cur api.Object) { dc.enqueue(cur) },
		OnDelete: dc.enqueue,
	})
	dc.rsInf.AddHandler(client.Handler{OnAdd: dc.addReplicaSet, OnUpdate: dc.updateReplicaSet, OnDelete: dc.deleteReplicaSet})
	dc.podInf.AddHandler(client.Handler{OnDelete: dc.deletePod})
	return dc
}

// Name implements controller.Worker.
func (dc *DeploymentController) Name() string { return "deployment-controller/syncDeployment" }

// ProcessNextWorkItem implements controller.Worker.
func (dc *DeploymentController) ProcessNextWorkItem() bool {
	key, ok := dc.queue.Get()
	if !ok {
		return false
	}
	defer dc.queue.Done(key)
	if err := dc.syncDeployment(key); err != nil {
		dc.queue.AddRateLimited(key)
		return true
	}
	dc.queue.Forget(key)
	return true
}

func (dc *DeploymentController) enqueue(o api.Object) { dc.queue.Add(client.KeyOf(o)) }

func (dc *DeploymentController) enqueueAfter(d *api.Deployment, after time.Duration) {
	dc.queue.AddAfter(client.KeyOf(d), after)
}

func (dc *DeploymentController) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Deployment {
	if ref == nil || ref.Kind != "Deployment" {
		return nil
	}
	o, ok := dc.dInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.Deployment)
}

// getDeploymentsForReplicaSet lists the Deployments that select an orphan ReplicaSet.
func (dc *DeploymentController) getDeploymentsForReplicaSet(rs *api.ReplicaSet) []*api.Deployment {
	var out []*api.Deployment
	for _, o := range dc.dInf.List(rs.Namespace) {
		d := o.(*api.Deployment)
		sel, err := labels.SelectorFromLabelSelector(d.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(rs.Labels)) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func (dc *DeploymentController) addReplicaSet(o api.Object) {
	rs := o.(*api.ReplicaSet)
	if rs.DeletionTimestamp != nil {
		dc.deleteReplicaSet(rs)
		return
	}
	if ref := rs.GetControllerOf(); ref != nil {
		if d := dc.resolveControllerRef(rs.Namespace, ref); d != nil {
			dc.enqueue(d)
		}
		return
	}
	for _, d := range dc.getDeploymentsForReplicaSet(rs) {
		dc.enqueue(d)
	}
}

func (dc *DeploymentController) updateReplicaSet(old, cur api.Object) {
	oldRS, curRS := old.(*api.ReplicaSet), cur.(*api.ReplicaSet)
	if curRS.ResourceVersion == oldRS.ResourceVersion {
		return
	}
	curRef, oldRef := curRS.GetControllerOf(), oldRS.GetControllerOf()
	if oldRef != nil && (curRef == nil || curRef.UID != oldRef.UID) {
		if d := dc.resolveControllerRef(oldRS.Namespace, oldRef); d != nil {
			dc.enqueue(d)
		}
	}
	if curRef != nil {
		if d := dc.resolveControllerRef(curRS.Namespace, curRef); d != nil {
			dc.enqueue(d)
		}
		return
	}
	for _, d := range dc.getDeploymentsForReplicaSet(curRS) {
		dc.enqueue(d)
	}
}

func (dc *DeploymentController) deleteReplicaSet(o api.Object) {
	rs := o.(*api.ReplicaSet)
	if d := dc.resolveControllerRef(rs.Namespace, rs.GetControllerOf()); d != nil {
		dc.enqueue(d)
	}
}

// deletePod wakes a Recreate deployment when its last old pod is gone.
func (dc *DeploymentController) deletePod(o api.Object) {
	pod := o.(*api.Pod)
	ref := pod.GetControllerOf()
	if ref == nil || ref.Kind != "ReplicaSet" {
		return
	}
	rso, ok := dc.rsInf.Get(pod.Namespace, ref.Name)
	if !ok {
		return
	}
	d := dc.resolveControllerRef(pod.Namespace, rso.GetObjectMeta().GetControllerOf())
	if d == nil || d.Spec.Strategy.Type != api.RecreateDeploymentStrategyType {
		return
	}
	for _, po := range dc.podInf.List(pod.Namespace) {
		p := po.(*api.Pod)
		if r := p.GetControllerOf(); r != nil && r.UID == rso.GetObjectMeta().UID {
			return
		}
	}
	dc.enqueue(d)
}

// getReplicaSetsForDeployment claims the ReplicaSets the deployment selects
// (adopting orphans, releasing those that stopped matching).
func (dc *DeploymentController) getReplicaSetsForDeployment(d *api.Deployment) ([]*api.ReplicaSet, error) {
	sel, err := labels.SelectorFromLabelSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var out []*api.ReplicaSet
	checked, canAdopt := false, true
	for _, o := range dc.rsInf.List(d.Namespace) {
		rs := o.(*api.ReplicaSet)
		ref := rs.GetControllerOf()
		match := sel.Matches(labels.Set(rs.Labels))
		switch {
		case ref != nil && ref.UID == d.UID:
			if match || d.DeletionTimestamp != nil {
				out = append(out, rs)
				continue
			}
			cp := rs.DeepCopy()
			cp.OwnerReferences = removeOwner(cp.OwnerReferences, d.UID)
			if _, err := client.Update(dc.client, cp); err != nil {
				return nil, err
			}
		case ref == nil && match && d.DeletionTimestamp == nil && rs.DeletionTimestamp == nil:
			if !checked {
				checked = true
				fresh, err := client.Get[*api.Deployment](dc.client, d.Namespace, d.Name)
				canAdopt = err == nil && fresh.UID == d.UID && fresh.DeletionTimestamp == nil
			}
			if !canAdopt {
				continue
			}
			cp := rs.DeepCopy()
			cp.OwnerReferences = append(cp.OwnerReferences, *controller.NewControllerRef(d))
			adopted, err := client.Update(dc.client, cp)
			if err != nil {
				return nil, err
			}
			out = append(out, adopted)
		}
	}
	return out, nil
}

func removeOwner(refs []api.OwnerReference, uid string) []api.OwnerReference {
	var out []api.OwnerReference
	for _, r := range refs {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	return out
}

// getPodMapForDeployment groups the deployment's pods by ReplicaSet uid.
func (dc *DeploymentController) getPodMapForDeployment(rsList []*api.ReplicaSet) map[string][]*api.Pod {
	m := map[string][]*api.Pod{}
	for _, rs := range rsList {
		m[rs.UID] = nil
	}
	if len(rsList) == 0 {
		return m
	}
	for _, po := range dc.podInf.List(rsList[0].Namespace) {
		p := po.(*api.Pod)
		if ref := p.GetControllerOf(); ref != nil {
			if _, ok := m[ref.UID]; ok {
				m[ref.UID] = append(m[ref.UID], p)
			}
		}
	}
	return m
}

// syncDeployment drives one deployment one step towards its template.
func (dc *DeploymentController) syncDeployment(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := dc.dInf.Get(ns, name)
	if !ok {
		return nil
	}
	d := o.(*api.Deployment).DeepCopy()
	if d.Spec.Selector == nil || (len(d.Spec.Selector.MatchLabels) == 0 && len(d.Spec.Selector.MatchExpressions) == 0) {
		dc.recorder.Eventf(d, api.EventTypeWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			_, err := client.UpdateStatus(dc.client, d)
			return err
		}
		return nil
	}
	rsList, err := dc.getReplicaSetsForDeployment(d)
	if err != nil {
		return err
	}
	podMap := dc.getPodMapForDeployment(rsList)
	if d.DeletionTimestamp != nil {
		return dc.syncStatusOnly(d, rsList)
	}
	if err := dc.checkPausedConditions(d); err != nil {
		return err
	}
	if d.Spec.Paused {
		return dc.sync(d, rsList)
	}
	if getRollbackTo(d) != nil {
		return dc.rollback(d, rsList)
	}
	scaling, err := dc.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		return dc.sync(d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType:
		return dc.rolloutRecreate(d, rsList, podMap)
	default:
		return dc.rolloutRolling(d, rsList)
	}
}
