// Package daemon is the DaemonSet controller: one pod per node that should
// run it (node selector, required node affinity and taints checked as
// upstream's NodeShouldRunDaemonPod does), each pinned to its node by node
// affinity on metadata.name and placed by the scheduler; rolling updates
// within maxUnavailable or maxSurge, or OnDelete; ControllerRevisions and
// the controller-revision-hash and pod-template-generation labels; failed
// pods replaced with back-off.
package daemon

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/controller/history"
	"kubeplay/core/scheduler/framework/plugins/helper"
)

const (
	// BurstReplicas caps the pods created or deleted in one sync.
	BurstReplicas = 250
	// StatusUpdateRetries is how often a conflicting status write is retried.
	StatusUpdateRetries = 1
	// Failed daemon pods are deleted with back-off from 1 s up to 15 min,
	// as kube-controller-manager configures it.
	failedPodsBackoffInitial = time.Second
	failedPodsBackoffMax     = 15 * time.Minute
)

// Event reasons of the DaemonSet controller.
const (
	SelectingAllReason       = "SelectingAll"
	FailedPlacementReason    = "FailedPlacement"
	FailedDaemonPodReason    = "FailedDaemonPod"
	SucceededDaemonPodReason = "SucceededDaemonPod"
)

var controllerKind = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}

// DaemonSetsController syncs DaemonSets with nodes and pods.
type DaemonSetsController struct {
	client            client.Interface
	clock             *clock.Clock
	dsInf             *client.Informer
	podInf            *client.Informer
	nodeInf           *client.Informer
	history           *history.History
	queue             *workqueue.Queue[string]
	expectations      *controller.ControllerExpectations
	podControl        controller.PodControl
	recorder          *client.Recorder
	failedPodsBackoff *workqueue.Backoff
	burstReplicas     int
	// The placement pod of the DaemonSet object last judged (see
	// nodeShouldRunDaemonPod).
	placementOf *api.DaemonSet
	placement   *api.Pod
}

