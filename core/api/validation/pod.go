package validation

import (
	"math"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// Pod annotations with rules of their own.
const (
	mirrorPodAnnotationKey        = "kubernetes.io/config.mirror"
	podDeletionCostAnnotation     = "controller.kubernetes.io/pod-deletion-cost"
	seccompPodAnnotationKey       = "seccomp.security.alpha.kubernetes.io/pod"
	seccompContainerAnnotationPfx = "container.seccomp.security.alpha.kubernetes.io/"
	appArmorAnnotationPrefix      = "container.apparmor.security.beta.kubernetes.io/"
)

// ValidatePodCreate checks a new pod.
func ValidatePodCreate(pod *api.Pod) field.ErrorList {
	errs := validatePodMetadataAndSpec(pod)
	specPath := field.NewPath("spec")
	if len(pod.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(specPath.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		errs = append(errs, field.Forbidden(specPath.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	return errs
}

func validatePodMetadataAndSpec(pod *api.Pod) field.ErrorList {
	metaPath := field.NewPath("metadata")
	specPath := field.NewPath("spec")
	errs := ValidateObjectMeta(&pod.ObjectMeta, true, NameIsDNSSubdomain, metaPath)
	errs = append(errs, validatePodSpecificAnnotations(pod.Annotations, &pod.Spec, metaPath.Child("annotations"))...)
	errs = append(errs, ValidatePodSpec(&pod.Spec, &pod.ObjectMeta, specPath, podOptions{resourceIsPod: true})...)
	if pod.Spec.ServiceAccountName == "" {
		for vi, vol := range pod.Spec.Volumes {
			if vol.Projected == nil {
				continue
			}
			for si, src := range vol.Projected.Sources {
				if src.ServiceAccountToken != nil {
					errs = append(errs, field.Forbidden(specPath.Child("volumes").Index(vi).Child("projected").Child("sources").Index(si).Child("serviceAccountToken"),
						"must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	for _, list := range []struct {
		name string
		cs   []api.Container
	}{{"containers", pod.Spec.Containers}, {"initContainers", pod.Spec.InitContainers}} {
		for i, c := range list.cs {
			if len(c.Image) != len(strings.TrimSpace(c.Image)) {
				errs = append(errs, field.Invalid(specPath.Child(list.name).Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
			}
		}
	}
	return errs
}

func podHasContainer(spec *api.PodSpec, name string) bool {
	for _, list := range [][]api.Container{spec.InitContainers, spec.Containers} {
		for _, c := range list {
			if c.Name == name {
				return true
			}
		}
	}
	for _, c := range spec.EphemeralContainers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func validatePodSpecificAnnotations(annotations map[string]string, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v, ok := annotations[mirrorPodAnnotationKey]; ok && spec.NodeName == "" {
		errs = append(errs, field.Invalid(fldPath.Key(mirrorPodAnnotationKey), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if v, ok := annotations[podDeletionCostAnnotation]; ok && !validDeletionCost(v) {
		errs = append(errs, field.Invalid(fldPath.Key(podDeletionCostAnnotation), v, "must be a 32bit integer"))
	}
	if p, ok := annotations[seccompPodAnnotationKey]; ok {
		errs = append(errs, validateSeccompProfileAnnotation(p, fldPath.Child(seccompPodAnnotationKey))...)
	}
	var buf [8]string
	keys := sortedKeys(annotations, buf[:])
	for _, k := range keys {
		if strings.HasPrefix(k, seccompContainerAnnotationPfx) {
			errs = append(errs, validateSeccompProfileAnnotation(annotations[k], fldPath.Child(k))...)
		}
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, appArmorAnnotationPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, appArmorAnnotationPrefix)
		if !podHasContainer(spec, name) {
			errs = append(errs, field.Invalid(fldPath.Key(k), name, "container not found"))
		}
		p := annotations[k]
		if p != "" && p != "runtime/default" && p != "unconfined" && !strings.HasPrefix(p, "localhost/") {
			errs = append(errs, field.Invalid(fldPath.Key(k), p, "invalid AppArmor profile name: "+strconv.Quote(p)))
		}
	}
	return errs
}

func validDeletionCost(v string) bool {
	if v == "" || !(v[0] == '-' || v == "0" || v[0] >= '1' && v[0] <= '9') {
		return false
	}
	_, err := strconv.ParseInt(v, 10, 32)
	return err == nil
}

func validateSeccompProfileAnnotation(p string, fldPath *field.Path) field.ErrorList {
	switch {
	case p == "runtime/default", p == "docker/default", p == "unconfined":
		return nil
	case strings.HasPrefix(p, "localhost/"):
		return validateLocalDescendingPath(strings.TrimPrefix(p, "localhost/"), fldPath)
	}
	return field.ErrorList{field.Invalid(fldPath, p, "must be a valid seccomp profile")}
}

// updatablePodSpecFields is the list upstream's message names (v1.32).
var updatablePodSpecFields = []string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}

// ValidatePodUpdate checks an update: only images, activeDeadlineSeconds,
// added tolerations and removed scheduling gates may change in the spec.
func ValidatePodUpdate(newPod, oldPod *api.Pod) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, metaPath)
	errs = append(errs, validatePodMetadataAndSpec(newPod)...)
	errs = append(errs, validatePodAnnotationUpdates(newPod, oldPod, metaPath.Child("annotations"))...)
	specPath := field.NewPath("spec")

	ce, stop := validateContainerUpdates(newPod.Spec.Containers, oldPod.Spec.Containers, specPath.Child("containers"))
	errs = append(errs, ce...)
	if stop {
		return errs
	}
	ce, stop = validateContainerUpdates(newPod.Spec.InitContainers, oldPod.Spec.InitContainers, specPath.Child("initContainers"))
	errs = append(errs, ce...)
	if stop {
		return errs
	}

	if newPod.Spec.ActiveDeadlineSeconds != nil {
		n := *newPod.Spec.ActiveDeadlineSeconds
		if n < 0 || n > math.MaxInt32 {
			return append(errs, field.Invalid(specPath.Child("activeDeadlineSeconds"), n, InclusiveRangeError(0, math.MaxInt32)))
		}
		if oldPod.Spec.ActiveDeadlineSeconds != nil && *oldPod.Spec.ActiveDeadlineSeconds < n {
			return append(errs, field.Invalid(specPath.Child("activeDeadlineSeconds"), n, "must be less than or equal to previous value"))
		}
	} else if oldPod.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Invalid(specPath.Child("activeDeadlineSeconds"), newPod.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}

	errs = append(errs, validateOnlyAddedTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations, specPath.Child("tolerations"))...)
	errs = append(errs, validateOnlyDeletedSchedulingGates(newPod.Spec.SchedulingGates, oldPod.Spec.SchedulingGates, specPath.Child("schedulingGates"))...)

	if api.SemanticEqual(newPod.Spec, oldPod.Spec) {
		return errs
	}
	munged := *newPod.Spec.DeepCopy()
	for i := range munged.Containers {
		munged.Containers[i].Image = oldPod.Spec.Containers[i].Image
	}
	for i := range munged.InitContainers {
		munged.InitContainers[i].Image = oldPod.Spec.InitContainers[i].Image
	}
	munged.ActiveDeadlineSeconds = nil
	if oldPod.Spec.ActiveDeadlineSeconds != nil {
		v := *oldPod.Spec.ActiveDeadlineSeconds
		munged.ActiveDeadlineSeconds = &v
	}
	munged.SchedulingGates = oldPod.Spec.SchedulingGates
	munged.Tolerations = oldPod.Spec.Tolerations
	if g := oldPod.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 &&
		munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = g
	}
	if len(oldPod.Spec.SchedulingGates) > 0 {
		// A gated pod may gain node selector entries.
		onlyAdded := true
		for k, v := range oldPod.Spec.NodeSelector {
			if nv, ok := munged.NodeSelector[k]; !ok || nv != v {
				onlyAdded = false
			}
		}
		if !onlyAdded {
			errs = append(errs, field.Invalid(specPath.Child("nodeSelector"), munged.NodeSelector, "only additions to spec.nodeSelector are allowed (no mutations or deletions)"))
		}
		munged.NodeSelector = oldPod.Spec.NodeSelector
	}
	if !api.SemanticEqual(munged, oldPod.Spec) {
		errs = append(errs, field.Forbidden(specPath, "pod updates may not change fields other than "+
			strings.Join(updatablePodSpecFields, ",")+"\n"+specDiff(oldPod.Spec, munged)))
	}
	return errs
}

func validatePodAnnotationUpdates(newPod, oldPod *api.Pod, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	var buf [8]string
	for _, k := range sortedKeys(oldPod.Annotations, buf[:]) {
		if v, ok := newPod.Annotations[k]; ok && v == oldPod.Annotations[k] {
			continue
		}
		if strings.HasPrefix(k, appArmorAnnotationPrefix) {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not remove or update AppArmor annotations"))
		}
		if k == mirrorPodAnnotationKey {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not remove or update mirror pod annotation"))
		}
	}
	for _, k := range sortedKeys(newPod.Annotations, buf[:]) {
		if _, ok := oldPod.Annotations[k]; ok {
			continue
		}
		if strings.HasPrefix(k, appArmorAnnotationPrefix) {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not add AppArmor annotations"))
		}
		if k == mirrorPodAnnotationKey {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not add mirror pod annotation"))
		}
	}
	return append(errs, validatePodSpecificAnnotations(newPod.Annotations, &newPod.Spec, fldPath)...)
}

func validateContainerUpdates(newCs, oldCs []api.Container, fldPath *field.Path) (field.ErrorList, bool) {
	if len(newCs) != len(oldCs) {
		return field.ErrorList{field.Forbidden(fldPath, "pod updates may not add or remove containers")}, true
	}
	var errs field.ErrorList
	for i, c := range newCs {
		if c.Image == "" {
			errs = append(errs, field.Required(fldPath.Index(i).Child("image"), ""))
		}
		if len(strings.TrimSpace(c.Image)) != len(c.Image) {
			errs = append(errs, field.Invalid(fldPath.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs, false
}

func validateOnlyAddedTolerations(newTs, oldTs []api.Toleration, fldPath *field.Path) field.ErrorList {
	for _, old := range oldTs {
		found := false
		for _, nt := range newTs {
			o := old
			o.TolerationSeconds = nt.TolerationSeconds
			if api.SemanticEqual(o, nt) {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(fldPath, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return ValidateTolerations(newTs, fldPath)
}

func validateOnlyDeletedSchedulingGates(newGates, oldGates []api.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	old := map[string]bool{}
	for _, g := range oldGates {
		old[g.Name] = true
	}
	var errs field.ErrorList
	for i, g := range newGates {
		if !old[g.Name] {
			errs = append(errs, field.Forbidden(fldPath.Index(i).Child("name"), "only deletion is allowed, but found new scheduling gate '"+g.Name+"'"))
		}
	}
	return errs
}

// ValidatePodBinding checks a pods/binding body (the scheduler's write).
func ValidatePodBinding(b *api.Binding) field.ErrorList {
	var errs field.ErrorList
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		errs = append(errs, field.NotSupported(field.NewPath("target").Child("kind"), b.Target.Kind, []string{"Node", "<empty>"}))
	}
	if b.Target.Name == "" {
		errs = append(errs, field.Required(field.NewPath("target").Child("name"), ""))
	}
	return errs
}

// ValidatePodTemplate checks a stored PodTemplate.
func ValidatePodTemplate(t *api.PodTemplate) field.ErrorList {
	errs := ValidateObjectMeta(&t.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, ValidatePodTemplateSpec(&t.Template, field.NewPath("template"))...)
}
