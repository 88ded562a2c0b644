// Package tainteviction is the taint eviction controller of
// kube-controller-manager (v1.32 runs it apart from the node lifecycle
// controller): it deletes the pods of a node with NoExecute taints they do
// not tolerate at once, and those that tolerate them for tolerationSeconds
// when that time is up, and cancels the deletion if the taints go first.
package tainteviction

import (
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// ControllerName is the controller's name and its events' source.
const ControllerName = "taint-eviction-controller"

// retries bounds the attempts to delete one pod.
const retries = 5

// podNodeNameIndex indexes pods by spec.nodeName (shared with the node
// lifecycle controller, which adds the same index).
const podNodeNameIndex = "spec.nodeName"

// podUpdateItem is a pod to look at, with the node it was on when queued.
type podUpdateItem struct {
	namespace, name, nodeName string
}

// Controller is the taint eviction controller.
type Controller struct {
	client   client.Interface
	clock    *clock.Clock
	recorder *client.Recorder
	podInf   *client.Informer
	nodeInf  *client.Informer

	taintEvictionQueue *TimedWorkerQueue
	// taintedNodes holds each node's NoExecute taints.
	taintedNodes map[string][]api.Taint

	nodeUpdateQueue *workqueue.Queue[string]
	podUpdateQueue  *workqueue.Queue[podUpdateItem]
	// deletions are pods whose time is up.
	deletions *workqueue.Queue[string]
}

// New builds the controller on ctx's informers.
func New(ctx *controller.Context) *Controller {
	cl := ctx.Client(ControllerName)
	tc := &Controller{
		client:          cl,
		clock:           ctx.Clock,
		recorder:        client.NewRecorder(cl, ControllerName, ""),
		podInf:          client.InformerFor[*api.Pod](ctx.Informers),
		nodeInf:         client.InformerFor[*api.Node](ctx.Informers),
		taintedNodes:    map[string][]api.Taint{},
		nodeUpdateQueue: workqueue.New[string]("noexec_taint_node", ctx.Clock, nil),
		podUpdateQueue:  workqueue.New[podUpdateItem]("noexec_taint_pod", ctx.Clock, nil),
		deletions:       workqueue.New[string]("noexec_taint_delete", ctx.Clock, nil),
	}
	tc.taintEvictionQueue = NewTimedWorkerQueue(ctx.Clock, tc.deletions.Add)
	tc.podInf.AddIndexer(podNodeNameIndex, func(o api.Object, into []string) []string {
		if p := o.(*api.Pod); p.Spec.NodeName != "" {
			return append(into, p.Spec.NodeName)
		}
		return into
	})
	tc.podInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { tc.PodUpdated(nil, o.(*api.Pod)) },
		OnUpdate: func(old, cur api.Object) { tc.PodUpdated(old.(*api.Pod), cur.(*api.Pod)) },
		OnDelete: func(o api.Object) { tc.PodUpdated(o.(*api.Pod), nil) },
	})
	tc.nodeInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { tc.NodeUpdated(nil, o.(*api.Node)) },
		OnUpdate: func(old, cur api.Object) { tc.NodeUpdated(old.(*api.Node), cur.(*api.Node)) },
		OnDelete: func(o api.Object) { tc.NodeUpdated(o.(*api.Node), nil) },
	})
	return tc
}

// Name implements controller.Worker.
func (tc *Controller) Name() string { return ControllerName + "/handleNodeUpdate" }

// ProcessNextWorkItem implements controller.Worker. Node updates go before
// pod updates, as upstream prioritises them, so a pod is judged against
// its node's latest taints; due deletions come last, so a cancellation at
// the same instant wins.
func (tc *Controller) ProcessNextWorkItem() bool {
	if name, ok := tc.nodeUpdateQueue.Get(); ok {
		defer tc.nodeUpdateQueue.Done(name)
		tc.handleNodeUpdate(name)
		return true
	}
	if item, ok := tc.podUpdateQueue.Get(); ok {
		defer tc.podUpdateQueue.Done(item)
		tc.handlePodUpdate(item)
		return true
	}
	if key, ok := tc.deletions.Get(); ok {
		defer tc.deletions.Done(key)
		if tc.taintEvictionQueue.isFired(key) {
			tc.taintEvictionQueue.done(key, tc.deletePod(key))
		}
		return true
	}
	return false
}

// PodUpdated notes a pod whose node or tolerations changed.
func (tc *Controller) PodUpdated(oldPod, newPod *api.Pod) {
	var item podUpdateItem
	var oldTol, newTol []api.Toleration
	if oldPod != nil {
		item = podUpdateItem{oldPod.Namespace, oldPod.Name, oldPod.Spec.NodeName}
		oldTol = oldPod.Spec.Tolerations
	}
	if newPod != nil {
		item = podUpdateItem{newPod.Namespace, newPod.Name, newPod.Spec.NodeName}
		newTol = newPod.Spec.Tolerations
	}
	if oldPod != nil && newPod != nil && sameTolerations(oldTol, newTol) && oldPod.Spec.NodeName == newPod.Spec.NodeName {
		return
	}
	tc.podUpdateQueue.Add(item)
}

