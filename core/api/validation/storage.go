package validation

import (
	"maps"
	"path"
	"slices"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/resource"
)

var (
	supportedAccessModes = []string{api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOnce, api.ReadWriteOncePod}
	supportedVolumeModes = []string{api.PersistentVolumeBlock, api.PersistentVolumeFilesystem}
)

func validateAccessModes(modes []string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rwop, other := false, false
	for _, m := range modes {
		if !contains(supportedAccessModes, m) {
			errs = append(errs, field.NotSupported(fldPath, m, supportedAccessModes))
		}
		if m == api.ReadWriteOncePod {
			rwop = true
		} else if contains(supportedAccessModes, m) {
			other = true
		}
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(fldPath, "may not use ReadWriteOncePod with other access modes"))
	}
	return errs
}

func validatePositiveQuantity(v resource.Quantity, fldPath *field.Path) field.ErrorList {
	if v.Sign() <= 0 {
		return field.ErrorList{field.Invalid(fldPath, v.String(), isNotPositiveErrorMsg)}
	}
	return nil
}

// ValidatePersistentVolumeClaimSpec checks a claim's spec (also inside
// ephemeral volumes and StatefulSet claim templates).
func ValidatePersistentVolumeClaimSpec(spec *api.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(fldPath.Child("accessModes"), "at least 1 access mode is required"))
	}
	if spec.Selector != nil {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
	}
	errs = append(errs, validateAccessModes(spec.AccessModes, fldPath.Child("accessModes"))...)
	storagePath := fldPath.Child("resources").Key(api.ResourceStorage)
	if v, ok := spec.Resources.Requests[api.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storagePath, ""))
	} else if e := validatePositiveQuantity(v, storagePath); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, ValidateResourceQuantityValue(api.ResourceStorage, v, storagePath)...)
	}
	if sc := spec.StorageClassName; sc != nil && *sc != "" {
		for _, m := range NameIsDNSSubdomain(*sc, false) {
			errs = append(errs, field.Invalid(fldPath.Child("storageClassName"), *sc, m))
		}
	}
	if vm := spec.VolumeMode; vm != nil && !contains(supportedVolumeModes, *vm) {
		errs = append(errs, field.NotSupported(fldPath.Child("volumeMode"), *vm, supportedVolumeModes))
	}
	if ds := spec.DataSource; ds != nil {
		p := fldPath.Child("dataSource")
		errs = append(errs, validateDataSource(ds.Name, ds.Kind, ds.APIGroup, p)...)
	}
	if ds := spec.DataSourceRef; ds != nil {
		p := fldPath.Child("dataSourceRef")
		errs = append(errs, validateDataSource(ds.Name, ds.Kind, ds.APIGroup, p)...)
		if ds.Namespace != nil && *ds.Namespace != "" {
			for _, m := range NameIsDNSLabel(*ds.Namespace, false) {
				errs = append(errs, field.Invalid(p.Child("namespace"), *ds.Namespace, m))
			}
		}
	}
	if r := spec.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" {
		if spec.DataSource != nil {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource").String(), "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if d := spec.DataSource; d != nil && r != nil {
		if !api.SemanticEqual(d.APIGroup, r.APIGroup) || d.Kind != r.Kind || d.Name != r.Name {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource").String(), "must match dataSourceRef"))
		}
	}
	return errs
}

func validateDataSource(name, kind string, group *string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	if kind == "" {
		errs = append(errs, field.Required(fldPath.Child("kind"), ""))
	}
	g := ""
	if group != nil {
		g = *group
	}
	if g == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if g != "" {
		for _, m := range IsDNS1123Subdomain(g) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup"), g, m))
		}
	}
	return errs
}

// ValidatePersistentVolumeClaim checks a new claim.
func ValidatePersistentVolumeClaim(pvc *api.PersistentVolumeClaim) field.ErrorList {
	errs := ValidateObjectMeta(&pvc.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, ValidatePersistentVolumeClaimSpec(&pvc.Spec, field.NewPath("spec"))...)
}

