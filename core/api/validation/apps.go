package validation

import (
	"fmt"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/labels"
)

// intOrStringValue prints an IntOrString as upstream's %#v does
// (upstream's String method has a pointer receiver, so values print raw).
type intOrStringValue intstr.IntOrString

func (v intOrStringValue) String() string {
	return fmt.Sprintf("intstr.IntOrString{Type:%d, IntVal:%d, StrVal:%q}", v.Type, v.IntVal, v.StrVal)
}

func replicasOf(r *int32) int32 {
	if r == nil {
		return 1 // defaulted
	}
	return *r
}

// validateSelectorAndTemplate checks spec.selector (required, valid,
// non-empty) and that it selects the template's labels.
func validateSelectorAndTemplate(sel *api.LabelSelector, tmplLabels map[string]string, kind string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sel == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(sel, fldPath.Child("selector"))...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("selector"), sel, "empty selector is invalid for "+kind))
		}
	}
	s, err := labels.SelectorFromLabelSelector(sel)
	if err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), sel, "invalid label selector"))
	} else if !s.Empty() && !s.Matches(labels.Set(tmplLabels)) {
		errs = append(errs, field.Invalid(fldPath.Child("template").Child("metadata").Child("labels"), tmplLabels, "`selector` does not match template `labels`"))
	}
	return errs
}

// validatePodTemplateForController checks a template whose pods must
// always restart (ReplicaSet, Deployment, DaemonSet).
func validatePodTemplateForController(t *api.PodTemplateSpec, kind string, fldPath *field.Path) field.ErrorList {
	errs := ValidatePodTemplateSpec(t, fldPath)
	if rp := effectiveRestartPolicy(t.Spec.RestartPolicy); rp != api.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(fldPath.Child("spec").Child("restartPolicy"), rp, []string{api.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("spec").Child("activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}

// ValidateDeployment checks a new Deployment.
func ValidateDeployment(d *api.Deployment) field.ErrorList {
	errs := ValidateObjectMeta(&d.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDeploymentSpec(&d.Spec, field.NewPath("spec"))...)
}

// ValidateDeploymentUpdate checks an update; the selector is immutable in apps/v1.
func ValidateDeploymentUpdate(d, old *api.Deployment) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDeploymentSpec(&d.Spec, field.NewPath("spec"))...)
	return append(errs, ValidateImmutableField(d.Spec.Selector, old.Spec.Selector, field.NewPath("spec").Child("selector"))...)
}

func validateDeploymentSpec(spec *api.DeploymentSpec, fldPath *field.Path) field.ErrorList {
	errs := ValidateNonnegativeField(int64(replicasOf(spec.Replicas)), fldPath.Child("replicas"))
	if spec.Selector == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for deployment"))
		}
	}
	errs = append(errs, validateTemplateForReplicaSet(spec.Selector, &spec.Template, "ReplicaSet", fldPath)...)
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, fldPath.Child("strategy"))...)
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), fldPath.Child("revisionHistoryLimit"))...)
	}
	if spec.ProgressDeadlineSeconds != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.ProgressDeadlineSeconds), fldPath.Child("progressDeadlineSeconds"))...)
		if *spec.ProgressDeadlineSeconds <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(fldPath.Child("progressDeadlineSeconds"), *spec.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateTemplateForReplicaSet is upstream's ValidatePodTemplateSpecForReplicaSet,
// which Deployments share (and whose message names ReplicaSet for both).
func validateTemplateForReplicaSet(sel *api.LabelSelector, t *api.PodTemplateSpec, kind string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	s, err := labels.SelectorFromLabelSelector(sel)
	if err != nil {
		return field.ErrorList{field.Invalid(fldPath.Child("selector"), sel, "invalid label selector")}
	}
	tp := fldPath.Child("template")
	if !s.Empty() && !s.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(tp.Child("metadata").Child("labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	return append(errs, validatePodTemplateForController(t, kind, tp)...)
}

// deploymentStrategyValue prints a strategy as upstream's %#v of apps.DeploymentStrategy.
type deploymentStrategyValue api.DeploymentStrategy

func (s deploymentStrategyValue) String() string {
	ru := "(*apps.RollingUpdateDeployment)(nil)"
	if s.RollingUpdate != nil {
		ru = "&apps.RollingUpdateDeployment{...}"
	}
	return fmt.Sprintf("apps.DeploymentStrategy{Type:%q, RollingUpdate:%s}", s.Type, ru)
}

var defaultRollingPercent = intstr.FromString("25%")

func validateDeploymentStrategy(s *api.DeploymentStrategy, fldPath *field.Path) field.ErrorList {
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(fldPath.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case api.RollingUpdateDeploymentStrategyType, "":
		// An empty type and absent fields are defaulted to RollingUpdate 25%/25%.
		mu, ms := defaultRollingPercent, defaultRollingPercent
		if ru := s.RollingUpdate; ru != nil {
			if ru.MaxUnavailable != nil {
				mu = *ru.MaxUnavailable
			}
			if ru.MaxSurge != nil {
				ms = *ru.MaxSurge
			}
		}
		p := fldPath.Child("rollingUpdate")
		errs := validatePositiveIntOrPercent(mu, p.Child("maxUnavailable"))
		errs = append(errs, validatePositiveIntOrPercent(ms, p.Child("maxSurge"))...)
		if intOrPercentValue(mu) == 0 && intOrPercentValue(ms) == 0 {
			errs = append(errs, field.Invalid(p.Child("maxUnavailable"), intOrStringValue(mu), "may not be 0 when `maxSurge` is 0"))
		}
		return append(errs, isNotMoreThan100Percent(mu, p.Child("maxUnavailable"))...)
	default:
		return field.ErrorList{field.NotSupported(fldPath, deploymentStrategyValue(*s),
			[]string{api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType})}
	}
	return nil
}

func validatePositiveIntOrPercent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if v.Type == intstr.String {
		var errs field.ErrorList
		for _, m := range IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(fldPath, intOrStringValue(v), m))
		}
		return errs
	}
	return ValidateNonnegativeField(int64(v.IntVal), fldPath)
}

