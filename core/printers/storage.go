package printers

import (
	"time"

	"kubeplay/core/api"
)

// Columns of PersistentVolumes, claims and StorageClasses.

var persistentVolumeHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Capacity"},
		{Name: "Access Modes"},
		{Name: "Reclaim Policy"},
		{Name: "Status"},
		{Name: "Claim"},
		{Name: "StorageClass"},
		{Name: "VolumeAttributesClass"},
		{Name: "Reason"},
		{Name: "Age"},
		{Name: "VolumeMode", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		pv, ok := obj.(*api.PersistentVolume)
		if !ok {
			return nil, false
		}
		claim := ""
		if ref := pv.Spec.ClaimRef; ref != nil {
			claim = ref.Namespace + "/" + ref.Name
		}
		phase := pv.Status.Phase
		if pv.DeletionTimestamp != nil {
			phase = "Terminating"
		}
		return []string{
			pv.Name,
			quantity(pv.Spec.Capacity[api.ResourceStorage]),
			accessModes(pv.Spec.AccessModes),
			pv.Spec.PersistentVolumeReclaimPolicy,
			phase,
			claim,
			volumeClass(pv),
			unsetOr(pv.Spec.VolumeAttributesClassName),
			pv.Status.Reason,
			Age(pv.CreationTimestamp, now),
			unsetOr(pv.Spec.VolumeMode),
		}, true
	},
}

var persistentVolumeClaimHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Status"},
		{Name: "Volume"},
		{Name: "Capacity"},
		{Name: "Access Modes"},
		{Name: "StorageClass"},
		{Name: "VolumeAttributesClass"},
		{Name: "Age"},
		{Name: "VolumeMode", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		pvc, ok := obj.(*api.PersistentVolumeClaim)
		if !ok {
			return nil, false
		}
		phase := pvc.Status.Phase
		if pvc.DeletionTimestamp != nil {
			phase = "Terminating"
		}
		// Capacity and access modes are the bound volume's, shown once the
		// claim names one.
		capacity, modes := "", ""
		if pvc.Spec.VolumeName != "" {
			modes = accessModes(pvc.Status.AccessModes)
			capacity = quantity(pvc.Status.Capacity[api.ResourceStorage])
		}
		return []string{
			pvc.Name,
			phase,
			pvc.Spec.VolumeName,
			capacity,
			modes,
			claimClass(pvc),
			unsetOr(pvc.Spec.VolumeAttributesClassName),
			Age(pvc.CreationTimestamp, now),
			unsetOr(pvc.Spec.VolumeMode),
		}, true
	},
}

// volumeClass is GetPersistentVolumeClass: the beta annotation wins over
// spec.storageClassName.
func volumeClass(pv *api.PersistentVolume) string {
	if c, ok := pv.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	return pv.Spec.StorageClassName
}

// claimClass is GetPersistentVolumeClaimClass.
func claimClass(pvc *api.PersistentVolumeClaim) string {
	if c, ok := pvc.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	if pvc.Spec.StorageClassName != nil {
		return *pvc.Spec.StorageClassName
	}
	return ""
}

// unsetOr dereferences an optional string, "<unset>" when absent.
func unsetOr(s *string) string {
	if s == nil {
		return "<unset>"
	}
	return *s
}

var storageClassHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Provisioner"},
		{Name: "ReclaimPolicy"},
		{Name: "VolumeBindingMode"},
		{Name: "AllowVolumeExpansion"},
		{Name: "Age"},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		sc, ok := obj.(*api.StorageClass)
		if !ok {
			return nil, false
		}
		name := sc.Name
		if sc.Annotations[api.IsDefaultStorageClassAnnotation] == "true" ||
			sc.Annotations[api.BetaIsDefaultStorageClassAnnotation] == "true" {
			name += " (default)"
		}
		reclaim := api.PersistentVolumeReclaimDelete
		if sc.ReclaimPolicy != nil {
			reclaim = *sc.ReclaimPolicy
		}
		binding := api.VolumeBindingImmediate
		if sc.VolumeBindingMode != nil {
			binding = *sc.VolumeBindingMode
		}
		expand := sc.AllowVolumeExpansion != nil && *sc.AllowVolumeExpansion
		return []string{name, sc.Provisioner, reclaim, binding, boolString(expand), Age(sc.CreationTimestamp, now)}, true
	},
}
