package history

import (
	"bytes"
	"fmt"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// History reads revisions from the informer's cache and writes them
// through the client, as upstream's realHistory does with its lister.
type History struct {
	Client   client.Interface
	Informer *client.Informer // ControllerRevisions
}

// ListControllerRevisions lists the revisions in parent's namespace that
// match selector and are owned by parent or by no controller, in key order.
func (h *History) ListControllerRevisions(parent api.Object, selector labels.Selector) []*api.ControllerRevision {
	pm := parent.GetObjectMeta()
	var out []*api.ControllerRevision
	for _, o := range h.Informer.List(pm.Namespace) {
		cr := o.(*api.ControllerRevision)
		if !selector.Matches(labels.Set(cr.Labels)) {
			continue
		}
		if ref := cr.GetControllerOf(); ref == nil || ref.UID == pm.UID {
			out = append(out, cr)
		}
	}
	return out
}

// CreateControllerRevision creates rev for parent, renaming it with the
// next hash whenever its name is taken by different data; collisionCount
// counts those clashes and must not be nil. A revision already stored with
// the same data is returned as it is.
func (h *History) CreateControllerRevision(parent api.Object, rev *api.ControllerRevision, collisionCount *int32) (*api.ControllerRevision, error) {
	if collisionCount == nil {
		return nil, errNilCollisionCount
	}
	pm := parent.GetObjectMeta()
	clone := rev.DeepCopy()
	clone.Namespace = pm.Namespace
	// A clash per attempt at most; the bound only guards against a store
	// that keeps answering AlreadyExists.
	for attempt := 0; attempt < 1000; attempt++ {
		hash := HashControllerRevision(rev, collisionCount)
		clone.Name = ControllerRevisionName(pm.Name, hash)
		created, err := client.Create(h.Client, clone)
		if !apierrors.IsAlreadyExists(err) {
			return created, err
		}
		exists, getErr := client.Get[*api.ControllerRevision](h.Client, clone.Namespace, clone.Name)
		if getErr != nil {
			return nil, getErr
		}
		if bytes.Equal(exists.Data.Raw, clone.Data.Raw) {
			return exists, nil
		}
		*collisionCount++
	}
	return nil, fmt.Errorf("could not find a free name for a revision of %s", pm.Name)
}

// UpdateControllerRevision sets rev's Revision to newRevision.
func (h *History) UpdateControllerRevision(rev *api.ControllerRevision, newRevision int64) (*api.ControllerRevision, error) {
	if rev.Revision == newRevision {
		return rev, nil
	}
	clone := rev.DeepCopy()
	clone.Revision = newRevision
	updated, err := client.Update(h.Client, clone)
	if apierrors.IsConflict(err) {
		// Retry once on a fresh copy, as upstream's RetryOnConflict would.
		fresh, getErr := client.Get[*api.ControllerRevision](h.Client, rev.Namespace, rev.Name)
		if getErr != nil {
			return nil, getErr
		}
		clone = fresh.DeepCopy()
		clone.Revision = newRevision
		updated, err = client.Update(h.Client, clone)
	}
	return updated, err
}

// DeleteControllerRevision deletes rev.
func (h *History) DeleteControllerRevision(rev *api.ControllerRevision) error {
	return client.Delete[*api.ControllerRevision](h.Client, rev.Namespace, rev.Name, api.DeleteOptions{})
}

// AdoptControllerRevision makes parent (of kind gvk) the controller of an
// orphaned rev.
func (h *History) AdoptControllerRevision(parent api.Object, gvk api.GroupVersionKind, rev *api.ControllerRevision) (*api.ControllerRevision, error) {
	if owner := rev.GetControllerOf(); owner != nil {
		return nil, fmt.Errorf("attempt to adopt revision owned by %v", *owner)
	}
	clone := rev.DeepCopy()
	clone.OwnerReferences = append(clone.OwnerReferences, ControllerRef(parent, gvk))
	return client.Update(h.Client, clone)
}

// ReleaseControllerRevision removes parent's owner reference from rev; a
// revision already gone is not an error.
func (h *History) ReleaseControllerRevision(parent api.Object, rev *api.ControllerRevision) (*api.ControllerRevision, error) {
	uid := parent.GetObjectMeta().UID
	clone := rev.DeepCopy()
	refs := clone.OwnerReferences[:0]
	for _, r := range clone.OwnerReferences {
		if r.UID != uid {
			refs = append(refs, r)
		}
	}
	clone.OwnerReferences = refs
	released, err := client.Update(h.Client, clone)
	if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil, nil
	}
	return released, err
}
