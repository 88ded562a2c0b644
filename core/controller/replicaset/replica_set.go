// Package replicaset is the ReplicaSet controller: it creates and deletes
// pods until a ReplicaSet has as many as it asks for, adopts matching
// orphans, and reports what it sees in the ReplicaSet's status.
package replicaset

import (
	"maps"
	"sort"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// BurstReplicas caps the pods created or deleted in one sync.
const BurstReplicas = 500

// controllerUIDIndex indexes pods by the uid of their controller.
const controllerUIDIndex = "controllerUID"

// ReplicaSetController syncs ReplicaSets with their pods.
type ReplicaSetController struct {
	client       client.Interface
	clock        *clock.Clock
	rsInf        *client.Informer
	podInf       *client.Informer
	queue        *workqueue.Queue[string]
	expectations *controller.UIDTrackingControllerExpectations
	podControl   controller.PodControl
	recorder     *client.Recorder
	burst        int
}

// NewReplicaSetController builds the controller on ctx's informers.
func NewReplicaSetController(ctx *controller.Context) *ReplicaSetController {
	cl := ctx.Client("replicaset-controller")
	rec := client.NewRecorder(cl, "replicaset-controller", "")
	c := &ReplicaSetController{
		client:       cl,
		clock:        ctx.Clock,
		rsInf:        client.InformerFor[*api.ReplicaSet](ctx.Informers),
		podInf:       client.InformerFor[*api.Pod](ctx.Informers),
		queue:        workqueue.New[string]("replicaset", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		expectations: controller.NewUIDTrackingControllerExpectations(ctx.Clock),
		podControl:   controller.PodControl{Client: cl, Recorder: rec},
		recorder:     rec,
		burst:        BurstReplicas,
	}
	c.podInf.AddIndexer(controllerUIDIndex, func(o api.Object, into []string) []string {
		if ref := o.GetObjectMeta().GetControllerOf(); ref != nil {
			return append(into, ref.UID)
		}
		return into
	})
	c.rsInf.AddHandler(client.Handler{
		OnAdd:    c.enqueue,
		OnUpdate: func(_, cur api.Object) { c.enqueue(cur) },
		OnDelete: func(o api.Object) {
			key := client.KeyOf(o)
			c.expectations.DeleteExpectations(key)
			c.queue.Add(key)
		},
	})
	c.podInf.AddHandler(client.Handler{OnAdd: c.addPod, OnUpdate: c.updatePod, OnDelete: c.deletePod})
	return c
}

// Name implements controller.Worker.
func (c *ReplicaSetController) Name() string { return "replicaset-controller/syncReplicaSet" }

// ProcessNextWorkItem implements controller.Worker.
func (c *ReplicaSetController) ProcessNextWorkItem() bool {
	key, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(key)
	if err := c.syncReplicaSet(key); err != nil {
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ReplicaSetController) enqueue(o api.Object) { c.queue.Add(client.KeyOf(o)) }

// resolveControllerRef returns the ReplicaSet a controller reference names,
// if it is the one in the cache (same uid).
func (c *ReplicaSetController) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.ReplicaSet {
	if ref == nil || ref.Kind != "ReplicaSet" {
		return nil
	}
	o, ok := c.rsInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.ReplicaSet)
}

// getPodReplicaSets lists the ReplicaSets whose selector matches an orphan pod.
func (c *ReplicaSetController) getPodReplicaSets(pod *api.Pod) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range c.rsInf.List(pod.Namespace) {
		rs := o.(*api.ReplicaSet)
		sel, err := labels.SelectorFromLabelSelector(rs.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

func (c *ReplicaSetController) addPod(o api.Object) {
	pod := o.(*api.Pod)
	if pod.DeletionTimestamp != nil {
		c.deletePod(pod)
		return
	}
	if ref := pod.GetControllerOf(); ref != nil {
		if rs := c.resolveControllerRef(pod.Namespace, ref); rs != nil {
			key := client.KeyOf(rs)
			c.expectations.CreationObserved(key)
			c.queue.Add(key)
		}
		return
	}
	for _, rs := range c.getPodReplicaSets(pod) {
		c.enqueue(rs)
	}
}

func (c *ReplicaSetController) updatePod(old, cur api.Object) {
	oldPod, curPod := old.(*api.Pod), cur.(*api.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	labelsChanged := !maps.Equal(curPod.Labels, oldPod.Labels)
	if curPod.DeletionTimestamp != nil {
		c.deletePod(curPod)
		if labelsChanged {
			c.deletePod(oldPod)
		}
		return
	}
	curRef, oldRef := curPod.GetControllerOf(), oldPod.GetControllerOf()
	if oldRef != nil && (curRef == nil || curRef.UID != oldRef.UID) {
		if rs := c.resolveControllerRef(oldPod.Namespace, oldRef); rs != nil {
			c.enqueue(rs)
		}
	}
	if curRef != nil {
		rs := c.resolveControllerRef(curPod.Namespace, curRef)
		if rs == nil {
			return
		}
		c.enqueue(rs)
		// A pod that just became ready makes the set available after
		// minReadySeconds: look again then.
		if !api.IsPodReady(oldPod) && api.IsPodReady(curPod) && rs.Spec.MinReadySeconds > 0 {
			c.queue.AddAfter(client.KeyOf(rs), time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		}
		return
	}
	if labelsChanged || (oldRef != nil && curRef == nil) {
		for _, rs := range c.getPodReplicaSets(curPod) {
			c.enqueue(rs)
		}
	}
}

func (c *ReplicaSetController) deletePod(o api.Object) {
	pod := o.(*api.Pod)
	ref := pod.GetControllerOf()
	if ref == nil {
		return
	}
	rs := c.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	key := client.KeyOf(rs)
	c.expectations.DeletionObservedFor(key, client.KeyOf(pod))
	c.queue.Add(key)
}

// syncReplicaSet brings one ReplicaSet's pods to its replica count, unless
// its earlier creates or deletes are still on their way, and writes status.
func (c *ReplicaSetController) syncReplicaSet(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := c.rsInf.Get(ns, name)
	if !ok {
		c.expectations.DeleteExpectations(key)
		return nil
	}
	rs := o.(*api.ReplicaSet)
	rsNeedsSync := c.expectations.SatisfiedExpectations(key)
	selector, err := labels.SelectorFromLabelSelector(rs.Spec.Selector)
	if err != nil {
		return nil
	}
	var active []*api.Pod
	for _, po := range c.podInf.List(ns) {
		if p := po.(*api.Pod); controller.IsPodActive(p) {
			active = append(active, p)
		}
	}
	filteredPods, err := c.claimPods(rs, selector, active)
	if err != nil {
		return err
	}
	var manageErr error
	if rsNeedsSync && rs.DeletionTimestamp == nil {
		manageErr = c.manageReplicas(filteredPods, rs)
	}
	rs = rs.DeepCopy()
	newStatus := calculateStatus(rs, filteredPods, manageErr, c.clock.Now())
	updated, err := c.updateReplicaSetStatus(rs, newStatus)
	if err != nil {
		return err
	}
	replicas := replicasOf(updated)
	if manageErr == nil && updated.Spec.MinReadySeconds > 0 &&
		updated.Status.ReadyReplicas == replicas && updated.Status.AvailableReplicas != replicas {
		c.queue.AddAfter(key, time.Duration(updated.Spec.MinReadySeconds)*time.Second)
	}
	return manageErr
}

func replicasOf(rs *api.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

func (c *ReplicaSetController) claimPods(rs *api.ReplicaSet, selector labels.Selector, pods []*api.Pod) ([]*api.Pod, error) {
	m := &controller.PodControllerRefManager{
		Client:     c.client,
		Controller: rs,
		Selector:   selector,
		CanAdopt: controller.RecheckDeletionTimestamp(func() (api.Object, error) {
			return client.Get[*api.ReplicaSet](c.client, rs.Namespace, rs.Name)
		}, rs.UID),
	}
	return m.ClaimPods(pods)
}

// manageReplicas creates or deletes pods, at most burst at a time, in
// slow-start batches so a failing create stops early.
func (c *ReplicaSetController) manageReplicas(filteredPods []*api.Pod, rs *api.ReplicaSet) error {
	diff := len(filteredPods) - int(replicasOf(rs))
	key := client.KeyOf(rs)
	switch {
	case diff < 0:
		diff = -diff
		if diff > c.burst {
			diff = c.burst
		}
		c.expectations.ExpectCreations(key, diff)
		ref := controller.NewControllerRef(rs)
		successes, err := slowStartBatch(diff, 1, func() error {
			_, err := c.podControl.CreatePods(&rs.Spec.Template, rs, ref)
			if err != nil && apierrors.IsForbidden(err) && isNamespaceTerminating(err) {
				// Creation in a terminating namespace is expected to fail.
				return nil
			}
			return err
		})
		if skipped := diff - successes; skipped > 0 {
			for i := 0; i < skipped; i++ {
				c.expectations.CreationObserved(key)
			}
		}
		return err
	case diff > 0:
		if diff > c.burst {
			diff = c.burst
		}
		podsToDelete := getPodsToDelete(filteredPods, c.getIndirectlyRelatedPods(rs), diff, c.clock.Now())
		keys := make([]string, len(podsToDelete))
		for i, p := range podsToDelete {
			keys[i] = client.KeyOf(p)
		}
		c.expectations.ExpectDeletionsOf(key, keys)
		var firstErr error
		for _, p := range podsToDelete {
			if err := c.podControl.DeletePod(p.Namespace, p.Name, rs); err != nil {
				c.expectations.DeletionObservedFor(key, client.KeyOf(p))
				if !apierrors.IsNotFound(err) && firstErr == nil {
					firstErr = err
				}
			}
		}
		return firstErr
	}
	return nil
}

func isNamespaceTerminating(err error) bool {
	st, ok := err.(interface{ Status() api.Status })
	if !ok || st.Status().Details == nil {
		return false
	}
	for _, c := range st.Status().Details.Causes {
		if c.Type == "NamespaceTerminating" {
			return true
		}
	}
	return false
}

// slowStartBatch calls fn count times in batches of 1, 2, 4, … and stops
// after a batch with a failure; it returns how many calls succeeded.
func slowStartBatch(count, initial int, fn func() error) (int, error) {
	successes := 0
	for batch := min(count, initial); count > 0; batch = min(2*batch, count) {
		var firstErr error
		for i := 0; i < batch; i++ {
			if err := fn(); err != nil {
				if firstErr == nil {
					firstErr = err
				}
			} else {
				successes++
			}
		}
		if firstErr != nil {
			return successes, firstErr
		}
		count -= batch
	}
	return successes, nil
}

// getIndirectlyRelatedPods returns the pods of every ReplicaSet that shares
// this one's controller (the Deployment's other ReplicaSets), to spread
// deletions across nodes.
func (c *ReplicaSetController) getIndirectlyRelatedPods(rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	seen := map[string]bool{}
	ref := rs.GetControllerOf()
	for _, o := range c.rsInf.List(rs.Namespace) {
		r := o.(*api.ReplicaSet)
		if r.UID != rs.UID {
			other := r.GetControllerOf()
			if ref == nil || other == nil || other.UID != ref.UID {
				continue
			}
		}
		for _, po := range c.podInf.ByIndex(controllerUIDIndex, r.UID) {
			if p := po.(*api.Pod); !seen[p.UID] {
				seen[p.UID] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// getPodsToDelete picks the diff cheapest pods to delete.
func getPodsToDelete(filteredPods, relatedPods []*api.Pod, diff int, now time.Time) []*api.Pod {
	if diff < len(filteredPods) {
		ranked := getPodsRankedByRelatedPodsOnSameNode(filteredPods, relatedPods)
		ranked.Now = now
		sort.Sort(ranked)
	}
	return filteredPods[:diff]
}

// getPodsRankedByRelatedPodsOnSameNode ranks each pod by how many related
// active pods share its node.
func getPodsRankedByRelatedPodsOnSameNode(pods, related []*api.Pod) controller.ActivePodsWithRanks {
	onNode := map[string]int{}
	for _, p := range related {
		if controller.IsPodActive(p) && p.Spec.NodeName != "" {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		ranks[i] = onNode[p.Spec.NodeName]
	}
	return controller.ActivePodsWithRanks{Pods: pods, Rank: ranks}
}