func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

// intOrPercentValue is the percent, or the int; a malformed string is 0
// (upstream's IntValue of a string that is not a number).
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.Type == intstr.String {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

func isNotMoreThan100Percent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{field.Invalid(fldPath, intOrStringValue(v), "must not be greater than 100%")}
	}
	return nil
}

// ValidateReplicaSet checks a new ReplicaSet.
func ValidateReplicaSet(rs *api.ReplicaSet) field.ErrorList {
	errs := ValidateObjectMeta(&rs.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"))...)
}

// ValidateReplicaSetUpdate checks an update; the selector is immutable in apps/v1.
func ValidateReplicaSetUpdate(rs, old *api.ReplicaSet) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, field.NewPath("spec"))...)
	return append(errs, ValidateImmutableField(rs.Spec.Selector, old.Spec.Selector, field.NewPath("spec").Child("selector"))...)
}

func validateReplicaSetSpec(spec *api.ReplicaSetSpec, fldPath *field.Path) field.ErrorList {
	errs := ValidateNonnegativeField(int64(replicasOf(spec.Replicas)), fldPath.Child("replicas"))
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if spec.Selector == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			// Upstream's ReplicaSet message says "deployment" too.
			errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for deployment"))
		}
	}
	return append(errs, validateTemplateForReplicaSet(spec.Selector, &spec.Template, "ReplicaSet", fldPath)...)
}

// ValidateStatefulSet checks a new StatefulSet (whose name must be a DNS label).
func ValidateStatefulSet(ss *api.StatefulSet) field.ErrorList {
	errs := ValidateObjectMeta(&ss.ObjectMeta, true, NameIsDNSLabel, field.NewPath("metadata"))
	return append(errs, validateStatefulSetSpec(&ss.Spec, field.NewPath("spec"))...)
}