// ValidatePersistentVolumeClaimUpdate checks an update: the spec is
// immutable except volumeName (once), storageClassName (once, from unset)
// and, for bound claims, the storage request.
func ValidatePersistentVolumeClaimUpdate(pvc, old *api.PersistentVolumeClaim) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&pvc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, ValidatePersistentVolumeClaim(pvc)...)
	newSpec := *pvc.Spec.DeepCopy()
	oldSpec := *old.Spec.DeepCopy()
	if old.Spec.VolumeName == "" {
		oldSpec.VolumeName = newSpec.VolumeName
	}
	oldAnn, hasOldAnn := old.Annotations[api.BetaStorageClassAnnotation]
	newAnn, hasNewAnn := pvc.Annotations[api.BetaStorageClassAnnotation]
	if hasOldAnn && old.Spec.StorageClassName == nil && newSpec.StorageClassName != nil && *newSpec.StorageClassName == oldAnn &&
		(!hasNewAnn || newAnn == oldAnn) {
		newSpec.StorageClassName = nil
	} else {
		if newAnn != oldAnn {
			errs = append(errs, field.Invalid(field.NewPath("metadata").Child("annotations").Child(api.BetaStorageClassAnnotation), newAnn, fieldImmutableErrorMsg))
		}
		if pvc.Spec.StorageClassName != nil && old.Spec.StorageClassName == nil && (!hasOldAnn || *pvc.Spec.StorageClassName == oldAnn) {
			newSpec.StorageClassName = oldSpec.StorageClassName
		}
	}
	if pvc.Status.Phase == api.ClaimBound && newSpec.Resources.Requests != nil {
		if v, ok := old.Spec.Resources.Requests[api.ResourceStorage]; ok {
			newSpec.Resources.Requests[api.ResourceStorage] = v
		} else {
			delete(newSpec.Resources.Requests, api.ResourceStorage)
		}
	}
	if pvc.Status.Phase == api.ClaimBound && newSpec.VolumeAttributesClassName != nil {
		newSpec.VolumeAttributesClassName = oldSpec.VolumeAttributesClassName
	}
	if !api.SemanticEqual(newSpec, oldSpec) {
		errs = append(errs, field.Forbidden(field.NewPath("spec"),
			"spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"+specDiff(oldSpec, newSpec)))
	}
	newSize := pvc.Spec.Resources.Requests[api.ResourceStorage]
	oldSize := old.Spec.Resources.Requests[api.ResourceStorage]
	statusSize := old.Status.Capacity[api.ResourceStorage]
	// RecoverVolumeExpansionFailure (beta, on in v1.32) lets a request shrink
	// back down to, but not below, the recorded capacity.
	if newSize.Cmp(oldSize) < 0 && newSize.Cmp(statusSize) <= 0 {
		errs = append(errs, field.Forbidden(field.NewPath("spec").Child("resources").Child("requests").Child("storage"), "field can not be less than status.capacity"))
	}
	return append(errs, ValidateImmutableField(pvc.Spec.VolumeMode, old.Spec.VolumeMode, field.NewPath("volumeMode"))...)
}

var supportedReclaimPolicies = []string{api.PersistentVolumeReclaimDelete, api.PersistentVolumeReclaimRecycle, api.PersistentVolumeReclaimRetain}