// NewDaemonSetsController builds the controller on ctx's informers.
func NewDaemonSetsController(ctx *controller.Context) *DaemonSetsController {
	cl := ctx.Client("daemonset-controller")
	rec := client.NewRecorder(cl, "daemonset-controller", "")
	dsc := &DaemonSetsController{
		client:            cl,
		clock:             ctx.Clock,
		dsInf:             client.InformerFor[*api.DaemonSet](ctx.Informers),
		podInf:            client.InformerFor[*api.Pod](ctx.Informers),
		nodeInf:           client.InformerFor[*api.Node](ctx.Informers),
		queue:             workqueue.New[string]("daemonset", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		expectations:      controller.NewControllerExpectations(ctx.Clock),
		podControl:        controller.PodControl{Client: cl, Recorder: rec},
		recorder:          rec,
		failedPodsBackoff: workqueue.NewBackOff(failedPodsBackoffInitial, failedPodsBackoffMax, ctx.Clock),
		burstReplicas:     BurstReplicas,
	}
	crInf := client.InformerFor[*api.ControllerRevision](ctx.Informers)
	dsc.history = &history.History{Client: cl, Informer: crInf}
	dsc.dsInf.AddHandler(client.Handler{
		OnAdd: dsc.enqueue,
		OnUpdate: func(old, cur api.Object) {
			if old.GetObjectMeta().UID != cur.GetObjectMeta().UID {
				dsc.deleteDaemonset(old)
			}
			dsc.enqueue(cur)
		},
		OnDelete: dsc.deleteDaemonset,
	})
	crInf.AddHandler(client.Handler{OnAdd: dsc.addHistory, OnUpdate: dsc.updateHistory, OnDelete: dsc.deleteHistory})
	dsc.podInf.AddHandler(client.Handler{OnAdd: dsc.addPod, OnUpdate: dsc.updatePod, OnDelete: dsc.deletePod})
	dsc.nodeInf.AddHandler(client.Handler{OnAdd: dsc.addNode, OnUpdate: dsc.updateNode})
	return dsc
}

// Name implements controller.Worker.
func (dsc *DaemonSetsController) Name() string { return "daemonset-controller/syncDaemonSet" }

// ProcessNextWorkItem implements controller.Worker.
func (dsc *DaemonSetsController) ProcessNextWorkItem() bool {
	key, ok := dsc.queue.Get()
	if !ok {
		return false
	}
	defer dsc.queue.Done(key)
	if err := dsc.syncDaemonSet(key); err != nil {
		dsc.queue.AddRateLimited(key)
		return true
	}
	dsc.queue.Forget(key)
	return true
}

func (dsc *DaemonSetsController) enqueue(o api.Object) { dsc.queue.Add(client.KeyOf(o)) }

func (dsc *DaemonSetsController) enqueueAfter(o api.Object, d time.Duration) {
	dsc.queue.AddAfter(client.KeyOf(o), d)
}

func (dsc *DaemonSetsController) deleteDaemonset(o api.Object) {
	key := client.KeyOf(o)
	// A new DaemonSet of the same name starts with clean expectations.
	dsc.expectations.DeleteExpectations(key)
	dsc.queue.Add(key)
}

// resolveControllerRef returns the cached DaemonSet a reference names.
func (dsc *DaemonSetsController) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.DaemonSet {
	if ref == nil || ref.Kind != controllerKind.Kind {
		return nil
	}
	o, ok := dsc.dsInf.Get(namespace, ref.Name)
	if !ok || o.GetObjectMeta().UID != ref.UID {
		return nil
	}
	return o.(*api.DaemonSet)
}

// selecting lists the DaemonSets of namespace whose selector matches ls.
func (dsc *DaemonSetsController) selecting(namespace string, ls map[string]string) []*api.DaemonSet {
	var out []*api.DaemonSet
	for _, o := range dsc.dsInf.List(namespace) {
		ds := o.(*api.DaemonSet)
		sel, err := labels.SelectorFromLabelSelector(ds.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(ls)) {
			continue
		}
		out = append(out, ds)
	}
	return out
}

func (dsc *DaemonSetsController) addHistory(o api.Object) {
	cr := o.(*api.ControllerRevision)
	if cr.DeletionTimestamp != nil {
		dsc.deleteHistory(cr)
		return
	}
	if ref := cr.GetControllerOf(); ref != nil {
		// Its own revision: nothing new to sync for.
		return
	}
	for _, ds := range dsc.selecting(cr.Namespace, cr.Labels) {
		dsc.enqueue(ds)
	}
}

func (dsc *DaemonSetsController) updateHistory(old, cur api.Object) {
	oldCR, curCR := old.(*api.ControllerRevision), cur.(*api.ControllerRevision)
	if oldCR.ResourceVersion == curCR.ResourceVersion {
		return
	}
	curRef, oldRef := curCR.GetControllerOf(), oldCR.GetControllerOf()
	refChanged := !controller.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if ds := dsc.resolveControllerRef(oldCR.Namespace, oldRef); ds != nil {
			dsc.enqueue(ds)
		}
	}
	if curRef != nil {
		if ds := dsc.resolveControllerRef(curCR.Namespace, curRef); ds != nil {
			dsc.enqueue(ds)
		}
		return
	}
	if refChanged || !maps.Equal(curCR.Labels, oldCR.Labels) {
		for _, ds := range dsc.selecting(curCR.Namespace, curCR.Labels) {
			dsc.enqueue(ds)
		}
	}
}

func (dsc *DaemonSetsController) deleteHistory(o api.Object) {
	cr := o.(*api.ControllerRevision)
	if ds := dsc.resolveControllerRef(cr.Namespace, cr.GetControllerOf()); ds != nil {
		dsc.enqueue(ds)
	}
}

