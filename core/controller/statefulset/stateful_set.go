// Package statefulset is the StatefulSet controller: pods with stable
// names <set>-<ordinal>, hostnames and claims <template>-<set>-<ordinal>,
// created in order and each only once its predecessor is Running and Ready
// (OrderedReady) or all at once (Parallel), removed from the highest
// ordinal down, updated from the highest ordinal down to the partition,
// with each template recorded as a ControllerRevision.
package statefulset

import (
	"fmt"
	"maps"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/controller/history"
)

// StatefulSetController syncs StatefulSets with their pods, claims and
// revisions.
type StatefulSetController struct {
	client  client.Interface
	clock   *clock.Clock
	setInf  *client.Informer
	podInf  *client.Informer
	queue   *workqueue.Queue[string]
	control *defaultStatefulSetControl
}

// NewStatefulSetController builds the controller on ctx's informers.
func NewStatefulSetController(ctx *controller.Context) *StatefulSetController {
	cl := ctx.Client("statefulset-controller")
	rec := client.NewRecorder(cl, "statefulset-controller", "")
	ssc := &StatefulSetController{
		client: cl,
		clock:  ctx.Clock,
		setInf: client.InformerFor[*api.StatefulSet](ctx.Informers),
		podInf: client.InformerFor[*api.Pod](ctx.Informers),
		queue:  workqueue.New[string]("statefulset", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
	}
	ssc.control = &defaultStatefulSetControl{
		podControl: &StatefulPodControl{
			client:   cl,
			podInf:   ssc.podInf,
			claimInf: client.InformerFor[*api.PersistentVolumeClaim](ctx.Informers),
			recorder: rec,
		},
		history: &history.History{Client: cl, Informer: client.InformerFor[*api.ControllerRevision](ctx.Informers)},
		status:  &statusUpdater{client: cl, setInf: ssc.setInf},
		now:     ctx.Clock.Now,
	}
	ssc.setInf.AddHandler(client.Handler{
		OnAdd:    ssc.enqueue,
		OnUpdate: func(_, cur api.Object) { ssc.enqueue(cur) },
		OnDelete: ssc.enqueue,
	})
	ssc.podInf.AddHandler(client.Handler{OnAdd: ssc.addPod, OnUpdate: ssc.updatePod, OnDelete: ssc.deletePod})
	return ssc
}

// EnableMaxUnavailable turns on the MaxUnavailableStatefulSet feature gate
// (alpha, off in v1.32): rolling updates then honour maxUnavailable.
func (ssc *StatefulSetController) EnableMaxUnavailable() { ssc.control.maxUnavailable = true }

// Name implements controller.Worker.
func (ssc *StatefulSetController) Name() string { return "statefulset-controller/sync" }

// ProcessNextWorkItem implements controller.Worker.
func (ssc *StatefulSetController) ProcessNextWorkItem() bool {
	key, ok := ssc.queue.Get()
	if !ok {
		return false
	}
	defer ssc.queue.Done(key)
	if err := ssc.sync(key); err != nil {
		ssc.queue.AddRateLimited(key)
		return true
	}
	ssc.queue.Forget(key)
	return true
}

func (ssc *StatefulSetController) enqueue(o api.Object) { ssc.queue.Add(client.KeyOf(o)) }

// resolveControllerRef returns the cached set a controller reference names.
func (ssc *StatefulSetController) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.StatefulSet {
	if ref == nil || ref.Kind != controllerKind.Kind {
		return nil
	}
	o, ok := ssc.setInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.StatefulSet)
}

// getStatefulSetsForPod lists the sets whose selector matches pod.
func (ssc *StatefulSetController) getStatefulSetsForPod(pod *api.Pod) []*api.StatefulSet {
	var out []*api.StatefulSet
	for _, o := range ssc.setInf.List(pod.Namespace) {
		set := o.(*api.StatefulSet)
		sel, err := labels.SelectorFromLabelSelector(set.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, set)
	}
	return out
}

func (ssc *StatefulSetController) addPod(o api.Object) {
	pod := o.(*api.Pod)
	if pod.DeletionTimestamp != nil {
		ssc.deletePod(pod)
		return
	}
	if ref := pod.GetControllerOf(); ref != nil {
		if set := ssc.resolveControllerRef(pod.Namespace, ref); set != nil {
			ssc.enqueue(set)
		}
		return
	}
	for _, set := range ssc.getStatefulSetsForPod(pod) {
		ssc.enqueue(set)
	}
}

func (ssc *StatefulSetController) updatePod(old, cur api.Object) {
	oldPod, curPod := old.(*api.Pod), cur.(*api.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	curRef, oldRef := curPod.GetControllerOf(), oldPod.GetControllerOf()
	refChanged := !controller.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if set := ssc.resolveControllerRef(oldPod.Namespace, oldRef); set != nil {
			ssc.enqueue(set)
		}
	}
	if curRef != nil {
		set := ssc.resolveControllerRef(curPod.Namespace, curRef)
		if set == nil {
			return
		}
		ssc.enqueue(set)
		// Availability comes minReadySeconds after readiness: look again
		// then (one second later, as upstream, against clock skew).
		if !api.IsPodReady(oldPod) && api.IsPodReady(curPod) && set.Spec.MinReadySeconds > 0 {
			ssc.queue.AddAfter(client.KeyOf(set), time.Duration(set.Spec.MinReadySeconds)*time.Second+time.Second)
		}
		return
	}
	if refChanged || !maps.Equal(curPod.Labels, oldPod.Labels) {
		for _, set := range ssc.getStatefulSetsForPod(curPod) {
			ssc.enqueue(set)
		}
	}
}

