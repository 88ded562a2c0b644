package validation

import (
	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateLease checks a coordination.k8s.io Lease.
func ValidateLease(l *api.Lease) field.ErrorList {
	errs := ValidateObjectMeta(&l.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	fldPath := field.NewPath("spec")
	if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseDurationSeconds"), *d, "must be greater than 0"))
	}
	if t := l.Spec.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseTransitions"), *t, isNegativeErrorMsg))
	}
	if s := l.Spec.Strategy; s != nil && *s != api.OldestEmulationVersion {
		errs = append(errs, field.NotSupported(fldPath.Child("strategy"), *s, []string{api.OldestEmulationVersion}))
	}
	if p := l.Spec.PreferredHolder; p != nil && *p != "" && (l.Spec.Strategy == nil || *l.Spec.Strategy == "") {
		errs = append(errs, field.Forbidden(fldPath.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}