func (dsc *DaemonSetsController) addPod(o api.Object) {
	pod := o.(*api.Pod)
	if pod.DeletionTimestamp != nil {
		dsc.deletePod(pod)
		return
	}
	if ref := pod.GetControllerOf(); ref != nil {
		if ds := dsc.resolveControllerRef(pod.Namespace, ref); ds != nil {
			dsc.expectations.CreationObserved(client.KeyOf(ds))
			dsc.enqueue(ds)
		}
		return
	}
	for _, ds := range dsc.selecting(pod.Namespace, pod.Labels) {
		dsc.enqueue(ds)
	}
}

func (dsc *DaemonSetsController) updatePod(old, cur api.Object) {
	oldPod, curPod := old.(*api.Pod), cur.(*api.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	if curPod.DeletionTimestamp != nil {
		// A graceful delete began: act now rather than when the kubelet is done.
		dsc.deletePod(curPod)
		return
	}
	curRef, oldRef := curPod.GetControllerOf(), oldPod.GetControllerOf()
	refChanged := !controller.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if ds := dsc.resolveControllerRef(oldPod.Namespace, oldRef); ds != nil {
			dsc.enqueue(ds)
		}
	}
	if curRef != nil {
		ds := dsc.resolveControllerRef(curPod.Namespace, curRef)
		if ds == nil {
			return
		}
		dsc.enqueue(ds)
		if !api.IsPodReady(oldPod) && api.IsPodReady(curPod) && ds.Spec.MinReadySeconds > 0 {
			dsc.enqueueAfter(ds, time.Duration(ds.Spec.MinReadySeconds)*time.Second+time.Second)
		}
		return
	}
	if refChanged || !maps.Equal(curPod.Labels, oldPod.Labels) {
		for _, ds := range dsc.selecting(curPod.Namespace, curPod.Labels) {
			dsc.enqueue(ds)
		}
	}
}

func (dsc *DaemonSetsController) deletePod(o api.Object) {
	pod := o.(*api.Pod)
	ds := dsc.resolveControllerRef(pod.Namespace, pod.GetControllerOf())
	if ds == nil {
		return
	}
	dsc.expectations.DeletionObserved(client.KeyOf(ds))
	dsc.enqueue(ds)
}

func (dsc *DaemonSetsController) addNode(o api.Object) {
	node := o.(*api.Node)
	for _, d := range dsc.dsInf.List("") {
		ds := d.(*api.DaemonSet)
		if shouldRun, _ := dsc.nodeShouldRunDaemonPod(node, ds); shouldRun {
			dsc.enqueue(ds)
		}
	}
}

func (dsc *DaemonSetsController) updateNode(old, cur api.Object) {
	oldNode, curNode := old.(*api.Node), cur.(*api.Node)
	if shouldIgnoreNodeUpdate(oldNode, curNode) {
		return
	}
	for _, d := range dsc.dsInf.List("") {
		ds := d.(*api.DaemonSet)
		oldRun, oldCont := dsc.nodeShouldRunDaemonPod(oldNode, ds)
		curRun, curCont := dsc.nodeShouldRunDaemonPod(curNode, ds)
		if oldRun != curRun || oldCont != curCont {
			dsc.enqueue(ds)
		}
	}
}

// shouldIgnoreNodeUpdate: only heartbeats changed (the same conditions
// true, labels, taints and spec alike), which cannot change placement.
func shouldIgnoreNodeUpdate(old, cur *api.Node) bool {
	if !nodeInSameCondition(old.Status.Conditions, cur.Status.Conditions) {
		return false
	}
	return maps.Equal(old.Labels, cur.Labels) && sameTaints(old.Spec.Taints, cur.Spec.Taints) &&
		old.Spec.Unschedulable == cur.Spec.Unschedulable && old.Name == cur.Name
}

// nodeInSameCondition compares the set of condition types that are True.
func nodeInSameCondition(old, cur []api.NodeCondition) bool {
	trueTypes := map[string]bool{}
	for _, c := range old {
		if c.Status == api.ConditionTrue {
			trueTypes[c.Type] = true
		}
	}
	for _, c := range cur {
		if c.Status != api.ConditionTrue {
			continue
		}
		if !trueTypes[c.Type] {
			return false
		}
		delete(trueTypes, c.Type)
	}
	return len(trueTypes) == 0
}

