package garbagecollector

import (
	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"maps"
	"slices"
)

// objectRef identifies a graph node: an owner reference plus the namespace.
type objectRef struct {
	api.OwnerReference
	Namespace string
}

// node is one object in the ownership graph. A virtual node stands for an
// owner that some dependent names but the graph has not seen (yet).
type node struct {
	identity objectRef
	owners   []api.OwnerReference
	// dependents are keyed by uid so iteration can be sorted.
	dependents map[string]*node
	// beingDeleted: the object has a deletionTimestamp.
	beingDeleted bool
	// deletingDependents: it is being deleted in the foreground.
	deletingDependents bool
	virtual            bool
}

// blockingDependents are the dependents whose reference to n blocks n's
// foreground deletion.
func (n *node) blockingDependents() []*node {
	var out []*node
	for _, uid := range slices.Sorted(maps.Keys(n.dependents)) {
		d := n.dependents[uid]
		for _, r := range d.owners {
			if r.UID == n.identity.UID && r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
				out = append(out, d)
			}
		}
	}
	return out
}

// graphBuilder keeps the ownership graph in step with the informers, and
// hands the garbage collector the nodes it must look at.
type graphBuilder struct {
	uidToNode       map[string]*node
	attemptToDelete func(uid string)
	attemptToOrphan func(uid string)
}

func newGraphBuilder(del, orphan func(string)) *graphBuilder {
	return &graphBuilder{uidToNode: map[string]*node{}, attemptToDelete: del, attemptToOrphan: orphan}
}

func identityOf(res *apiserver.Resource, o api.Object) objectRef {
	m := o.GetObjectMeta()
	return objectRef{OwnerReference: api.OwnerReference{APIVersion: res.APIVersion(), Kind: res.Kind, Name: m.Name, UID: m.UID}, Namespace: m.Namespace}
}

// observe is the informer handler for adds and updates.
func (gb *graphBuilder) observe(res *apiserver.Resource, o api.Object) {
	m := o.GetObjectMeta()
	n, exists := gb.uidToNode[m.UID]
	if !exists {
		n = &node{identity: identityOf(res, o), dependents: map[string]*node{}}
		gb.uidToNode[m.UID] = n
	} else if n.virtual {
		n.virtual = false
		n.identity = identityOf(res, o)
	}
	if !exists || !gb.linkedTo(n, m.OwnerReferences) {
		gb.setOwners(n, m.OwnerReferences)
	}
	n.beingDeleted = m.DeletionTimestamp != nil
	wasDeletingDependents := n.deletingDependents
	n.deletingDependents = n.beingDeleted && m.HasFinalizer(api.FinalizerDeleteDependents)
	if n.deletingDependents && !wasDeletingDependents {
		// Foreground deletion starts: the dependents go first.
		for _, uid := range slices.Sorted(maps.Keys(n.dependents)) {
			gb.attemptToDelete(uid)
		}
		gb.attemptToDelete(m.UID)
	} else if n.deletingDependents {
		gb.attemptToDelete(m.UID)
	}
	if n.beingDeleted && m.HasFinalizer(api.FinalizerOrphanDependents) {
		gb.attemptToOrphan(m.UID)
	}
}

// linkedTo reports whether n is already linked under exactly these owners,
// each a node the graph has seen: relinking would change nothing. Most
// updates (a pod's status) leave the owner references as they were, and
// upstream's graph builder acts only on references that differ.
func (gb *graphBuilder) linkedTo(n *node, owners []api.OwnerReference) bool {
	if len(n.owners) != len(owners) {
		return false
	}
	for i, r := range owners {
		if !sameOwnerReference(n.owners[i], r) {
			return false
		}
		if o := gb.uidToNode[r.UID]; o == nil || o.virtual {
			return false
		}
	}
	return true
}

func sameOwnerReference(a, b api.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		sameBool(a.Controller, b.Controller) && sameBool(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// setOwners relinks n under its current owners, creating virtual nodes for
// owners not seen yet and asking the collector to check on them.
func (gb *graphBuilder) setOwners(n *node, owners []api.OwnerReference) {
	for _, r := range n.owners {
		if o := gb.uidToNode[r.UID]; o != nil {
			delete(o.dependents, n.identity.UID)
		}
	}
	n.owners = append([]api.OwnerReference(nil), owners...)
	hasDangling := false
	for _, r := range owners {
		o := gb.uidToNode[r.UID]
		if o == nil {
			o = &node{identity: objectRef{OwnerReference: r, Namespace: n.identity.Namespace}, dependents: map[string]*node{}, virtual: true}
			gb.uidToNode[r.UID] = o
			gb.attemptToDelete(r.UID)
		}
		if o.virtual {
			hasDangling = true
		}
		o.dependents[n.identity.UID] = n
	}
	if hasDangling {
		gb.attemptToDelete(n.identity.UID)
	}
}

// forget is the informer handler for deletes: the dependents may now be
// garbage, and foreground owners may now be free to go.
func (gb *graphBuilder) forget(o api.Object) {
	uid := o.GetObjectMeta().UID
	n := gb.uidToNode[uid]
	if n == nil {
		return
	}
	delete(gb.uidToNode, uid)
	for _, r := range n.owners {
		if owner := gb.uidToNode[r.UID]; owner != nil {
			delete(owner.dependents, uid)
			if owner.deletingDependents {
				gb.attemptToDelete(owner.identity.UID)
			}
		}
	}
	if len(n.dependents) > 0 {
		// Keep a virtual node so the dependents can find out their owner is gone.
		v := &node{identity: n.identity, dependents: n.dependents, virtual: true}
		gb.uidToNode[uid] = v
		for _, d := range slices.Sorted(maps.Keys(n.dependents)) {
			gb.attemptToDelete(d)
		}
	}
}
