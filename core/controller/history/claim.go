package history

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// ClaimControllerRevisions returns the revisions parent controls after
// adopting matching orphans and releasing owned revisions that no longer
// match, as upstream's ControllerRevisionControllerRefManager does.
// canAdopt re-checks parent with a fresh read before the first adoption.
func (h *History) ClaimControllerRevisions(parent api.Object, gvk api.GroupVersionKind, selector labels.Selector, canAdopt func() error, revs []*api.ControllerRevision) ([]*api.ControllerRevision, error) {
	pm := parent.GetObjectMeta()
	var claimed []*api.ControllerRevision
	var firstErr error
	keep := func(err error) {
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	checked := false
	var adoptErr error
	for _, rev := range revs {
		match := selector.Matches(labels.Set(rev.Labels))
		ref := rev.GetControllerOf()
		switch {
		case ref != nil && ref.UID != pm.UID:
			// Someone else's.
		case ref != nil && match:
			claimed = append(claimed, rev)
		case ref != nil:
			if pm.DeletionTimestamp == nil {
				_, err := h.ReleaseControllerRevision(parent, rev)
				keep(err)
			}
		case match && pm.DeletionTimestamp == nil && rev.DeletionTimestamp == nil:
			if !checked {
				checked = true
				if canAdopt != nil {
					adoptErr = canAdopt()
				}
			}
			if adoptErr != nil {
				keep(adoptErr)
				continue
			}
			adopted, err := h.AdoptControllerRevision(parent, gvk, rev)
			keep(err)
			if err == nil {
				claimed = append(claimed, adopted)
			}
		}
	}
	return claimed, firstErr
}