// getDaemonPods returns the pods ds owns after adoption and release.
func (dsc *DaemonSetsController) getDaemonPods(ds *api.DaemonSet) ([]*api.Pod, error) {
	selector, err := labels.SelectorFromLabelSelector(ds.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var pods []*api.Pod
	for _, o := range dsc.podInf.List(ds.Namespace) {
		pods = append(pods, o.(*api.Pod))
	}
	m := &controller.PodControllerRefManager{Client: dsc.client, Controller: ds, Selector: selector, CanAdopt: dsc.canAdopt(ds)}
	return m.ClaimPods(pods)
}

func (dsc *DaemonSetsController) canAdopt(ds *api.DaemonSet) func() error {
	return controller.RecheckDeletionTimestamp(func() (api.Object, error) {
		fresh, err := client.Get[*api.DaemonSet](dsc.client, ds.Namespace, ds.Name)
		if err != nil {
			return nil, err
		}
		if fresh.UID != ds.UID {
			return nil, fmt.Errorf("original DaemonSet %v/%v is gone: got uid %v, wanted %v", ds.Namespace, ds.Name, fresh.UID, ds.UID)
		}
		return fresh, nil
	}, ds.UID)
}

// getNodesToDaemonPods groups ds's pods by the node each is for. Finished
// pods already being deleted are left out unless includeDeletedTerminal.
func (dsc *DaemonSetsController) getNodesToDaemonPods(ds *api.DaemonSet, includeDeletedTerminal bool) (map[string][]*api.Pod, error) {
	claimed, err := dsc.getDaemonPods(ds)
	if err != nil {
		return nil, err
	}
	out := map[string][]*api.Pod{}
	for _, pod := range claimed {
		if !includeDeletedTerminal && api.IsPodTerminal(pod) && pod.DeletionTimestamp != nil {
			continue
		}
		node, err := GetTargetNodeName(pod)
		if err != nil {
			continue
		}
		out[node] = append(out[node], pod)
	}
	return out, nil
}

// listNodes returns every node, by name.
func (dsc *DaemonSetsController) listNodes() []*api.Node {
	objs := dsc.nodeInf.List("")
	out := make([]*api.Node, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Node)
	}
	return out
}

// syncDaemonSet records the template's revision, makes each node run the
// pod it should, rolls updates, trims history and writes status.
func (dsc *DaemonSetsController) syncDaemonSet(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := dsc.dsInf.Get(ns, name)
	if !ok {
		dsc.expectations.DeleteExpectations(key)
		return nil
	}
	ds := o.(*api.DaemonSet)
	nodes := dsc.listNodes()
	if ds.Spec.Selector == nil || (len(ds.Spec.Selector.MatchLabels) == 0 && len(ds.Spec.Selector.MatchExpressions) == 0) {
		dsc.recorder.Event(ds, api.EventTypeWarning, SelectingAllReason, "This daemon set is selecting all pods. A non-empty selector is required.")
		return nil
	}
	// Its history may be half deleted already: nothing can be trusted.
	if ds.DeletionTimestamp != nil {
		return nil
	}
	cur, old, err := dsc.constructHistory(ds)
	if err != nil {
		return fmt.Errorf("failed to construct revisions of DaemonSet: %v", err)
	}
	hash := cur.Labels[api.DefaultDaemonSetUniqueLabelKey]
	if !dsc.expectations.SatisfiedExpectations(key) {
		// Only status: this generation has not been acted on yet.
		return dsc.updateDaemonSetStatus(ds, nodes, hash, false)
	}
	err = dsc.updateDaemonSet(ds, nodes, hash, key, old)
	statusErr := dsc.updateDaemonSetStatus(ds, nodes, hash, true)
	if err != nil {
		return err
	}
	return statusErr
}

