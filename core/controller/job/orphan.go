package job

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
)

// syncOrphanPod removes the tracking finalizer from a pod no running job
// will count any more (its job is gone or finished, or it was released),
// so the pod is not stuck when it is deleted.
func (jm *Controller) syncOrphanPod(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := jm.podInf.Get(ns, name)
	if !ok {
		return nil
	}
	pod := o.(*api.Pod)
	if ref := pod.GetControllerOf(); ref != nil {
		if ref.Kind != "Job" || ref.APIVersion != "batch/v1" {
			return nil // someone else's pod
		}
		j := jm.resolveControllerRef(pod.Namespace, ref)
		if j != nil && managedByExternalController(j) {
			return nil
		}
		if j != nil && !IsJobFinished(j) {
			return nil // adopted: syncJob counts it
		}
	}
	if err := jm.removeTrackingFinalizer(pod); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}
