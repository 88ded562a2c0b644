// Package garbagecollector is the garbage collector of
// kube-controller-manager: it deletes objects whose owners are gone,
// orphans dependents when asked (the "orphan" finalizer) and deletes
// dependents first in foreground deletion (the "foregroundDeletion"
// finalizer), following ownerReferences.
package garbagecollector

import (
	"maps"
	"slices"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// GarbageCollector watches every deletable resource and collects garbage.
type GarbageCollector struct {
	client          client.Interface
	graph           *graphBuilder
	attemptToDelete *workqueue.Queue[string]
	attemptToOrphan *workqueue.Queue[string]
}

// ignored resources never carry owner references worth following.
var ignored = map[string]bool{"events": true, "bindings": true, "componentstatuses": true}

// NewGarbageCollector builds the collector and its monitors.
func NewGarbageCollector(ctx *controller.Context) *GarbageCollector {
	gc := &GarbageCollector{client: ctx.Client("generic-garbage-collector")}
	gc.attemptToDelete = workqueue.New[string]("garbage_collector_attempt_to_delete", ctx.Clock, nil)
	gc.attemptToOrphan = workqueue.New[string]("garbage_collector_attempt_to_orphan", ctx.Clock, nil)
	gc.graph = newGraphBuilder(gc.attemptToDelete.Add, gc.attemptToOrphan.Add)
	for _, res := range gc.client.Registry().All() {
		if ignored[res.Name] || !hasVerb(res, "delete") || !hasVerb(res, "watch") {
			continue
		}
		res := res
		ctx.Informers.For(res).AddHandler(client.Handler{
			OnAdd:    func(o api.Object) { gc.graph.observe(res, o) },
			OnUpdate: func(_, o api.Object) { gc.graph.observe(res, o) },
			OnDelete: gc.graph.forget,
		})
	}
	return gc
}

func hasVerb(res *apiserver.Resource, verb string) bool {
	for _, v := range res.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}

// Name implements controller.Worker.
func (gc *GarbageCollector) Name() string { return "garbage-collector/attemptToDeleteItem" }

// ProcessNextWorkItem implements controller.Worker: orphaning first, then deletion.
func (gc *GarbageCollector) ProcessNextWorkItem() bool {
	if uid, ok := gc.attemptToOrphan.Get(); ok {
		gc.finish(gc.attemptToOrphan, uid, gc.orphanDependents(uid))
		return true
	}
	if uid, ok := gc.attemptToDelete.Get(); ok {
		gc.finish(gc.attemptToDelete, uid, gc.attemptToDeleteItem(uid))
		return true
	}
	return false
}

func (gc *GarbageCollector) finish(q *workqueue.Queue[string], uid string, err error) {
	defer q.Done(uid)
	if err != nil {
		q.AddRateLimited(uid)
		return
	}
	q.Forget(uid)
}

// lookup reads the object a reference names; it is absent when missing or
// when a different object (another uid) now has its name.
func (gc *GarbageCollector) lookup(ref objectRef) (*apiserver.Resource, api.Object, bool) {
	res, ok := gc.client.Registry().ForKind(ref.APIVersion, ref.Kind)
	if !ok {
		return nil, nil, false
	}
	ns := ref.Namespace
	if !res.Namespaced {
		ns = ""
	}
	o, err := gc.client.Get(res, ns, ref.Name)
	if err != nil || o.GetObjectMeta().UID != ref.UID {
		return res, nil, false
	}
	return res, o, true
}

// attemptToDeleteItem decides the fate of one object: delete it when all
// its owners are gone (in the foreground if an owner waits for it), strip
// references to owners that are gone when a live owner remains, and finish
// a foreground deletion once no blocking dependents are left.
func (gc *GarbageCollector) attemptToDeleteItem(uid string) error {
	n := gc.graph.uidToNode[uid]
	if n == nil {
		return nil
	}
	res, obj, ok := gc.lookup(n.identity)
	if !ok {
		if n.virtual {
			// The owner really is gone: its dependents are garbage.
			delete(gc.graph.uidToNode, uid)
			for _, d := range slices.Sorted(maps.Keys(n.dependents)) {
				gc.attemptToDelete.Add(d)
			}
		}
		return nil
	}
	if n.virtual {
		return nil // the owner exists; the informer will make the node real
	}
	m := obj.GetObjectMeta()
	if m.DeletionTimestamp != nil && !m.HasFinalizer(api.FinalizerDeleteDependents) {
		return nil
	}
	if m.DeletionTimestamp != nil {
		return gc.processDeletingDependentsItem(res, obj, n)
	}
	if len(m.OwnerReferences) == 0 {
		return nil
	}
	var solid, dangling, waiting []api.OwnerReference
	for _, r := range m.OwnerReferences {
		_, owner, exists := gc.lookup(objectRef{OwnerReference: r, Namespace: m.Namespace})
		switch {
		case !exists:
			dangling = append(dangling, r)
		case owner.GetObjectMeta().DeletionTimestamp != nil && owner.GetObjectMeta().HasFinalizer(api.FinalizerDeleteDependents):
			waiting = append(waiting, r)
		default:
			solid = append(solid, r)
		}
	}
	switch {
	case len(solid) > 0:
		if len(dangling)+len(waiting) == 0 {
			return nil
		}
		return gc.removeOwnerReferences(res, obj, append(dangling, waiting...))
	case len(waiting) > 0 && len(n.dependents) > 0:
		// An owner waits on this object, and it has dependents of its own:
		// delete it in the foreground so they go first.
		return gc.deleteObject(res, obj, api.DeletePropagationForeground)
	default:
		policy := api.DeletePropagationBackground
		if m.HasFinalizer(api.FinalizerOrphanDependents) {
			policy = api.DeletePropagationOrphan
		}
		return gc.deleteObject(res, obj, policy)
	}
}

// processDeletingDependentsItem removes the foregroundDeletion finalizer
// once nothing blocks the owner; until then it makes sure the blocking
// dependents are being deleted.
func (gc *GarbageCollector) processDeletingDependentsItem(res *apiserver.Resource, obj api.Object, n *node) error {
	blocking := n.blockingDependents()
	if len(blocking) == 0 {
		return gc.removeFinalizer(res, obj, api.FinalizerDeleteDependents)
	}
	for _, d := range blocking {
		if !d.beingDeleted {
			gc.attemptToDelete.Add(d.identity.UID)
		}
	}
	return nil
}

// orphanDependents removes the owner's references from its dependents,
// then the owner's "orphan" finalizer.
func (gc *GarbageCollector) orphanDependents(uid string) error {
	n := gc.graph.uidToNode[uid]
	if n == nil {
		return nil
	}
	res, owner, ok := gc.lookup(n.identity)
	if !ok || !owner.GetObjectMeta().HasFinalizer(api.FinalizerOrphanDependents) {
		return nil
	}
	for _, d := range slices.Sorted(maps.Keys(n.dependents)) {
		dn := n.dependents[d]
		dres, dep, ok := gc.lookup(dn.identity)
		if !ok {
			continue
		}
		if err := gc.removeOwnerReferences(dres, dep, []api.OwnerReference{{UID: uid}}); err != nil {
			return err
		}
	}
	return gc.removeFinalizer(res, owner, api.FinalizerOrphanDependents)
}

func (gc *GarbageCollector) removeOwnerReferences(res *apiserver.Resource, obj api.Object, drop []api.OwnerReference) error {
	cp := obj.DeepCopyObject()
	m := cp.GetObjectMeta()
	var keep []api.OwnerReference
	for _, r := range m.OwnerReferences {
		gone := false
		for _, d := range drop {
			if d.UID == r.UID {
				gone = true
			}
		}
		if !gone {
			keep = append(keep, r)
		}
	}
	m.OwnerReferences = keep
	_, err := gc.client.Update(res, m.Namespace, cp, apiserver.UpdateOptions{})
	return ignoreNotFound(err)
}

func (gc *GarbageCollector) removeFinalizer(res *apiserver.Resource, obj api.Object, finalizer string) error {
	cp := obj.DeepCopyObject()
	m := cp.GetObjectMeta()
	var keep []string
	for _, f := range m.Finalizers {
		if f != finalizer {
			keep = append(keep, f)
		}
	}
	m.Finalizers = keep
	_, err := gc.client.Update(res, m.Namespace, cp, apiserver.UpdateOptions{})
	return ignoreNotFound(err)
}

func (gc *GarbageCollector) deleteObject(res *apiserver.Resource, obj api.Object, policy string) error {
	m := obj.GetObjectMeta()
	uid := m.UID
	_, err := gc.client.Delete(res, m.Namespace, m.Name, api.DeleteOptions{
		PropagationPolicy: &policy,
		Preconditions:     &api.Preconditions{UID: &uid},
	})
	return ignoreNotFound(err)
}

func ignoreNotFound(err error) error {
	if err != nil && apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