func (ssc *StatefulSetController) deletePod(o api.Object) {
	pod := o.(*api.Pod)
	if set := ssc.resolveControllerRef(pod.Namespace, pod.GetControllerOf()); set != nil {
		ssc.enqueue(set)
	}
}

// sync reads the set, adopts its orphaned revisions and pods, and syncs.
func (ssc *StatefulSetController) sync(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := ssc.setInf.Get(ns, name)
	if !ok {
		return nil
	}
	set := o.(*api.StatefulSet)
	selector, err := labels.SelectorFromLabelSelector(set.Spec.Selector)
	if err != nil {
		// Not transient: retrying cannot help.
		return nil
	}
	if err := ssc.adoptOrphanRevisions(set); err != nil {
		return err
	}
	pods, err := ssc.getPodsForStatefulSet(set, selector)
	if err != nil {
		return err
	}
	return ssc.syncStatefulSet(set, pods)
}

// syncStatefulSet runs the update loop; with minReadySeconds it looks
// again after that long while pods are not all available. Upstream waits
// exactly minReadySeconds and relies on a real sync running a little after
// the pod turned ready; on the virtual clock the two instants coincide and
// availability (strictly after) would slip a whole period, so the second
// upstream adds against clock skew in updatePod is added here too.
func (ssc *StatefulSetController) syncStatefulSet(set *api.StatefulSet, pods []*api.Pod) error {
	status, err := ssc.control.UpdateStatefulSet(set, pods)
	if err != nil {
		return err
	}
	if set.Spec.MinReadySeconds > 0 && status != nil && status.AvailableReplicas != replicasOf(set) {
		ssc.queue.AddAfter(client.KeyOf(set), time.Duration(set.Spec.MinReadySeconds)*time.Second+time.Second)
	}
	return nil
}

// canAdopt re-reads the set: no adoption for a set gone, replaced or
// being deleted.
func (ssc *StatefulSetController) canAdopt(set *api.StatefulSet) func() error {
	return controller.RecheckDeletionTimestamp(func() (api.Object, error) {
		fresh, err := client.Get[*api.StatefulSet](ssc.client, set.Namespace, set.Name)
		if err != nil {
			return nil, err
		}
		if fresh.UID != set.UID {
			return nil, fmt.Errorf("original StatefulSet %v/%v is gone: got uid %v, wanted %v", set.Namespace, set.Name, fresh.UID, set.UID)
		}
		return fresh, nil
	}, set.UID)
}

// adoptOrphanRevisions makes set the controller of matching revisions no
// controller owns.
func (ssc *StatefulSetController) adoptOrphanRevisions(set *api.StatefulSet) error {
	revisions, err := ssc.control.ListRevisions(set)
	if err != nil {
		return err
	}
	var orphans []*api.ControllerRevision
	for _, r := range revisions {
		if r.GetControllerOf() == nil {
			orphans = append(orphans, r)
		}
	}
	if len(orphans) == 0 {
		return nil
	}
	if err := ssc.canAdopt(set)(); err != nil {
		return fmt.Errorf("can't adopt ControllerRevisions: %v", err)
	}
	return ssc.control.AdoptOrphanRevisions(set, orphans)
}

// getPodsForStatefulSet returns the pods set owns after adopting matching
// orphans named as its members and releasing owned pods that stopped
// matching.
func (ssc *StatefulSetController) getPodsForStatefulSet(set *api.StatefulSet, selector labels.Selector) ([]*api.Pod, error) {
	var members []*api.Pod
	var releaseErr error
	for _, o := range ssc.podInf.List(set.Namespace) {
		pod := o.(*api.Pod)
		ref := pod.GetControllerOf()
		if ref != nil && ref.UID != set.UID {
			continue
		}
		if isMemberOf(set, pod) {
			members = append(members, pod)
			continue
		}
		// Owned but not named as a member: let it go.
		if ref != nil && set.DeletionTimestamp == nil {
			if err := ssc.release(set, pod); err != nil && releaseErr == nil {
				releaseErr = err
			}
		}
	}
	m := &controller.PodControllerRefManager{Client: ssc.client, Controller: set, Selector: selector, CanAdopt: ssc.canAdopt(set)}
	claimed, err := m.ClaimPods(members)
	if err == nil {
		err = releaseErr
	}
	return claimed, err
}

func (ssc *StatefulSetController) release(set *api.StatefulSet, pod *api.Pod) error {
	p := pod.DeepCopy()
	refs := p.OwnerReferences[:0]
	for _, r := range p.OwnerReferences {
		if r.UID != set.UID {
			refs = append(refs, r)
		}
	}
	p.OwnerReferences = refs
	_, err := client.Update(ssc.client, p)
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
