package defaults

import "kubeplay/core/api"

func defaultPersistentVolume(pv *api.PersistentVolume) {
	if pv.Status.Phase == "" {
		pv.Status.Phase = api.VolumePending
	}
	if pv.Spec.PersistentVolumeReclaimPolicy == "" {
		pv.Spec.PersistentVolumeReclaimPolicy = api.PersistentVolumeReclaimRetain
	}
	if pv.Spec.VolumeMode == nil {
		pv.Spec.VolumeMode = ptr(api.PersistentVolumeFilesystem)
	}
	roundResourceList(pv.Spec.Capacity)
	if hp := pv.Spec.HostPath; hp != nil && hp.Type == nil {
		hp.Type = ptr(api.HostPathUnset)
	}
}

// defaultPersistentVolumeClaim also serves StatefulSet volumeClaimTemplates,
// which is why those print status.phase Pending.
func defaultPersistentVolumeClaim(pvc *api.PersistentVolumeClaim) {
	if pvc.Status.Phase == "" {
		pvc.Status.Phase = api.ClaimPending
	}
	defaultPVCSpec(&pvc.Spec)
	roundResourceList(pvc.Status.Capacity)
	roundResourceList(pvc.Status.AllocatedResources)
}

func defaultPVCSpec(spec *api.PersistentVolumeClaimSpec) {
	if spec.VolumeMode == nil {
		spec.VolumeMode = ptr(api.PersistentVolumeFilesystem)
	}
	roundResourceList(spec.Resources.Limits)
	roundResourceList(spec.Resources.Requests)
}

func defaultStorageClass(sc *api.StorageClass) {
	if sc.ReclaimPolicy == nil {
		sc.ReclaimPolicy = ptr(api.PersistentVolumeReclaimDelete)
	}
	if sc.VolumeBindingMode == nil {
		sc.VolumeBindingMode = ptr(api.VolumeBindingImmediate)
	}
}
