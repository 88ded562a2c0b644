package validation

import (
	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// pdbSpecValue prints a PDB spec for the "both set" error without pointer addresses.
type pdbSpecValue api.PodDisruptionBudgetSpec

func (s pdbSpecValue) String() string { return goValue{api.PodDisruptionBudgetSpec(s)}.String() }

// ValidatePodDisruptionBudget checks a policy/v1 PodDisruptionBudget.
func ValidatePodDisruptionBudget(pdb *api.PodDisruptionBudget) field.ErrorList {
	errs := ValidateObjectMeta(&pdb.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	fldPath := field.NewPath("spec")
	spec := &pdb.Spec
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(fldPath, pdbSpecValue(*spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	if spec.MinAvailable != nil {
		errs = append(errs, validatePositiveIntOrPercent(*spec.MinAvailable, fldPath.Child("minAvailable"))...)
		errs = append(errs, isNotMoreThan100Percent(*spec.MinAvailable, fldPath.Child("minAvailable"))...)
	}
	if spec.MaxUnavailable != nil {
		errs = append(errs, validatePositiveIntOrPercent(*spec.MaxUnavailable, fldPath.Child("maxUnavailable"))...)
		errs = append(errs, isNotMoreThan100Percent(*spec.MaxUnavailable, fldPath.Child("maxUnavailable"))...)
	}
	errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
	if p := spec.UnhealthyPodEvictionPolicy; p != nil && *p != api.AlwaysAllow && *p != api.IfHealthyBudget {
		errs = append(errs, field.NotSupported(fldPath.Child("unhealthyPodEvictionPolicy"), *p, []string{api.AlwaysAllow, api.IfHealthyBudget}))
	}
	return errs
}
