package validation

import (
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

const (
	maxHPAPeriodSeconds              = 1800
	maxHPAStabilizationWindowSeconds = 3600
)

var validMetricSourceTypes = []string{api.ContainerResourceMetricSourceType, api.ExternalMetricSourceType,
	api.ObjectMetricSourceType, api.PodsMetricSourceType, api.ResourceMetricSourceType}

// isValidPathSegmentName: names that go into a URL path.
func isValidPathSegmentName(name string) []string {
	for _, illegal := range []string{".", ".."} {
		if name == illegal {
			return []string{fmt.Sprintf("may not be '%s'", illegal)}
		}
	}
	var errs []string
	for _, illegal := range []string{"/", "%"} {
		if strings.Contains(name, illegal) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", illegal))
		}
	}
	return errs
}

// validatePathSegment requires value and checks it can stand in a URL path.
func validatePathSegment(value string, fldPath *field.Path, requiredMsg string) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(fldPath, requiredMsg)}
	}
	var errs field.ErrorList
	for _, m := range isValidPathSegmentName(value) {
		errs = append(errs, field.Invalid(fldPath, value, m))
	}
	return errs
}

func validateCrossVersionObjectReference(ref api.CrossVersionObjectReference, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, validatePathSegment(ref.Kind, fldPath.Child("kind"), "")...)
	errs = append(errs, validatePathSegment(ref.Name, fldPath.Child("name"), "")...)
	return errs
}

// ValidateHorizontalPodAutoscaler checks an autoscaling/v2 HPA.
func ValidateHorizontalPodAutoscaler(h *api.HorizontalPodAutoscaler) field.ErrorList {
	errs := ValidateObjectMeta(&h.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateHPASpec(&h.Spec, field.NewPath("spec"))...)
}

// ValidateHorizontalPodAutoscalerV1 checks an autoscaling/v1 HPA through
// its v2 form, as upstream validates the internal version of both.
func ValidateHorizontalPodAutoscalerV1(h *api.HorizontalPodAutoscalerV1) field.ErrorList {
	v2, err := api.ConvertHPAV1ToV2(h)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata").Child("annotations"), "", err.Error())}
	}
	return ValidateHorizontalPodAutoscaler(v2)
}