// ValidatePersistentVolume checks a PersistentVolume.
func ValidatePersistentVolume(pv *api.PersistentVolume) field.ErrorList {
	errs := ValidateObjectMeta(&pv.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	fldPath := field.NewPath("spec")
	spec := &pv.Spec
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(fldPath.Child("accessModes"), ""))
	}
	errs = append(errs, validateAccessModes(spec.AccessModes, fldPath.Child("accessModes"))...)
	capPath := fldPath.Child("capacity")
	if len(spec.Capacity) == 0 {
		errs = append(errs, field.Required(capPath, ""))
	}
	if _, ok := spec.Capacity[api.ResourceStorage]; !ok || len(spec.Capacity) > 1 {
		errs = append(errs, field.NotSupported(capPath, goValue{spec.Capacity}, []string{api.ResourceStorage}))
	}
	for _, r := range sortedResourceNames(spec.Capacity) {
		v := spec.Capacity[r]
		if v.Value() < 0 {
			errs = append(errs, field.Invalid(capPath.Key(r), v.Value(), "must be a valid resource quantity"))
		}
		errs = append(errs, validatePositiveQuantity(v, capPath.Key(r))...)
	}
	if p := spec.PersistentVolumeReclaimPolicy; p != "" && !contains(supportedReclaimPolicies, p) {
		errs = append(errs, field.NotSupported(fldPath.Child("persistentVolumeReclaimPolicy"), p, supportedReclaimPolicies))
	}
	nodeAffinity := false
	if na := spec.NodeAffinity; na != nil {
		nodeAffinity = true
		if na.Required != nil {
			errs = append(errs, ValidateNodeSelector(na.Required, fldPath.Child("nodeAffinity").Child("required"))...)
		} else {
			errs = append(errs, field.Required(fldPath.Child("nodeAffinity").Child("required"), "must specify required node constraints"))
		}
	}
	n := 0
	one := func(set bool, name string, check func() field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(fldPath.Child(name), "may not specify more than 1 volume type"))
			return
		}
		n++
		errs = append(errs, check()...)
	}
	one(spec.HostPath != nil, "hostPath", func() field.ErrorList { return validateHostPathVolumeSource(spec.HostPath, fldPath.Child("hostPath")) })
	one(spec.NFS != nil, "nfs", func() field.ErrorList { return validateNFSVolumeSource(spec.NFS, fldPath.Child("nfs")) })
	one(spec.Local != nil, "local", func() field.ErrorList {
		p := fldPath.Child("local")
		var el field.ErrorList
		if spec.Local.Path == "" {
			el = append(el, field.Required(p.Child("path"), ""))
		} else {
			el = append(el, validatePathNoBacksteps(spec.Local.Path, p.Child("path"))...)
		}
		if !nodeAffinity {
			el = append(el, field.Required(fldPath.Child("nodeAffinity"), "Local volume requires node affinity"))
		}
		return el
	})
	one(spec.CSI != nil, "csi", func() field.ErrorList {
		p := fldPath.Child("csi")
		el := validateCSIDriverName(spec.CSI.Driver, p.Child("driver"))
		if spec.CSI.VolumeHandle == "" {
			el = append(el, field.Required(p.Child("volumeHandle"), ""))
		}
		return el
	})
	if n == 0 {
		errs = append(errs, field.Required(fldPath, "must specify a volume type"))
	}
	if spec.HostPath != nil && path.Clean(spec.HostPath.Path) == "/" && spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimRecycle {
		errs = append(errs, field.Forbidden(fldPath.Child("persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'"))
	}
	if spec.StorageClassName != "" {
		for _, m := range NameIsDNSSubdomain(spec.StorageClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("storageClassName"), spec.StorageClassName, m))
		}
	}
	if vm := spec.VolumeMode; vm != nil && !contains(supportedVolumeModes, *vm) {
		errs = append(errs, field.NotSupported(fldPath.Child("volumeMode"), *vm, supportedVolumeModes))
	}
	return errs
}

// ValidatePersistentVolumeUpdate checks an update: the volume source,
// volume mode and node affinity are immutable.
func ValidatePersistentVolumeUpdate(pv, old *api.PersistentVolume) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&pv.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, ValidatePersistentVolume(pv)...)
	newSrc := pv.Spec.PersistentVolumeSource
	if old.Spec.CSI != nil && old.Spec.CSI.ControllerExpandSecretRef == nil && newSrc.CSI != nil && newSrc.CSI.ControllerExpandSecretRef != nil {
		c := *newSrc.CSI
		c.ControllerExpandSecretRef = nil
		newSrc.CSI = &c
	}
	if !api.SemanticEqual(newSrc, old.Spec.PersistentVolumeSource) {
		errs = append(errs, field.Forbidden(field.NewPath("spec").Child("persistentvolumesource"),
			"spec.persistentvolumesource is immutable after creation\n"+specDiff(old.Spec.PersistentVolumeSource, newSrc)))
	}
	errs = append(errs, ValidateImmutableField(pv.Spec.VolumeMode, old.Spec.VolumeMode, field.NewPath("volumeMode"))...)
	if old.Spec.NodeAffinity != nil && !api.SemanticEqual(pv.Spec.NodeAffinity, old.Spec.NodeAffinity) {
		errs = append(errs, field.Invalid(field.NewPath("nodeAffinity"), goValue{pv.Spec.NodeAffinity}, fieldImmutableErrorMsg+", except for updating from beta label to GA"))
	}
	return errs
}