// NodeUpdated notes a node whose NoExecute taints changed.
func (tc *Controller) NodeUpdated(oldNode, newNode *api.Node) {
	var name string
	var oldTaints, newTaints []api.Taint
	if oldNode != nil {
		name = oldNode.Name
		oldTaints = getNoExecuteTaints(oldNode.Spec.Taints)
	}
	if newNode != nil {
		name = newNode.Name
		newTaints = getNoExecuteTaints(newNode.Spec.Taints)
	}
	if oldNode != nil && newNode != nil && sameTaints(oldTaints, newTaints) {
		return
	}
	tc.nodeUpdateQueue.Add(name)
}

func podKey(namespace, name string) string { return namespace + "/" + name }

// cancelWorkWithEvent cancels a waiting deletion and says so in an event.
func (tc *Controller) cancelWorkWithEvent(namespace, name string) {
	if tc.taintEvictionQueue.CancelWork(podKey(namespace, name)) {
		tc.recorder.Eventf(podRef(namespace, name), "Normal", "TaintManagerEviction", "Cancelling deletion of Pod %s/%s", namespace, name)
	}
}

// processPodOnNode decides a pod's fate under its node's NoExecute taints:
// deleted now if one is not tolerated, after the shortest tolerationSeconds
// of the tolerations used, or never if they all tolerate forever.
func (tc *Controller) processPodOnNode(namespace, name, nodeName string, tolerations []api.Toleration, taints []api.Taint, now time.Time) {
	key := podKey(namespace, name)
	if len(taints) == 0 {
		// Callers only come with taints; return anyway, as no taint must
		// never read as "tolerated for 0 s".
		tc.cancelWorkWithEvent(namespace, name)
		return
	}
	allTolerated, used := getMatchingTolerations(taints, tolerations)
	if !allTolerated {
		tc.cancelWorkWithEvent(namespace, name)
		tc.taintEvictionQueue.AddWork(key, now, now)
		return
	}
	minTolerationTime := getMinTolerationTime(used)
	if minTolerationTime < 0 {
		tc.cancelWorkWithEvent(namespace, name)
		return
	}
	// Counted from when the controller first sees the pod under the
	// taints (upstream v1.32 does not read the taint's timeAdded).
	start := now
	trigger := start.Add(minTolerationTime)
	if w := tc.taintEvictionQueue.GetWorker(key); w != nil {
		start = w.CreatedAt
		if start.Add(minTolerationTime).Before(trigger) {
			return
		}
		tc.cancelWorkWithEvent(namespace, name)
	}
	tc.taintEvictionQueue.AddWork(key, start, trigger)
}

func (tc *Controller) handlePodUpdate(item podUpdateItem) {
	o, ok := tc.podInf.Get(item.namespace, item.name)
	if !ok {
		tc.cancelWorkWithEvent(item.namespace, item.name)
		return
	}
	pod := o.(*api.Pod)
	// Work is keyed by the node the pod was on; a pod that moved since is
	// some later item's business.
	if pod.Spec.NodeName != item.nodeName || pod.Spec.NodeName == "" {
		return
	}
	taints, ok := tc.taintedNodes[pod.Spec.NodeName]
	if !ok {
		return
	}
	tc.processPodOnNode(pod.Namespace, pod.Name, pod.Spec.NodeName, pod.Spec.Tolerations, taints, tc.clock.Now())
}

func (tc *Controller) handleNodeUpdate(nodeName string) {
	o, ok := tc.nodeInf.Get("", nodeName)
	if !ok {
		delete(tc.taintedNodes, nodeName)
		return
	}
	node := o.(*api.Node)
	taints := getNoExecuteTaints(node.Spec.Taints)
	if len(taints) == 0 {
		delete(tc.taintedNodes, nodeName)
	} else {
		tc.taintedNodes[nodeName] = taints
	}
	pods := tc.podInf.ByIndex(podNodeNameIndex, nodeName)
	if len(pods) == 0 {
		return
	}
	if len(taints) == 0 {
		for _, p := range pods {
			m := p.GetObjectMeta()
			tc.cancelWorkWithEvent(m.Namespace, m.Name)
		}
		return
	}
	now := tc.clock.Now()
	for _, o := range pods {
		pod := o.(*api.Pod)
		tc.processPodOnNode(pod.Namespace, pod.Name, nodeName, pod.Spec.Tolerations, taints, now)
	}
}

// podRef is the object eviction events are about: the pod by name.
func podRef(namespace, name string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace},
	}
}

// deletePod records the eviction, then marks the pod with the
// DisruptionTarget condition and deletes it (with its own grace period).
func (tc *Controller) deletePod(key string) error {
	ns, name := client.SplitKey(key)
	tc.recorder.Eventf(podRef(ns, name), "Normal", "TaintManagerEviction", "Marking for deletion Pod %s/%s", ns, name)
	var err error
	for i := 0; i < retries; i++ {
		if err = tc.addConditionAndDeletePod(ns, name); err == nil || apierrors.IsNotFound(err) {
			return err
		}
	}
	return err
}

func (tc *Controller) addConditionAndDeletePod(ns, name string) error {
	pod, err := client.Get[*api.Pod](tc.client, ns, name)
	if err != nil {
		return err
	}
	pod = pod.DeepCopy()
	if api.UpdatePodCondition(&pod.Status, &api.PodCondition{
		Type:    api.DisruptionTarget,
		Status:  api.ConditionTrue,
		Reason:  "DeletionByTaintManager",
		Message: "Taint manager: deleting due to NoExecute taint",
	}, api.NewTime(tc.clock.Now())) {
		if _, err := client.UpdateStatus(tc.client, pod); err != nil {
			return err
		}
	}
	return client.Delete[*api.Pod](tc.client, ns, name, api.DeleteOptions{})
}
