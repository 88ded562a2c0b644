package validation

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

var standardQuotaResources = map[string]bool{
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true, "secrets": true,
	"persistentvolumeclaims": true, "configmaps": true, "services.nodeports": true, "services.loadbalancers": true,
	"cpu": true, "memory": true, "ephemeral-storage": true,
	"requests.cpu": true, "requests.memory": true, "requests.storage": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
}

var standardQuotaScopes = []string{api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeCrossNamespacePodAffinity,
	api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopePriorityClass,
	api.ResourceQuotaScopeTerminating}

func validateQuotaResourceName(name string, fldPath *field.Path) field.ErrorList {
	errs := validateResourceName(name, fldPath)
	if !strings.Contains(name, "/") && !standardQuotaResources[name] &&
		!strings.HasPrefix(name, "hugepages-") && !strings.HasPrefix(name, "requests.hugepages-") {
		return append(errs, field.Invalid(fldPath, name, "must be a standard resource for quota"))
	}
	return errs
}

// ValidateResourceQuota checks a ResourceQuota.
func ValidateResourceQuota(rq *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMeta(&rq.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateResourceQuotaSpec(&rq.Spec, field.NewPath("spec"))...)
	for _, part := range []struct {
		name string
		rl   api.ResourceList
	}{{"hard", rq.Status.Hard}, {"used", rq.Status.Used}} {
		p := field.NewPath("status").Child(part.name)
		for _, k := range sortedResourceNames(part.rl) {
			errs = append(errs, validateQuotaResourceName(k, p.Key(k))...)
			errs = append(errs, ValidateResourceQuantityValue(k, part.rl[k], p.Key(k))...)
		}
	}
	return errs
}

func validateResourceQuotaSpec(spec *api.ResourceQuotaSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	hp := fldPath.Child("hard")
	for _, k := range sortedResourceNames(spec.Hard) {
		errs = append(errs, validateQuotaResourceName(k, hp.Key(k))...)
		errs = append(errs, ValidateResourceQuantityValue(k, spec.Hard[k], hp.Key(k))...)
	}
	sp := fldPath.Child("scopes")
	scopes := map[string]bool{}
	for _, s := range spec.Scopes {
		if !contains(standardQuotaScopes, s) {
			errs = append(errs, field.Invalid(sp, spec.Scopes, "unsupported scope"))
		}
		scopes[s] = true
	}
	if scopes[api.ResourceQuotaScopeBestEffort] && scopes[api.ResourceQuotaScopeNotBestEffort] ||
		scopes[api.ResourceQuotaScopeTerminating] && scopes[api.ResourceQuotaScopeNotTerminating] {
		errs = append(errs, field.Invalid(sp, spec.Scopes, "conflicting scopes"))
	}
	return errs
}

// ValidateResourceQuotaUpdate: scopes are fixed.
func ValidateResourceQuotaUpdate(rq, old *api.ResourceQuota) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rq.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateResourceQuotaSpec(&rq.Spec, field.NewPath("spec"))...)
	a, b := map[string]bool{}, map[string]bool{}
	for _, s := range rq.Spec.Scopes {
		a[s] = true
	}
	for _, s := range old.Spec.Scopes {
		b[s] = true
	}
	same := len(a) == len(b)
	for s := range a {
		same = same && b[s]
	}
	if !same {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("scopes"), rq.Spec.Scopes, fieldImmutableErrorMsg))
	}
	return errs
}
