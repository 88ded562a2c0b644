package apiserver

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
)

// DeleteResult says what a delete did: the object is gone, or it is now
// terminating (a grace period runs or finalizers remain).
type DeleteResult struct {
	Object api.Object
	// Gone is true when the object left the store.
	Gone bool
}

// Delete deletes an object as the real apiserver does: orphan and
// foreground propagation become finalizers; an object with finalizers, or
// a scheduled pod with a grace period, only gets a deletionTimestamp.
func (s *Server) Delete(res *Resource, namespace, name string, opts api.DeleteOptions) (DeleteResult, error) {
	if !res.Namespaced {
		namespace = ""
	}
	old, ok := s.storeFor(res).get(namespace, name)
	if !ok {
		return DeleteResult{}, apierrors.NewNotFound(gr(res), name)
	}
	om := old.GetObjectMeta()
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != om.UID {
			return DeleteResult{}, apierrors.NewConflict(gr(res), name, preconditionError("UID", *p.UID, om.UID))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != om.ResourceVersion {
			return DeleteResult{}, apierrors.NewConflict(gr(res), name, preconditionError("ResourceVersion", *p.ResourceVersion, om.ResourceVersion))
		}
	}
	if err := s.admitDelete(res, old); err != nil {
		return DeleteResult{}, err
	}
	// The new version differs from old in metadata alone (and a
	// namespace's phase), each set to a fresh value below.
	obj := shallowCopy(old)
	m := obj.GetObjectMeta()
	grace := gracePeriod(res, old, opts)
	finalizers := propagationFinalizers(m.Finalizers, opts)
	if len(opts.DryRun) > 0 {
		return DeleteResult{Object: obj, Gone: len(finalizers) == 0 && grace == 0}, nil
	}

	if m.DeletionTimestamp != nil {
		// Already terminating: a shorter grace period may hurry it along;
		// nothing else changes.
		cur := int64(0)
		if m.DeletionGracePeriodSeconds != nil {
			cur = *m.DeletionGracePeriodSeconds
		}
		if grace < cur {
			m.DeletionGracePeriodSeconds = api.Int64(grace)
			ts := api.NewTime(s.clock.Now().Add(durationSeconds(grace)))
			m.DeletionTimestamp = &ts
			m.Finalizers = finalizers
			if grace == 0 && len(m.Finalizers) == 0 {
				s.commit(res, WatchEvent{Type: Deleted, Object: obj, Old: old})
				return DeleteResult{Object: obj, Gone: true}, nil
			}
			s.commit(res, WatchEvent{Type: Modified, Object: obj, Old: old})
		}
		return DeleteResult{Object: obj}, nil
	}

	if len(finalizers) == 0 && grace == 0 && !specFinalizersRemain(old) {
		s.commit(res, WatchEvent{Type: Deleted, Object: obj, Old: old})
		return DeleteResult{Object: obj, Gone: true}, nil
	}
	m.Finalizers = finalizers
	ts := api.NewTime(s.clock.Now().Add(durationSeconds(grace)))
	m.DeletionTimestamp = &ts
	m.DeletionGracePeriodSeconds = api.Int64(grace)
	if m.Generation > 0 {
		m.Generation++
	}
	beginTermination(res, obj)
	s.commit(res, WatchEvent{Type: Modified, Object: obj, Old: old})
	return DeleteResult{Object: obj}, nil
}

// propagationFinalizers adds or removes the orphan and foregroundDeletion
// finalizers the delete options ask for.
func propagationFinalizers(current []string, opts api.DeleteOptions) []string {
	policy := ""
	switch {
	case opts.PropagationPolicy != nil:
		policy = *opts.PropagationPolicy
	case opts.OrphanDependents != nil && *opts.OrphanDependents:
		policy = api.DeletePropagationOrphan
	case opts.OrphanDependents != nil:
		policy = api.DeletePropagationBackground
	}
	var out []string
	for _, f := range current {
		if policy != "" && (f == api.FinalizerOrphanDependents || f == api.FinalizerDeleteDependents) {
			continue
		}
		out = append(out, f)
	}
	switch policy {
	case api.DeletePropagationOrphan:
		out = append(out, api.FinalizerOrphanDependents)
	case api.DeletePropagationForeground:
		out = append(out, api.FinalizerDeleteDependents)
	}
	return out
}

func preconditionError(what, want, got string) error {
	return preconditionErr("Precondition failed: " + what + " in precondition: " + want + ", " + what + " in object meta: " + got)
}

type preconditionErr string

func (e preconditionErr) Error() string { return string(e) }