func validateHPASpec(spec *api.HorizontalPodAutoscalerSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.MinReplicas != nil && *spec.MinReplicas < 1 {
		errs = append(errs, field.Invalid(fldPath.Child("minReplicas"), *spec.MinReplicas, "must be greater than or equal to 1"))
	}
	if spec.MaxReplicas < 1 {
		errs = append(errs, field.Invalid(fldPath.Child("maxReplicas"), spec.MaxReplicas, "must be greater than 0"))
	}
	if spec.MinReplicas != nil && spec.MaxReplicas < *spec.MinReplicas {
		errs = append(errs, field.Invalid(fldPath.Child("maxReplicas"), spec.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	if e := validateCrossVersionObjectReference(spec.ScaleTargetRef, fldPath.Child("scaleTargetRef")); len(e) > 0 {
		return append(errs, e...)
	}
	if e := validateMetrics(spec.Metrics, fldPath.Child("metrics"), spec.MinReplicas); len(e) > 0 {
		return append(errs, e...)
	}
	return append(errs, validateBehavior(spec.Behavior, fldPath.Child("behavior"))...)
}

func validateMetrics(metrics []api.MetricSpec, fldPath *field.Path, minReplicas *int32) field.ErrorList {
	var errs field.ErrorList
	objOrExt := false
	for i, m := range metrics {
		errs = append(errs, validateMetricSpec(m, fldPath.Index(i))...)
		objOrExt = objOrExt || m.Type == api.ObjectMetricSourceType || m.Type == api.ExternalMetricSourceType
	}
	if minReplicas != nil && *minReplicas == 0 && !objOrExt {
		errs = append(errs, field.Forbidden(fldPath, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

func validateMetricSpec(spec api.MetricSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.Type == "" {
		errs = append(errs, field.Required(fldPath.Child("type"), "must specify a metric source type"))
	}
	if !contains(validMetricSourceTypes, spec.Type) {
		errs = append(errs, field.NotSupported(fldPath.Child("type"), spec.Type, validMetricSourceTypes))
	}
	var present []string
	if spec.Object != nil {
		present = append(present, "object")
		if len(present) == 1 {
			errs = append(errs, validateObjectSource(spec.Object, fldPath.Child("object"))...)
		}
	}
	if spec.External != nil {
		present = append(present, "external")
		if len(present) == 1 {
			errs = append(errs, validateExternalSource(spec.External, fldPath.Child("external"))...)
		}
	}
	if spec.Pods != nil {
		present = append(present, "pods")
		if len(present) == 1 {
			errs = append(errs, validatePodsSource(spec.Pods, fldPath.Child("pods"))...)
		}
	}
	if spec.Resource != nil {
		present = append(present, "resource")
		if len(present) == 1 {
			errs = append(errs, validateResourceSource(spec.Resource.Name, "", false, spec.Resource.Target, fldPath.Child("resource"))...)
		}
	}
	if spec.ContainerResource != nil {
		present = append(present, "containerResource")
		if len(present) == 1 {
			c := spec.ContainerResource
			errs = append(errs, validateResourceSource(c.Name, c.Container, true, c.Target, fldPath.Child("containerResource"))...)
		}
	}
	expected := ""
	populated := map[string]bool{"object": spec.Object != nil, "external": spec.External != nil, "pods": spec.Pods != nil,
		"resource": spec.Resource != nil, "containerResource": spec.ContainerResource != nil}
	switch spec.Type {
	case api.ObjectMetricSourceType:
		expected = "object"
	case api.PodsMetricSourceType:
		expected = "pods"
	case api.ResourceMetricSourceType:
		expected = "resource"
	case api.ExternalMetricSourceType:
		expected = "external"
	case api.ContainerResourceMetricSourceType:
		expected = "containerResource"
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), spec.Type, validMetricSourceTypes))
	}
	if expected != "" && !populated[expected] {
		errs = append(errs, field.Required(fldPath.Child(expected), "must populate information for the given metric source"))
	}
	sorted := sortedCopy(present)
	for _, typ := range sorted {
		if typ != expected {
			errs = append(errs, field.Forbidden(fldPath.Child(typ), "must populate the given metric source only"))
		}
	}
	return errs
}

func validateMetricIdentifier(id api.MetricIdentifier, fldPath *field.Path) field.ErrorList {
	errs := validatePathSegment(id.Name, fldPath.Child("name"), "must specify a metric name")
	return append(errs, ValidateLabelSelector(id.Selector, fldPath.Child("selector"))...)
}

func validateMetricTarget(mt api.MetricTarget, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if mt.Type == "" {
		errs = append(errs, field.Required(fldPath.Child("type"), "must specify a metric target type"))
	}
	if mt.Type != api.UtilizationMetricType && mt.Type != api.ValueMetricType && mt.Type != api.AverageValueMetricType {
		errs = append(errs, field.Invalid(fldPath.Child("type"), mt.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if mt.Value != nil && mt.Value.Sign() != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("value"), qstr(mt.Value.String()), "must be positive"))
	}
	if mt.AverageValue != nil && mt.AverageValue.Sign() != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("averageValue"), qstr(mt.AverageValue.String()), "must be positive"))
	}
	if mt.AverageUtilization != nil && *mt.AverageUtilization < 1 {
		errs = append(errs, field.Invalid(fldPath.Child("averageUtilization"), *mt.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func validateObjectSource(src *api.ObjectMetricSource, fldPath *field.Path) field.ErrorList {
	errs := validateCrossVersionObjectReference(src.DescribedObject, fldPath.Child("describedObject"))
	errs = append(errs, validateMetricIdentifier(src.Metric, fldPath.Child("metric"))...)
	errs = append(errs, validateMetricTarget(src.Target, fldPath.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target").Child("value"), "must set either a target value or averageValue"))
	}
	return errs
}

func validateExternalSource(src *api.ExternalMetricSource, fldPath *field.Path) field.ErrorList {
	errs := validateMetricIdentifier(src.Metric, fldPath.Child("metric"))
	errs = append(errs, validateMetricTarget(src.Target, fldPath.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target").Child("value"), "must set either a target value for metric or a per-pod target"))
	}
	if src.Target.Value != nil && src.Target.AverageValue != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("target").Child("value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func validatePodsSource(src *api.PodsMetricSource, fldPath *field.Path) field.ErrorList {
	errs := validateMetricIdentifier(src.Metric, fldPath.Child("metric"))
	errs = append(errs, validateMetricTarget(src.Target, fldPath.Child("target"))...)
	if src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target").Child("averageValue"), "must specify a positive target averageValue"))
	}
	return errs
}

func validateResourceSource(name, container string, isContainer bool, target api.MetricTarget, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "must specify a resource name"))
	} else {
		errs = append(errs, validateContainerResourceName(name, fldPath.Child("name"))...)
	}
	if isContainer {
		if container == "" {
			errs = append(errs, field.Required(fldPath.Child("container"), "must specify a container"))
		} else {
			errs = append(errs, validateDNS1123Label(container, fldPath.Child("container"))...)
		}
	}
	errs = append(errs, validateMetricTarget(target, fldPath.Child("target"))...)
	if target.AverageUtilization == nil && target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target").Child("averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if target.AverageUtilization != nil && target.AverageValue != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("target").Child("averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateBehavior(b *api.HorizontalPodAutoscalerBehavior, fldPath *field.Path) field.ErrorList {
	if b == nil {
		return nil
	}
	errs := validateScalingRules(b.ScaleUp, fldPath.Child("scaleUp"))
	return append(errs, validateScalingRules(b.ScaleDown, fldPath.Child("scaleDown"))...)
}

func validateScalingRules(r *api.HPAScalingRules, fldPath *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil {
		if *w < 0 {
			errs = append(errs, field.Invalid(fldPath.Child("stabilizationWindowSeconds"), *w, "must be greater than or equal to zero"))
		}
		if *w > maxHPAStabilizationWindowSeconds {
			errs = append(errs, field.Invalid(fldPath.Child("stabilizationWindowSeconds"), *w,
				fmt.Sprintf("must be less than or equal to %v", maxHPAStabilizationWindowSeconds)))
		}
	}
	selects := []string{api.DisabledPolicySelect, api.MaxChangePolicySelect, api.MinChangePolicySelect}
	if sp := r.SelectPolicy; sp != nil && !contains(selects, *sp) {
		errs = append(errs, field.NotSupported(fldPath.Child("selectPolicy"), *sp, selects))
	}
	// Empty policies are defaulted before validation.
	for i, p := range r.Policies {
		pp := fldPath.Child("policies").Index(i)
		if p.Type != api.PodsScalingPolicy && p.Type != api.PercentScalingPolicy {
			errs = append(errs, field.NotSupported(pp.Child("type"), p.Type, []string{api.PercentScalingPolicy, api.PodsScalingPolicy}))
		}
		if p.Value <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), p.Value, "must be greater than zero"))
		}
		if p.PeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds, "must be greater than zero"))
		}
		if p.PeriodSeconds > maxHPAPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds, fmt.Sprintf("must be less than or equal to %v", maxHPAPeriodSeconds)))
		}
	}
	return errs
}

// ValidateScale checks a scale subresource body.
func ValidateScale(s *api.Scale) field.ErrorList {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	if s.Spec.Replicas < 0 {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("replicas"), s.Spec.Replicas, isNegativeErrorMsg))
	}
	return errs
}
