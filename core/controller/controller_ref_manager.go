package controller

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
)

// PodControllerRefManager adopts and releases pods for one controller
// object: an orphan that matches the selector is adopted (unless the
// controller is being deleted), an owned pod that stopped matching is
// released, pods owned by others are left alone.
type PodControllerRefManager struct {
	Client     client.Interface
	Controller api.Object
	Selector   labels.Selector
	// CanAdopt re-checks, with a fresh read, that the controller still
	// exists with the same uid before the first adoption.
	CanAdopt func() error
	adoptErr error
	checked  bool
}

// ClaimPods returns the pods the controller owns after adoption and release.
func (m *PodControllerRefManager) ClaimPods(pods []*api.Pod) ([]*api.Pod, error) {
	var claimed []*api.Pod
	var errs []error
	cm := m.Controller.GetObjectMeta()
	for _, pod := range pods {
		ref := pod.GetControllerOf()
		match := m.Selector.Matches(labels.Set(pod.Labels))
		if ref != nil {
			if ref.UID != cm.UID {
				continue
			}
			if match {
				claimed = append(claimed, pod)
				continue
			}
			if cm.DeletionTimestamp != nil {
				continue
			}
			if err := m.release(pod); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if !match || cm.DeletionTimestamp != nil || pod.DeletionTimestamp != nil {
			continue
		}
		if !m.checked {
			m.checked = true
			if m.CanAdopt != nil {
				m.adoptErr = m.CanAdopt()
			}
		}
		if m.adoptErr != nil {
			continue
		}
		adopted, err := m.adopt(pod)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if adopted != nil {
			claimed = append(claimed, adopted)
		}
	}
	if len(errs) > 0 {
		return claimed, errs[0]
	}
	return claimed, nil
}

func (m *PodControllerRefManager) adopt(pod *api.Pod) (*api.Pod, error) {
	p := pod.DeepCopy()
	p.OwnerReferences = append(p.OwnerReferences, *NewControllerRef(m.Controller))
	return client.Update(m.Client, p)
}

func (m *PodControllerRefManager) release(pod *api.Pod) error {
	p := pod.DeepCopy()
	uid := m.Controller.GetObjectMeta().UID
	refs := p.OwnerReferences[:0]
	for _, r := range p.OwnerReferences {
		if r.UID != uid {
			refs = append(refs, r)
		}
	}
	p.OwnerReferences = refs
	_, err := client.Update(m.Client, p)
	return err
}

// RecheckDeletionTimestamp is the usual CanAdopt: read the controller
// afresh and refuse adoption when it is gone, replaced or being deleted.
func RecheckDeletionTimestamp(get func() (api.Object, error), uid string) func() error {
	return func() error {
		fresh, err := get()
		if err != nil {
			return err
		}
		m := fresh.GetObjectMeta()
		if m.UID != uid {
			return errOriginalGone
		}
		if m.DeletionTimestamp != nil {
			return errBeingDeleted
		}
		return nil
	}
}

type adoptError string

func (e adoptError) Error() string { return string(e) }

const (
	errOriginalGone adoptError = "original object is gone: got uid mismatch"
	errBeingDeleted adoptError = "object has been deleted or is being deleted"
)