func validateStatefulSetSpec(spec *api.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch spec.PodManagementPolicy {
	case "", api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		errs = append(errs, field.Invalid(fldPath.Child("podManagementPolicy"), spec.PodManagementPolicy,
			fmt.Sprintf("must be '%s' or '%s'", api.OrderedReadyPodManagement, api.ParallelPodManagement)))
	}
	switch spec.UpdateStrategy.Type {
	case "":
	case api.OnDeleteStatefulSetStrategyType:
		if spec.UpdateStrategy.RollingUpdate != nil {
			errs = append(errs, field.Invalid(fldPath.Child("updateStrategy").Child("rollingUpdate"), rollingUpdateStatefulSetValue{},
				fmt.Sprintf("only allowed for updateStrategy '%s'", api.RollingUpdateStatefulSetStrategyType)))
		}
	case api.RollingUpdateStatefulSetStrategyType:
		if ru := spec.UpdateStrategy.RollingUpdate; ru != nil {
			p := fldPath.Child("updateStrategy").Child("rollingUpdate")
			if ru.Partition != nil {
				errs = append(errs, ValidateNonnegativeField(int64(*ru.Partition), p.Child("partition"))...)
			}
			if ru.MaxUnavailable != nil {
				mp := p.Child("maxUnavailable")
				errs = append(errs, validatePositiveIntOrPercent(*ru.MaxUnavailable, mp)...)
				if intOrPercentValue(*ru.MaxUnavailable) == 0 {
					errs = append(errs, field.Invalid(mp, intOrStringValue(*ru.MaxUnavailable), "cannot be 0"))
				}
				errs = append(errs, isNotMoreThan100Percent(*ru.MaxUnavailable, mp)...)
			}
		}
	default:
		errs = append(errs, field.Invalid(fldPath.Child("updateStrategy"), statefulSetStrategyValue(spec.UpdateStrategy),
			fmt.Sprintf("must be '%s' or '%s'", api.RollingUpdateStatefulSetStrategyType, api.OnDeleteStatefulSetStrategyType)))
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		valid := []string{api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType}
		for _, f := range []struct{ name, v string }{{"whenDeleted", p.WhenDeleted}, {"whenScaled", p.WhenScaled}} {
			// Empty values are defaulted to Retain.
			if f.v != "" && !contains(valid, f.v) {
				errs = append(errs, field.NotSupported(fldPath.Child("persistentVolumeClaimRetentionPolicy").Child(f.name), f.v, valid))
			}
		}
	}
	errs = append(errs, ValidateNonnegativeField(int64(replicasOf(spec.Replicas)), fldPath.Child("replicas"))...)
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if spec.Ordinals != nil {
		errs = append(errs, ValidateNonnegativeField(int64(spec.Ordinals.Start), fldPath.Child("ordinals.start"))...)
	}
	if spec.Selector == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for statefulset"))
		}
	}
	s, err := labels.SelectorFromLabelSelector(spec.Selector)
	tp := fldPath.Child("template")
	if err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, ""))
	} else {
		if !s.Empty() && !s.Matches(labels.Set(spec.Template.Labels)) {
			errs = append(errs, field.Invalid(tp.Child("metadata").Child("labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
		}
		// Upstream checks only the template's labels and annotations here,
		// not its pod spec.
		errs = append(errs, ValidateLabels(spec.Template.Labels, tp.Child("labels"))...)
		errs = append(errs, ValidateAnnotations(spec.Template.Annotations, tp.Child("annotations"))...)
		errs = append(errs, validatePodSpecificAnnotations(spec.Template.Annotations, &spec.Template.Spec, tp.Child("annotations"))...)
	}
	if rp := effectiveRestartPolicy(spec.Template.Spec.RestartPolicy); rp != api.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(tp.Child("spec").Child("restartPolicy"), rp, []string{api.RestartPolicyAlways}))
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(tp.Child("spec").Child("activeDeadlineSeconds"), "activeDeadlineSeconds in StatefulSet is not Supported"))
	}
	return errs
}

type rollingUpdateStatefulSetValue struct{}

func (rollingUpdateStatefulSetValue) String() string {
	return "&apps.RollingUpdateStatefulSetStrategy{...}"
}

type statefulSetStrategyValue api.StatefulSetUpdateStrategy

func (s statefulSetStrategyValue) String() string {
	ru := "(*apps.RollingUpdateStatefulSetStrategy)(nil)"
	if s.RollingUpdate != nil {
		ru = "&apps.RollingUpdateStatefulSetStrategy{...}"
	}
	return fmt.Sprintf("apps.StatefulSetUpdateStrategy{Type:%q, RollingUpdate:%s}", s.Type, ru)
}

