package statefulset

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
)

// statusUpdater writes a StatefulSet's status subresource.
type statusUpdater struct {
	client client.Interface
	setInf *client.Informer
}

// UpdateStatefulSetStatus sets set's status; on a conflict it retries once
// on the cached copy, as RetryOnConflict with the lister would.
func (u *statusUpdater) UpdateStatefulSetStatus(set *api.StatefulSet, status *api.StatefulSetStatus) error {
	var err error
	for try := 0; try < 2; try++ {
		set.Status = *status.DeepCopy()
		if _, err = client.UpdateStatus(u.client, set); err == nil || !apierrors.IsConflict(err) {
			return err
		}
		o, ok := u.setInf.Get(set.Namespace, set.Name)
		if !ok {
			return err
		}
		set = o.(*api.StatefulSet).DeepCopy()
	}
	return err
}
