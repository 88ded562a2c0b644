package validation

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateNamespace checks a Namespace (name an RFC 1123 label).
func ValidateNamespace(ns *api.Namespace) field.ErrorList {
	errs := ValidateObjectMeta(&ns.ObjectMeta, false, NameIsDNSLabel, field.NewPath("metadata"))
	p := field.NewPath("spec").Child("finalizers")
	for _, f := range ns.Spec.Finalizers {
		for _, m := range IsQualifiedName(f) {
			errs = append(errs, field.Invalid(p, f, m))
		}
		errs = append(errs, validateKubeFinalizerName(f, p)...)
	}
	return errs
}

// ValidateNode checks a Node.
func ValidateNode(n *api.Node) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMeta(&n.ObjectMeta, false, NameIsDNSSubdomain, metaPath)
	// Upstream reports taints under metadata.taints.
	errs = append(errs, validateNodeTaints(n.Spec.Taints, metaPath.Child("taints"))...)
	errs = append(errs, validateNodeResources(n)...)
	cidrs := field.NewPath("spec").Child("podCIDRs")
	for i, c := range n.Spec.PodCIDRs {
		if !isValidCIDR(c) {
			errs = append(errs, field.Invalid(cidrs.Index(i), c, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"))
		}
	}
	if len(n.Spec.PodCIDRs) > 1 {
		v4 := 0
		for _, c := range n.Spec.PodCIDRs {
			if i := strings.IndexByte(c, '/'); i > 0 && parseIPSloppy(c[:i]) != nil && parseIPSloppy(c[:i]).To4() != nil {
				v4++
			}
		}
		if v4 != 1 || len(n.Spec.PodCIDRs) > 2 {
			errs = append(errs, field.Invalid(cidrs, n.Spec.PodCIDRs, "may specify no more than one CIDR for each IP family"))
		}
		seen := map[string]bool{}
		for i, c := range n.Spec.PodCIDRs {
			if seen[c] {
				errs = append(errs, field.Duplicate(cidrs.Index(i), c))
			}
			seen[c] = true
		}
	}
	return errs
}

func validateNodeResources(n *api.Node) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedResourceNames(n.Status.Capacity) {
		errs = append(errs, ValidateResourceQuantityValue(k, n.Status.Capacity[k], field.NewPath("status").Child("capacity").Child(k))...)
	}
	for _, k := range sortedResourceNames(n.Status.Allocatable) {
		errs = append(errs, ValidateResourceQuantityValue(k, n.Status.Allocatable[k], field.NewPath("status").Child("allocatable").Child(k))...)
	}
	return errs
}

func validateNodeTaints(taints []api.Taint, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]map[string]bool{}
	for i, t := range taints {
		p := fldPath.Index(i)
		errs = append(errs, ValidateLabelName(t.Key, p.Child("key"))...)
		if msgs := IsValidLabelValue(t.Value); len(msgs) != 0 {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, strings.Join(msgs, ";")))
		}
		errs = append(errs, validateTaintEffect(t.Effect, false, p.Child("effect"))...)
		if seen[t.Effect][t.Key] {
			e := field.Duplicate(p, goValue{t})
			e.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, e)
			continue
		}
		if seen[t.Effect] == nil {
			seen[t.Effect] = map[string]bool{}
		}
		seen[t.Effect][t.Key] = true
	}
	return errs
}

// ValidateNodeUpdate checks an update: podCIDRs and providerID are fixed once set.
func ValidateNodeUpdate(n, old *api.Node) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMetaUpdate(&n.ObjectMeta, &old.ObjectMeta, metaPath)
	errs = append(errs, validateNodeResources(n)...)
	seen := map[api.NodeAddress]bool{}
	for i, a := range n.Status.Addresses {
		if seen[a] {
			errs = append(errs, field.Duplicate(field.NewPath("status").Child("addresses").Index(i), goValue{a}))
		}
		seen[a] = true
	}
	if len(old.Spec.PodCIDRs) > 0 {
		const msg = "node updates may not change podCIDR except from \"\" to valid"
		if len(old.Spec.PodCIDRs) != len(n.Spec.PodCIDRs) {
			errs = append(errs, field.Forbidden(field.NewPath("spec").Child("podCIDRs"), msg))
		} else {
			for i := range old.Spec.PodCIDRs {
				if old.Spec.PodCIDRs[i] != n.Spec.PodCIDRs[i] {
					errs = append(errs, field.Forbidden(field.NewPath("spec").Child("podCIDRs"), msg))
				}
			}
		}
	}
	if old.Spec.ProviderID != "" && old.Spec.ProviderID != n.Spec.ProviderID {
		errs = append(errs, field.Forbidden(field.NewPath("spec").Child("providerID"), "node updates may not change providerID except from \"\" to valid"))
	}
	errs = append(errs, validateNodeTaints(n.Spec.Taints, metaPath.Child("taints"))...)
	if n.Spec.DoNotUseExternalID != old.Spec.DoNotUseExternalID {
		errs = append(errs, field.Forbidden(field.NewPath("spec").Child("externalID"), "may not be updated"))
	}
	return errs
}