func (dsc *DaemonSetsController) updateDaemonSet(ds *api.DaemonSet, nodes []*api.Node, hash, key string, old []*api.ControllerRevision) error {
	if err := dsc.manage(ds, nodes, hash); err != nil {
		return err
	}
	if dsc.expectations.SatisfiedExpectations(key) && ds.Spec.UpdateStrategy.Type == api.RollingUpdateDaemonSetStrategyType {
		if err := dsc.rollingUpdate(ds, nodes, hash); err != nil {
			return err
		}
	}
	if err := dsc.cleanupHistory(ds, old); err != nil {
		return fmt.Errorf("failed to clean up revisions of DaemonSet: %w", err)
	}
	return nil
}

// manage creates the pods missing on nodes that should run one and deletes
// those on nodes that should not.
func (dsc *DaemonSetsController) manage(ds *api.DaemonSet, nodes []*api.Node, hash string) error {
	nodeToDaemonPods, err := dsc.getNodesToDaemonPods(ds, false)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", ds.Name, err)
	}
	var nodesNeedingDaemonPods, podsToDelete []string
	for _, node := range nodes {
		create, del := dsc.podsShouldBeOnNode(node, nodeToDaemonPods, ds, hash)
		nodesNeedingDaemonPods = append(nodesNeedingDaemonPods, create...)
		podsToDelete = append(podsToDelete, del...)
	}
	// Unscheduled pods for nodes that are gone would wait forever.
	podsToDelete = append(podsToDelete, getUnscheduledPodsWithoutNode(nodes, nodeToDaemonPods)...)
	return dsc.syncNodes(ds, podsToDelete, nodesNeedingDaemonPods, hash)
}

// podsShouldBeOnNode decides, for one node, whether a pod must be created
// and which pods must go: failed ones (with back-off), succeeded ones,
// extras, and all of them when the node should not run the daemon.
func (dsc *DaemonSetsController) podsShouldBeOnNode(node *api.Node, nodeToDaemonPods map[string][]*api.Pod, ds *api.DaemonSet, hash string) (nodesNeedingDaemonPods, podsToDelete []string) {
	shouldRun, shouldContinueRunning := dsc.nodeShouldRunDaemonPod(node, ds)
	daemonPods, exists := nodeToDaemonPods[node.Name]
	switch {
	case shouldRun && !exists:
		nodesNeedingDaemonPods = append(nodesNeedingDaemonPods, node.Name)
	case shouldContinueRunning:
		var running []*api.Pod
		for _, pod := range daemonPods {
			if pod.DeletionTimestamp != nil {
				continue
			}
			switch pod.Status.Phase {
			case api.PodFailed:
				// The kubelet may keep rejecting the pod: back off rather
				// than fight it in a hot loop.
				backoffKey := failedPodsBackoffKey(ds, node.Name)
				now := dsc.clock.Now()
				if dsc.failedPodsBackoff.IsInBackOffSinceUpdate(backoffKey, now) {
					dsc.enqueueAfter(ds, dsc.failedPodsBackoff.Get(backoffKey))
					continue
				}
				dsc.failedPodsBackoff.Next(backoffKey, now)
				dsc.recorder.Eventf(ds, api.EventTypeWarning, FailedDaemonPodReason,
					"Found failed daemon pod %s/%s on node %s, will try to kill it", pod.Namespace, pod.Name, node.Name)
				podsToDelete = append(podsToDelete, pod.Name)
			case api.PodSucceeded:
				dsc.recorder.Eventf(ds, api.EventTypeNormal, SucceededDaemonPodReason,
					"Found succeeded daemon pod %s/%s on node %s, will try to delete it", pod.Namespace, pod.Name, node.Name)
				podsToDelete = append(podsToDelete, pod.Name)
			default:
				running = append(running, pod)
			}
		}
		if !AllowsSurge(ds) {
			// Keep the oldest; the rest are extras.
			if len(running) > 1 {
				sortByCreationTimestampAndPhase(running)
				for _, p := range running[1:] {
					podsToDelete = append(podsToDelete, p.Name)
				}
			}
			break
		}
		if len(running) <= 1 {
			if len(running) == 0 && shouldRun {
				nodesNeedingDaemonPods = append(nodesNeedingDaemonPods, node.Name)
			}
			break
		}
		// Surging: keep the oldest new pod and, while it is not yet
		// available and the old one is ready, the oldest old pod.
		var oldestNew, oldestOld *api.Pod
		sortByCreationTimestampAndPhase(running)
		for _, pod := range running {
			if pod.Labels[api.ControllerRevisionHashLabelKey] == hash {
				if oldestNew == nil {
					oldestNew = pod
					continue
				}
			} else if oldestOld == nil {
				oldestOld = pod
				continue
			}
			podsToDelete = append(podsToDelete, pod.Name)
		}
		if oldestNew != nil && oldestOld != nil {
			switch {
			case !api.IsPodReady(oldestOld):
				podsToDelete = append(podsToDelete, oldestOld.Name)
			case api.IsPodAvailable(oldestNew, ds.Spec.MinReadySeconds, api.Time{Time: dsc.clock.Now()}):
				podsToDelete = append(podsToDelete, oldestOld.Name)
			}
		}
	case !shouldContinueRunning && exists:
		for _, pod := range daemonPods {
			if pod.DeletionTimestamp == nil {
				podsToDelete = append(podsToDelete, pod.Name)
			}
		}
	}
	return nodesNeedingDaemonPods, podsToDelete
}