// ValidateStorageClass checks a StorageClass.
func ValidateStorageClass(sc *api.StorageClass) field.ErrorList {
	errs := ValidateObjectMeta(&sc.ObjectMeta, false, NameIsDNSSubdomain, field.NewPath("metadata"))
	pp := field.NewPath("provisioner")
	if sc.Provisioner == "" {
		errs = append(errs, field.Required(pp, ""))
	} else {
		errs = append(errs, validateQualifiedName(strings.ToLower(sc.Provisioner), pp)...)
	}
	paramPath := field.NewPath("parameters")
	if len(sc.Parameters) > 512 {
		errs = append(errs, field.TooLong(paramPath, "", 512))
	} else {
		total := 0
		for _, k := range slices.Sorted(maps.Keys(sc.Parameters)) {
			if k == "" {
				errs = append(errs, field.Invalid(paramPath, k, "field can not be empty."))
			}
			total += len(k) + len(sc.Parameters[k])
		}
		if total > 256*1024 {
			errs = append(errs, field.TooLong(paramPath, "", 256*1024))
		}
	}
	if rp := sc.ReclaimPolicy; rp != nil && *rp != "" && *rp != api.PersistentVolumeReclaimDelete && *rp != api.PersistentVolumeReclaimRetain {
		errs = append(errs, field.NotSupported(field.NewPath("reclaimPolicy"), *rp, []string{api.PersistentVolumeReclaimDelete, api.PersistentVolumeReclaimRetain}))
	}
	if m := sc.VolumeBindingMode; m != nil && *m != api.VolumeBindingImmediate && *m != api.VolumeBindingWaitForFirstConsumer {
		errs = append(errs, field.NotSupported(field.NewPath("volumeBindingMode"), *m, []string{api.VolumeBindingImmediate, api.VolumeBindingWaitForFirstConsumer}))
	}
	for i, term := range sc.AllowedTopologies {
		tp := field.NewPath("allowedTopologies").Index(i)
		keys := map[string]bool{}
		for j, req := range term.MatchLabelExpressions {
			rp := tp.Child("matchLabelExpressions").Index(j)
			if len(req.Values) == 0 {
				errs = append(errs, field.Required(rp.Child("values"), ""))
			}
			seen := map[string]bool{}
			for k, v := range req.Values {
				if seen[v] {
					errs = append(errs, field.Duplicate(rp.Child("values").Index(k), v))
				}
				seen[v] = true
			}
			errs = append(errs, ValidateLabelName(req.Key, rp.Child("key"))...)
			if keys[req.Key] {
				errs = append(errs, field.Duplicate(rp.Child("key"), req.Key))
			}
			keys[req.Key] = true
		}
	}
	return errs
}

// ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy and
// volumeBindingMode are fixed.
func ValidateStorageClassUpdate(sc, old *api.StorageClass) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&sc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if !api.SemanticEqual(sc.Parameters, old.Parameters) {
		errs = append(errs, field.Forbidden(field.NewPath("parameters"), "updates to parameters are forbidden."))
	}
	if sc.Provisioner != old.Provisioner {
		errs = append(errs, field.Forbidden(field.NewPath("provisioner"), "updates to provisioner are forbidden."))
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	if deref(sc.ReclaimPolicy) != deref(old.ReclaimPolicy) {
		errs = append(errs, field.Forbidden(field.NewPath("reclaimPolicy"), "updates to reclaimPolicy are forbidden."))
	}
	return append(errs, ValidateImmutableField(sc.VolumeBindingMode, old.VolumeBindingMode, field.NewPath("volumeBindingMode"))...)
}