// ValidateStatefulSetUpdate checks an update: only replicas, ordinals,
// template, updateStrategy, persistentVolumeClaimRetentionPolicy and
// minReadySeconds may change.
func ValidateStatefulSetUpdate(ss, old *api.StatefulSet) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, field.NewPath("spec"))...)
	clone := *ss.Spec.DeepCopy()
	clone.Replicas = old.Spec.Replicas
	clone.Template = old.Spec.Template
	clone.UpdateStrategy = old.Spec.UpdateStrategy
	clone.MinReadySeconds = old.Spec.MinReadySeconds
	clone.Ordinals = old.Spec.Ordinals
	clone.PersistentVolumeClaimRetentionPolicy = old.Spec.PersistentVolumeClaimRetentionPolicy
	if !api.SemanticEqual(clone, old.Spec) {
		errs = append(errs, field.Forbidden(field.NewPath("spec"),
			"updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
	}
	return errs
}

// ValidateDaemonSet checks a new DaemonSet.
func ValidateDaemonSet(ds *api.DaemonSet) field.ErrorList {
	errs := ValidateObjectMeta(&ds.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"))...)
}

// ValidateDaemonSetUpdate checks an update; the selector is immutable in apps/v1.
func ValidateDaemonSetUpdate(ds, old *api.DaemonSet) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDaemonSetSpec(&ds.Spec, field.NewPath("spec"))...)
	return append(errs, ValidateImmutableField(ds.Spec.Selector, old.Spec.Selector, field.NewPath("spec").Child("selector"))...)
}

type daemonSetStrategyValue api.DaemonSetUpdateStrategy

func (s daemonSetStrategyValue) String() string {
	ru := "(*apps.RollingUpdateDaemonSet)(nil)"
	if s.RollingUpdate != nil {
		ru = "&apps.RollingUpdateDaemonSet{...}"
	}
	return fmt.Sprintf("apps.DaemonSetUpdateStrategy{Type:%q, RollingUpdate:%s}", s.Type, ru)
}

func validateDaemonSetSpec(spec *api.DaemonSetSpec, fldPath *field.Path) field.ErrorList {
	errs := ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))
	if s, err := labels.SelectorFromLabelSelector(spec.Selector); err == nil && !s.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("template").Child("metadata").Child("labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validatePodTemplateForController(&spec.Template, "DaemonSet", fldPath.Child("template"))...)
	errs = append(errs, ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	p := fldPath.Child("updateStrategy")
	switch st := spec.UpdateStrategy; st.Type {
	case api.OnDeleteDaemonSetStrategyType:
	case api.RollingUpdateDaemonSetStrategyType, "":
		// Defaulted: maxUnavailable 1, maxSurge 0.
		mu, ms := intstr.FromInt(1), intstr.FromInt(0)
		if ru := st.RollingUpdate; ru != nil {
			if ru.MaxUnavailable != nil {
				mu = *ru.MaxUnavailable
			}
			if ru.MaxSurge != nil {
				ms = *ru.MaxSurge
			}
		}
		rp := p.Child("rollingUpdate")
		errs = append(errs, validatePositiveIntOrPercent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, validatePositiveIntOrPercent(ms, rp.Child("maxSurge"))...)
		errs = append(errs, isNotMoreThan100Percent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, isNotMoreThan100Percent(ms, rp.Child("maxSurge"))...)
		hasU, hasS := intOrPercentValue(mu) != 0, intOrPercentValue(ms) != 0
		switch {
		case hasU && hasS:
			errs = append(errs, field.Invalid(rp.Child("maxSurge"), intOrStringValue(ms), "may not be set when maxUnavailable is non-zero"))
		case !hasU && !hasS:
			errs = append(errs, field.Required(rp.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
		}
	default:
		errs = append(errs, field.NotSupported(p, daemonSetStrategyValue(st), []string{api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType}))
	}
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.RevisionHistoryLimit), fldPath.Child("revisionHistoryLimit"))...)
	}
	return errs
}

// ValidateControllerRevision checks a ControllerRevision.
func ValidateControllerRevision(r *api.ControllerRevision) field.ErrorList {
	errs := ValidateObjectMeta(&r.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, ValidateNonnegativeField(r.Revision, field.NewPath("revision"))...)
}