// syncNodes deletes podsToDelete and creates a pod for each node in
// nodesNeedingDaemonPods, at most burstReplicas of each, creating in
// slow-start batches that stop after a failure.
func (dsc *DaemonSetsController) syncNodes(ds *api.DaemonSet, podsToDelete, nodesNeedingDaemonPods []string, hash string) error {
	key := client.KeyOf(ds)
	createDiff := min(len(nodesNeedingDaemonPods), dsc.burstReplicas)
	deleteDiff := min(len(podsToDelete), dsc.burstReplicas)
	dsc.expectations.SetExpectations(key, createDiff, deleteDiff)

	var errs []error
	generation := templateGeneration(ds)
	template := CreatePodTemplate(ds.Spec.Template, generation, hash)
	ref := history.ControllerRef(ds, controllerKind)
	batch := min(createDiff, 1)
	for pos := 0; pos < createDiff; pos, batch = pos+batch, min(2*batch, createDiff-(pos+batch)) {
		failed := false
		for i := pos; i < pos+batch; i++ {
			t := template.DeepCopy()
			// Pinned to its node by affinity; the scheduler binds it.
			t.Spec.Affinity = ReplaceDaemonSetPodNodeNameNodeAffinity(t.Spec.Affinity, nodesNeedingDaemonPods[i])
			_, err := dsc.podControl.CreatePods(t, ds, &ref)
			if err != nil {
				if isNamespaceTerminating(err) {
					// Every later create would fail the same way.
					continue
				}
				dsc.expectations.CreationObserved(key)
				errs = append(errs, err)
				failed = true
			}
		}
		if skipped := createDiff - (pos + batch); failed && skipped > 0 {
			dsc.expectations.LowerExpectations(key, skipped, 0)
			break
		}
	}
	for _, name := range podsToDelete[:deleteDiff] {
		if err := dsc.podControl.DeletePod(ds.Namespace, name, ds); err != nil {
			dsc.expectations.DeletionObserved(key)
			if !apierrors.IsNotFound(err) && !isNotFoundCause(err) {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// isNotFoundCause: PodControl wraps the API error in its own message.
func isNotFoundCause(err error) bool {
	type unwrapper interface{ Unwrap() error }
	for err != nil {
		if apierrors.IsNotFound(err) {
			return true
		}
		u, ok := err.(unwrapper)
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
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

// storeDaemonSetStatus writes the counts unless they are already there.
func (dsc *DaemonSetsController) storeDaemonSetStatus(ds *api.DaemonSet, s api.DaemonSetStatus, updateObservedGen bool) error {
	cur := ds.Status
	if cur.DesiredNumberScheduled == s.DesiredNumberScheduled && cur.CurrentNumberScheduled == s.CurrentNumberScheduled &&
		cur.NumberMisscheduled == s.NumberMisscheduled && cur.NumberReady == s.NumberReady &&
		cur.UpdatedNumberScheduled == s.UpdatedNumberScheduled && cur.NumberAvailable == s.NumberAvailable &&
		cur.NumberUnavailable == s.NumberUnavailable && cur.ObservedGeneration >= ds.Generation {
		return nil
	}
	toUpdate := ds.DeepCopy()
	var err error
	for i := 0; ; i++ {
		if updateObservedGen {
			toUpdate.Status.ObservedGeneration = ds.Generation
		}
		toUpdate.Status.DesiredNumberScheduled = s.DesiredNumberScheduled
		toUpdate.Status.CurrentNumberScheduled = s.CurrentNumberScheduled
		toUpdate.Status.NumberMisscheduled = s.NumberMisscheduled
		toUpdate.Status.NumberReady = s.NumberReady
		toUpdate.Status.UpdatedNumberScheduled = s.UpdatedNumberScheduled
		toUpdate.Status.NumberAvailable = s.NumberAvailable
		toUpdate.Status.NumberUnavailable = s.NumberUnavailable
		if _, err = client.UpdateStatus(dsc.client, toUpdate); err == nil {
			return nil
		}
		if i >= StatusUpdateRetries {
			return err
		}
		fresh, getErr := client.Get[*api.DaemonSet](dsc.client, ds.Namespace, ds.Name)
		if getErr != nil {
			return getErr
		}
		toUpdate = fresh.DeepCopy()
	}
}

// updateDaemonSetStatus counts nodes by what runs on them, judging each
// node by its oldest daemon pod.
func (dsc *DaemonSetsController) updateDaemonSetStatus(ds *api.DaemonSet, nodes []*api.Node, hash string, updateObservedGen bool) error {
	nodeToDaemonPods, err := dsc.getNodesToDaemonPods(ds, false)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", ds.Name, err)
	}
	var s api.DaemonSetStatus
	now := api.Time{Time: dsc.clock.Now()}
	generation := templateGeneration(ds)
	for _, node := range nodes {
		shouldRun, _ := dsc.nodeShouldRunDaemonPod(node, ds)
		daemonPods := nodeToDaemonPods[node.Name]
		scheduled := len(daemonPods) > 0
		if !shouldRun {
			if scheduled {
				s.NumberMisscheduled++
			}
			continue
		}
		s.DesiredNumberScheduled++
		if !scheduled {
			continue
		}
		s.CurrentNumberScheduled++
		sortByCreationTimestampAndPhase(daemonPods)
		pod := daemonPods[0]
		if api.IsPodReady(pod) {
			s.NumberReady++
			if api.IsPodAvailable(pod, ds.Spec.MinReadySeconds, now) {
				s.NumberAvailable++
			}
		}
		if IsPodUpdated(pod, hash, generation) {
			s.UpdatedNumberScheduled++
		}
	}
	s.NumberUnavailable = s.DesiredNumberScheduled - s.NumberAvailable
	if err := dsc.storeDaemonSetStatus(ds, s, updateObservedGen); err != nil {
		return fmt.Errorf("error storing status for daemon set %s/%s: %w", ds.Namespace, ds.Name, err)
	}
	// Look again when ready pods become available. The extra second keeps
	// the look strictly after minReadySeconds on the virtual clock.
	if ds.Spec.MinReadySeconds > 0 && s.NumberReady != s.NumberAvailable {
		dsc.enqueueAfter(ds, time.Duration(ds.Spec.MinReadySeconds)*time.Second+time.Second)
	}
	return nil
}

// NodeShouldRunDaemonPod reports whether a daemon pod should be started on
// node (shouldRun) and whether one already there may stay
// (shouldContinueRunning): the node must match the template's nodeName,
// node selector and required node affinity; untolerated NoSchedule taints
// stop new pods, untolerated NoExecute taints also evict running ones.
func NodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	return shouldRunOn(placementPod(ds), node, ds)
}

// nodeShouldRunDaemonPod is NodeShouldRunDaemonPod with the placement pod
// of the DaemonSet object last asked about kept: a sync asks for every
// node in turn, and the informer's object stays the same until the
// DaemonSet changes.
func (dsc *DaemonSetsController) nodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	if dsc.placementOf != ds {
		dsc.placementOf, dsc.placement = ds, placementPod(ds)
	}
	return shouldRunOn(dsc.placement, node, ds)
}

// shouldRunOn judges node for ds's placement pod (see placementPod).
func shouldRunOn(pod *api.Pod, node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	if ds.Spec.Template.Spec.NodeName != "" && ds.Spec.Template.Spec.NodeName != node.Name {
		return false, false
	}
	fitsNodeName, fitsNodeAffinity, fitsTaints := predicates(pod, node, node.Spec.Taints)
	if !fitsNodeName || !fitsNodeAffinity {
		return false, false
	}
	if !fitsTaints {
		_, untolerated := helper.FindMatchingUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, func(t *api.Taint) bool {
			return t.Effect == api.TaintEffectNoExecute
		})
		return false, !untolerated
	}
	return true, true
}

// predicates checks the node name, required node affinity and taints.
func predicates(pod *api.Pod, node *api.Node, taints []api.Taint) (fitsNodeName, fitsNodeAffinity, fitsTaints bool) {
	fitsNodeName = pod.Spec.NodeName == "" || pod.Spec.NodeName == node.Name
	fitsNodeAffinity = helper.GetRequiredNodeAffinity(pod).Match(node)
	_, untolerated := helper.FindMatchingUntoleratedTaint(taints, pod.Spec.Tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoExecute || t.Effect == api.TaintEffectNoSchedule
	})
	return fitsNodeName, fitsNodeAffinity, !untolerated
}

// placementPod is what of NewPod(ds, nodeName) the placement checks read:
// node selector, affinity and tolerations (the daemon ones depend on host
// networking), the same for every node; its node name is left empty, so
// it fits any node by name (NewPod's names the node it is checked
// against). It shares the template's selector and affinity (read only)
// instead of deep-copying the whole template.
func placementPod(ds *api.DaemonSet) *api.Pod {
	t := &ds.Spec.Template.Spec
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ds.Namespace}, Spec: api.PodSpec{
		NodeSelector: t.NodeSelector, Affinity: t.Affinity, HostNetwork: t.HostNetwork,
		Tolerations: append([]api.Toleration(nil), t.Tolerations...),
	}}
	AddOrUpdateDaemonPodTolerations(&pod.Spec)
	return pod
}

