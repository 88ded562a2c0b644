package validation

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

const fileModeErrorMsg = "must be a number between 0 and 0777 (octal), both inclusive"

// ValidateVolumes checks a pod's volumes and returns the valid ones by name
// for the volume-mount checks.
func ValidateVolumes(volumes []api.Volume, podMeta *api.ObjectMeta, fldPath *field.Path, opts podOptions) (map[string]*api.VolumeSource, field.ErrorList) {
	var errs field.ErrorList
	names := map[string]bool{}
	createdPVCs := map[string]bool{}
	if podMeta != nil && podMeta.Name != "" {
		for _, v := range volumes {
			if v.Ephemeral != nil {
				createdPVCs[podMeta.Name+"-"+v.Name] = true
			}
		}
	}
	vols := map[string]*api.VolumeSource{}
	for i, vol := range volumes {
		idxPath := fldPath.Index(i)
		namePath := idxPath.Child("name")
		el := validateVolumeSource(&vol.VolumeSource, idxPath, vol.Name, podMeta, opts)
		if vol.Name == "" {
			el = append(el, field.Required(namePath, ""))
		} else {
			el = append(el, validateDNS1123Label(vol.Name, namePath)...)
		}
		if names[vol.Name] {
			el = append(el, field.Duplicate(namePath, vol.Name))
		}
		if len(el) == 0 {
			names[vol.Name] = true
			vols[vol.Name] = &volumes[i].VolumeSource
		} else {
			errs = append(errs, el...)
		}
		if vol.PersistentVolumeClaim != nil && createdPVCs[vol.PersistentVolumeClaim.ClaimName] {
			errs = append(errs, field.Invalid(idxPath.Child("persistentVolumeClaim").Child("claimName"), vol.PersistentVolumeClaim.ClaimName,
				"must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return vols, errs
}

func validateDNS1123Label(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range IsDNS1123Label(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	return errs
}

func validateDNS1123Subdomain(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range IsDNS1123Subdomain(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	return errs
}

func validateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range IsQualifiedName(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	return errs
}

// validateVolumeSource: exactly one source, each checked in upstream's order.
func validateVolumeSource(src *api.VolumeSource, fldPath *field.Path, volName string, podMeta *api.ObjectMeta, opts podOptions) field.ErrorList {
	var errs field.ErrorList
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
	if src.EmptyDir != nil {
		n++
		if src.EmptyDir.SizeLimit != nil && src.EmptyDir.SizeLimit.Sign() < 0 {
			errs = append(errs, field.Forbidden(fldPath.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
	}
	one(src.HostPath != nil, "hostPath", func() field.ErrorList { return validateHostPathVolumeSource(src.HostPath, fldPath.Child("hostPath")) })
	one(src.Secret != nil, "secret", func() field.ErrorList { return validateSecretVolumeSource(src.Secret, fldPath.Child("secret")) })
	one(src.NFS != nil, "nfs", func() field.ErrorList { return validateNFSVolumeSource(src.NFS, fldPath.Child("nfs")) })
	one(src.PersistentVolumeClaim != nil, "persistentVolumeClaim", func() field.ErrorList {
		if src.PersistentVolumeClaim.ClaimName == "" {
			return field.ErrorList{field.Required(fldPath.Child("persistentVolumeClaim").Child("claimName"), "")}
		}
		return nil
	})
	// "downwarAPI" is upstream's spelling in this one message.
	one(src.DownwardAPI != nil, "downwarAPI", func() field.ErrorList {
		return validateDownwardAPIVolumeSource(src.DownwardAPI, fldPath.Child("downwardAPI"))
	})
	one(src.ConfigMap != nil, "configMap", func() field.ErrorList {
		return validateConfigMapVolumeSource(src.ConfigMap, fldPath.Child("configMap"))
	})
	one(src.Projected != nil, "projected", func() field.ErrorList {
		return validateProjectedVolumeSource(src.Projected, fldPath.Child("projected"))
	})
	one(src.CSI != nil, "csi", func() field.ErrorList { return validateCSIVolumeSource(src.CSI, fldPath.Child("csi")) })
	one(src.Ephemeral != nil, "ephemeral", func() field.ErrorList {
		var el field.ErrorList
		p := fldPath.Child("ephemeral")
		if src.Ephemeral.VolumeClaimTemplate == nil {
			el = append(el, field.Required(p.Child("volumeClaimTemplate"), ""))
		} else {
			t := src.Ephemeral.VolumeClaimTemplate
			tp := p.Child("volumeClaimTemplate")
			el = append(el, ValidateAnnotations(t.Annotations, tp.Child("metadata").Child("annotations"))...)
			el = append(el, ValidateLabels(t.Labels, tp.Child("metadata").Child("labels"))...)
			el = append(el, ValidatePersistentVolumeClaimSpec(&t.Spec, tp.Child("spec"))...)
		}
		if podMeta != nil && podMeta.Name != "" && volName != "" {
			pvcName := podMeta.Name + "-" + volName
			for _, msg := range NameIsDNSSubdomain(pvcName, false) {
				el = append(el, field.Invalid(fldPath.Child("name"), volName, "PVC name \""+pvcName+"\": "+msg))
			}
		}
		return el
	})
	one(src.Image != nil, "image", func() field.ErrorList {
		var el field.ErrorList
		p := fldPath.Child("image")
		if opts.resourceIsPod && src.Image.Reference == "" {
			el = append(el, field.Required(p.Child("reference"), ""))
		}
		return append(el, validatePullPolicy(src.Image.PullPolicy, p.Child("pullPolicy"))...)
	})
	if n == 0 {
		errs = append(errs, field.Required(fldPath, "must specify a volume type"))
	}
	return errs
}

var supportedHostPathTypes = []string{"", api.HostPathBlockDev, api.HostPathCharDev, api.HostPathDirectory,
	api.HostPathDirectoryOrCreate, api.HostPathFile, api.HostPathFileOrCreate, api.HostPathSocket}

func validateHostPathVolumeSource(hp *api.HostPathVolumeSource, fldPath *field.Path) field.ErrorList {
	if hp.Path == "" {
		return field.ErrorList{field.Required(fldPath.Child("path"), "")}
	}
	errs := validatePathNoBacksteps(hp.Path, fldPath.Child("path"))
	if hp.Type != nil && !contains(supportedHostPathTypes, *hp.Type) {
		errs = append(errs, field.NotSupported(fldPath.Child("type"), *hp.Type, supportedHostPathTypes))
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func validateFileMode(mode *int32, fldPath *field.Path) field.ErrorList {
	if mode != nil && (*mode > 0777 || *mode < 0) {
		return field.ErrorList{field.Invalid(fldPath, *mode, fileModeErrorMsg)}
	}
	return nil
}

func validateSecretVolumeSource(s *api.SecretVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.SecretName == "" {
		errs = append(errs, field.Required(fldPath.Child("secretName"), ""))
	}
	errs = append(errs, validateFileMode(s.DefaultMode, fldPath.Child("defaultMode"))...)
	for i := range s.Items {
		errs = append(errs, validateKeyToPath(&s.Items[i], fldPath.Child("items").Index(i))...)
	}
	return errs
}

func validateConfigMapVolumeSource(c *api.ConfigMapVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	errs = append(errs, validateFileMode(c.DefaultMode, fldPath.Child("defaultMode"))...)
	for i := range c.Items {
		errs = append(errs, validateKeyToPath(&c.Items[i], fldPath.Child("items").Index(i))...)
	}
	return errs
}

func validateKeyToPath(kp *api.KeyToPath, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if kp.Key == "" {
		errs = append(errs, field.Required(fldPath.Child("key"), ""))
	}
	if kp.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(kp.Path, fldPath.Child("path"))...)
	return append(errs, validateFileMode(kp.Mode, fldPath.Child("mode"))...)
}

func validateNFSVolumeSource(nfs *api.NFSVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if nfs.Server == "" {
		errs = append(errs, field.Required(fldPath.Child("server"), ""))
	}
	if nfs.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	if !path.IsAbs(nfs.Path) {
		errs = append(errs, field.Invalid(fldPath.Child("path"), nfs.Path, "must be an absolute path"))
	}
	return errs
}

var validVolumeDownwardAPIFieldPaths = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"}

func validateDownwardAPIVolumeFile(file *api.DownwardAPIVolumeFile, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if file.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(file.Path, fldPath.Child("path"))...)
	switch {
	case file.FieldRef != nil:
		errs = append(errs, validateObjectFieldSelector(file.FieldRef, validVolumeDownwardAPIFieldPaths, fldPath.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			errs = append(errs, field.Invalid(fldPath, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		errs = append(errs, validateContainerResourceFieldSelector(file.ResourceFieldRef, fldPath.Child("resourceFieldRef"), true)...)
	default:
		errs = append(errs, field.Required(fldPath, "one of fieldRef and resourceFieldRef is required"))
	}
	return append(errs, validateFileMode(file.Mode, fldPath.Child("mode"))...)
}

func validateDownwardAPIVolumeSource(d *api.DownwardAPIVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := validateFileMode(d.DefaultMode, fldPath.Child("defaultMode"))
	for i := range d.Items {
		// Upstream reports item errors under downwardAPI itself, unindexed.
		errs = append(errs, validateDownwardAPIVolumeFile(&d.Items[i], fldPath)...)
	}
	return errs
}

func validateProjectedVolumeSource(p *api.ProjectedVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := validateFileMode(p.DefaultMode, fldPath.Child("defaultMode"))
	paths := map[string]bool{}
	dup := func(cur string, bad any) {
		if paths[cur] {
			errs = append(errs, field.Invalid(fldPath, bad, "conflicting duplicate paths"))
		}
		paths[cur] = true
	}
	for i, s := range p.Sources {
		n := 0
		srcPath := fldPath.Child("sources").Index(i)
		if s.Secret != nil {
			n++
			pp := srcPath.Child("secret")
			if s.Secret.Name == "" {
				errs = append(errs, field.Required(pp.Child("name"), ""))
			}
			for j := range s.Secret.Items {
				errs = append(errs, validateKeyToPath(&s.Secret.Items[j], pp.Child("items").Index(j))...)
				if s.Secret.Items[j].Path != "" {
					dup(s.Secret.Items[j].Path, s.Secret.Name)
				}
			}
		}
		if s.ConfigMap != nil {
			n++
			pp := srcPath.Child("configMap")
			if s.ConfigMap.Name == "" {
				errs = append(errs, field.Required(pp.Child("name"), ""))
			}
			for j := range s.ConfigMap.Items {
				errs = append(errs, validateKeyToPath(&s.ConfigMap.Items[j], pp.Child("items").Index(j))...)
				if s.ConfigMap.Items[j].Path != "" {
					dup(s.ConfigMap.Items[j].Path, s.ConfigMap.Name)
				}
			}
		}
		if s.DownwardAPI != nil {
			n++
			pp := srcPath.Child("downwardAPI")
			for j := range s.DownwardAPI.Items {
				f := &s.DownwardAPI.Items[j]
				errs = append(errs, validateDownwardAPIVolumeFile(f, pp)...)
				if f.Path != "" {
					dup(f.Path, f.Path)
				}
			}
		}
		if s.ServiceAccountToken != nil {
			n++
			pp := srcPath.Child("serviceAccountToken")
			if e := s.ServiceAccountToken.ExpirationSeconds; e != nil {
				if *e < 10*60 {
					errs = append(errs, field.Invalid(pp.Child("expirationSeconds"), *e, "may not specify a duration less than 10 minutes"))
				}
				if *e > 1<<32 {
					errs = append(errs, field.Invalid(pp.Child("expirationSeconds"), *e, "may not specify a duration larger than 2^32 seconds"))
				}
			}
			if s.ServiceAccountToken.Path == "" {
				errs = append(errs, field.Required(fldPath.Child("path"), ""))
			} else {
				errs = append(errs, validateLocalNonReservedPath(s.ServiceAccountToken.Path, fldPath.Child("path"))...)
			}
		}
		if s.ClusterTrustBundle != nil {
			n++
			pp := srcPath.Child("clusterTrustBundle")
			if s.ClusterTrustBundle.Path == "" {
				errs = append(errs, field.Required(pp.Child("path"), ""))
			}
			errs = append(errs, validateLocalNonReservedPath(s.ClusterTrustBundle.Path, pp.Child("path"))...)
			dup(s.ClusterTrustBundle.Path, s.ClusterTrustBundle.Path)
		}
		if n > 1 {
			errs = append(errs, field.Forbidden(srcPath, "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

func validateCSIVolumeSource(csi *api.CSIVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := validateCSIDriverName(csi.Driver, fldPath.Child("driver"))
	if ref := csi.NodePublishSecretRef; ref != nil {
		if ref.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("nodePublishSecretRef").Child("name"), ""))
		} else {
			for _, msg := range NameIsDNSSubdomain(ref.Name, false) {
				errs = append(errs, field.Invalid(fldPath.Child("name"), ref.Name, msg))
			}
		}
	}
	return errs
}

func validateCSIDriverName(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath, ""))
	}
	if len(name) > 63 {
		errs = append(errs, field.TooLong(fldPath, "", 63))
	}
	for _, msg := range IsDNS1123Subdomain(strings.ToLower(name)) {
		errs = append(errs, field.Invalid(fldPath, name, msg))
	}
	return errs
}

func validateLocalDescendingPath(target string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(target) {
		errs = append(errs, field.Invalid(fldPath, target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, fldPath)...)
}

func validatePathNoBacksteps(target string, fldPath *field.Path) field.ErrorList {
	for item := range strings.SplitSeq(filepath.ToSlash(target), "/") {
		if item == ".." {
			return field.ErrorList{field.Invalid(fldPath, target, "must not contain '..'")}
		}
	}
	return nil
}

func validateLocalNonReservedPath(target string, fldPath *field.Path) field.ErrorList {
	errs := validateLocalDescendingPath(target, fldPath)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.Invalid(fldPath, target, "must not start with '..'"))
	}
	return errs
}

// convertDownwardAPIFieldLabel accepts the pod field paths the v1 API
// knows, as upstream's conversion does.
func convertDownwardAPIFieldLabel(version, label string) (string, string) {
	if version != "v1" {
		return "", "unsupported pod version: " + version
	}
	if p, _, ok := splitMaybeSubscriptedPath(label); ok {
		switch p {
		case "metadata.annotations", "metadata.labels":
			return label, ""
		}
		return "", "field label does not support subscript: " + label
	}
	switch label {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
		return label, ""
	}
	return "", "field label not supported: " + label
}

// splitMaybeSubscriptedPath splits "metadata.labels['app']".
func splitMaybeSubscriptedPath(p string) (string, string, bool) {
	if !strings.HasSuffix(p, "']") {
		return p, "", false
	}
	s := strings.TrimSuffix(p, "']")
	parts := strings.SplitN(s, "['", 2)
	if len(parts) < 2 || len(parts[0]) == 0 {
		return p, "", false
	}
	return parts[0], parts[1], true
}

func validateObjectFieldSelector(fs *api.ObjectFieldSelector, valid []string, fldPath *field.Path) field.ErrorList {
	version := fs.APIVersion
	if version == "" {
		version = "v1" // defaulting fills it
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.Required(fldPath.Child("fieldPath"), "")}
	}
	internal, msg := convertDownwardAPIFieldLabel(version, fs.FieldPath)
	if msg != "" {
		return field.ErrorList{field.Invalid(fldPath.Child("fieldPath"), fs.FieldPath, "error converting fieldPath: "+msg)}
	}
	if p, sub, ok := splitMaybeSubscriptedPath(internal); ok {
		switch p {
		case "metadata.annotations":
			return validateQualifiedName(strings.ToLower(sub), fldPath)
		case "metadata.labels":
			return validateQualifiedName(sub, fldPath)
		}
		return field.ErrorList{field.Invalid(fldPath, p, "does not support subscript")}
	} else if !contains(valid, p) {
		return field.ErrorList{field.NotSupported(fldPath.Child("fieldPath"), p, valid)}
	}
	return nil
}

var validContainerResourceFieldPaths = []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory",
	"requests.cpu", "requests.ephemeral-storage", "requests.memory"}

func validateContainerResourceFieldSelector(fs *api.ResourceFieldSelector, fldPath *field.Path, volume bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		errs = append(errs, field.Required(fldPath.Child("containerName"), ""))
	case fs.Resource == "":
		errs = append(errs, field.Required(fldPath.Child("resource"), ""))
	case !contains(validContainerResourceFieldPaths, fs.Resource) &&
		!strings.HasPrefix(fs.Resource, "requests.hugepages-") && !strings.HasPrefix(fs.Resource, "limits.hugepages-"):
		errs = append(errs, field.NotSupported(fldPath.Child("resource"), fs.Resource, validContainerResourceFieldPaths))
	}
	if fs.Divisor.String() == "" {
		return errs
	}
	d := fs.Divisor
	if d.Sign() == 0 {
		return errs
	}
	div := d.String()
	memory := []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}
	switch fs.Resource {
	case "limits.cpu", "requests.cpu":
		if div != "1m" && div != "1" {
			errs = append(errs, field.Invalid(fldPath.Child("divisor"), fs.Resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !contains(memory, div) {
			errs = append(errs, field.Invalid(fldPath.Child("divisor"), fs.Resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !contains(memory, div) {
			errs = append(errs, field.Invalid(fldPath.Child("divisor"), fs.Resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"))
		}
	}
	return errs
}

// sortedCopy returns list sorted, for "supported values" lists upstream
// builds from sets.
func sortedCopy(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}