// NewPod is the daemon pod ds would run on nodeName, as the placement
// checks see it (with the daemon tolerations).
func NewPod(ds *api.DaemonSet, nodeName string) *api.Pod {
	t := ds.Spec.Template.DeepCopy()
	pod := &api.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	pod.Namespace = ds.Namespace
	pod.Spec.NodeName = nodeName
	AddOrUpdateDaemonPodTolerations(&pod.Spec)
	return pod
}

// sortByCreationTimestampAndPhase: scheduled pods first, then oldest, then
// by name.
func sortByCreationTimestampAndPhase(pods []*api.Pod) {
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
			return a.Spec.NodeName != ""
		}
		if a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.Name < b.Name
		}
		return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
	})
}

func failedPodsBackoffKey(ds *api.DaemonSet, nodeName string) string {
	return fmt.Sprintf("%s/%d/%s", ds.UID, ds.Status.ObservedGeneration, nodeName)
}

// getUnscheduledPodsWithoutNode lists unbound pods meant for nodes that do
// not exist, in node order.
func getUnscheduledPodsWithoutNode(nodes []*api.Node, nodeToDaemonPods map[string][]*api.Pod) []string {
	exists := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		exists[n.Name] = true
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(nodeToDaemonPods)) {
		if exists[name] {
			continue
		}
		for _, p := range nodeToDaemonPods[name] {
			if p.Spec.NodeName == "" {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

func sameTaints(a, b []api.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Value != b[i].Value || a[i].Effect != b[i].Effect {
			return false
		}
	}
	return true
}
