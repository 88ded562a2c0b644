package validation

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"kubeplay/core/api"
	"kubeplay/core/api/cron"
	"kubeplay/core/api/field"
	"kubeplay/core/api/labels"
)

const (
	maxParallelismForIndexedJob   = 100000
	maxFailedIndexesForIndexedJob = 100000
	maxPodFailurePolicyRules      = 20
	maxManagedByLength            = 63
)

// isAutoSelector: the API server generates the selector unless
// manualSelector is true.
func isAutoSelector(spec *api.JobSpec) bool {
	return spec.ManualSelector == nil || !*spec.ManualSelector
}

// selectorGenerated tells whether the API server has already generated the
// selector and labels (it adds batch.kubernetes.io/controller-uid).
func selectorGenerated(job *api.Job) bool {
	s := job.Spec.Selector
	if s == nil {
		return false
	}
	_, ok := s.MatchLabels[api.ControllerUidLabel]
	return ok
}

func validateHasLabel(meta *api.ObjectMeta, fldPath *field.Path, key, expected string) field.ErrorList {
	actual, ok := meta.Labels[key]
	if !ok {
		return field.ErrorList{field.Required(fldPath.Child("labels").Key(key), fmt.Sprintf("must be '%s'", expected))}
	}
	if actual != expected {
		return field.ErrorList{field.Invalid(fldPath.Child("labels").Key(key), meta.Labels, fmt.Sprintf("must be '%s'", expected))}
	}
	return nil
}

// validateGeneratedSelector checks the generated selector and template
// labels. A selector the user gave without manualSelector, which the API
// server did not replace, is reported as not auto-generated.
func validateGeneratedSelector(job *api.Job) field.ErrorList {
	if !isAutoSelector(&job.Spec) || job.Spec.Selector == nil {
		return nil
	}
	selPath := field.NewPath("spec").Child("selector")
	if !selectorGenerated(job) {
		return field.ErrorList{field.Invalid(selPath, job.Spec.Selector, "`selector` not auto-generated")}
	}
	var errs field.ErrorList
	uid := job.UID
	if uid == "" {
		// The API server assigns the uid alongside the generated selector.
		uid = job.Spec.Selector.MatchLabels[api.ControllerUidLabel]
	}
	mp := field.NewPath("spec").Child("template").Child("metadata")
	errs = append(errs, validateHasLabel(&job.Spec.Template.ObjectMeta, mp, api.LegacyControllerUidLabel, uid)...)
	errs = append(errs, validateHasLabel(&job.Spec.Template.ObjectMeta, mp, api.LegacyJobNameLabel, job.Name)...)
	errs = append(errs, validateHasLabel(&job.Spec.Template.ObjectMeta, mp, api.ControllerUidLabel, uid)...)
	errs = append(errs, validateHasLabel(&job.Spec.Template.ObjectMeta, mp, api.JobNameLabel, job.Name)...)
	expected := labels.Set{
		api.ControllerUidLabel: uid, api.JobNameLabel: job.Name,
		api.LegacyControllerUidLabel: uid, api.LegacyJobNameLabel: job.Name,
	}
	if s, err := labels.SelectorFromLabelSelector(job.Spec.Selector); err == nil && !s.Matches(expected) {
		errs = append(errs, field.Invalid(selPath, job.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// ValidateJob checks a new Job.
func ValidateJob(job *api.Job) field.ErrorList {
	errs := ValidateObjectMeta(&job.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateGeneratedSelector(job)...)
	errs = append(errs, validateJobSpecWithSelector(&job.Spec, field.NewPath("spec"))...)
	if cm := job.Spec.CompletionMode; cm != nil && *cm == api.IndexedCompletion && job.Spec.Completions != nil && *job.Spec.Completions > 0 {
		host := fmt.Sprintf("%s-%d", job.Name, *job.Spec.Completions-1)
		if len(IsDNS1123Label(host)) > 0 {
			errs = append(errs, field.Invalid(field.NewPath("metadata").Child("name"), job.Name,
				"will not able to create pod with invalid DNS label: "+host))
		}
	}
	return errs
}

func validateJobSpecWithSelector(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	errs := validateJobSpec(spec, fldPath)
	if spec.Selector == nil {
		if isAutoSelector(spec) {
			// Not generated (yet) by the API server: nothing to check.
			return errs
		}
		errs = append(errs, field.Required(fldPath.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.Child("selector"))...)
	}
	if s, err := labels.SelectorFromLabelSelector(spec.Selector); err == nil && !s.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("template").Child("metadata").Child("labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	return errs
}

func validateJobSpec(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	nonneg := func(v *int32, name string) {
		if v != nil {
			errs = append(errs, ValidateNonnegativeField(int64(*v), fldPath.Child(name))...)
		}
	}
	nonneg(spec.Parallelism, "parallelism")
	nonneg(spec.Completions, "completions")
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, ValidateNonnegativeField(*spec.ActiveDeadlineSeconds, fldPath.Child("activeDeadlineSeconds"))...)
	}
	nonneg(spec.BackoffLimit, "backoffLimit")
	nonneg(spec.TTLSecondsAfterFinished, "ttlSecondsAfterFinished")
	nonneg(spec.BackoffLimitPerIndex, "backoffLimitPerIndex")
	if spec.MaxFailedIndexes != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.MaxFailedIndexes), fldPath.Child("maxFailedIndexes"))...)
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Required(fldPath.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
	}
	if spec.ManagedBy != nil {
		errs = append(errs, validateDomainPrefixedPath(fldPath.Child("managedBy"), *spec.ManagedBy)...)
		if len(*spec.ManagedBy) > maxManagedByLength {
			errs = append(errs, field.TooLong(fldPath.Child("managedBy"), "", maxManagedByLength))
		}
	}
	indexed := spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion
	if cm := spec.CompletionMode; cm != nil {
		if *cm != api.NonIndexedCompletion && *cm != api.IndexedCompletion {
			errs = append(errs, field.NotSupported(fldPath.Child("completionMode"), *cm, []string{api.NonIndexedCompletion, api.IndexedCompletion}))
		}
		if indexed {
			if spec.Completions == nil {
				errs = append(errs, field.Required(fldPath.Child("completions"), "when completion mode is Indexed"))
			}
			if spec.Parallelism != nil && *spec.Parallelism > maxParallelismForIndexedJob {
				errs = append(errs, field.Invalid(fldPath.Child("parallelism"), *spec.Parallelism,
					fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismForIndexedJob)))
			}
			if spec.Completions != nil && spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > *spec.Completions {
				errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "must be less than or equal to completions"))
			}
			if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexesForIndexedJob {
				errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes,
					fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesForIndexedJob)))
			}
		}
	}
	if !indexed {
		if spec.BackoffLimitPerIndex != nil {
			errs = append(errs, field.Invalid(fldPath.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			errs = append(errs, field.Invalid(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	if spec.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(spec, fldPath.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if !indexed {
			errs = append(errs, field.Invalid(fldPath.Child("successPolicy"), goValue{*spec.SuccessPolicy}, "requires indexed completion mode"))
		} else {
			errs = append(errs, validateSuccessPolicy(spec, fldPath.Child("successPolicy"))...)
		}
	}
	if rp := spec.PodReplacementPolicy; rp != nil {
		p := fldPath.Child("podReplacementPolicy")
		if spec.PodFailurePolicy != nil {
			if *rp != api.PodReplacementPolicyFailed {
				errs = append(errs, field.NotSupported(p, *rp, []string{api.PodReplacementPolicyFailed}))
			}
		} else if *rp != api.PodReplacementPolicyFailed && *rp != api.PodReplacementPolicyTerminatingOrFailed {
			errs = append(errs, field.NotSupported(p, *rp, []string{api.PodReplacementPolicyFailed, api.PodReplacementPolicyTerminatingOrFailed}))
		}
	}
	errs = append(errs, ValidatePodTemplateSpec(&spec.Template, fldPath.Child("template"))...)
	rpPath := fldPath.Child("template").Child("spec").Child("restartPolicy")
	switch rp := effectiveRestartPolicy(spec.Template.Spec.RestartPolicy); {
	case rp == api.RestartPolicyAlways:
		// Defaulting turns an unset policy into Always.
		errs = append(errs, field.Required(rpPath, fmt.Sprintf("valid values: %q, %q", api.RestartPolicyOnFailure, api.RestartPolicyNever)))
	case rp != api.RestartPolicyOnFailure && rp != api.RestartPolicyNever:
		errs = append(errs, field.NotSupported(rpPath, rp, []string{api.RestartPolicyOnFailure, api.RestartPolicyNever}))
	case spec.PodFailurePolicy != nil && rp != api.RestartPolicyNever:
		errs = append(errs, field.Invalid(rpPath, rp, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", api.RestartPolicyNever)))
	}
	return errs
}

var httpPathRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$`) })

func validateDomainPrefixedPath(fldPath *field.Path, p string) field.ErrorList {
	if p == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	segs := strings.SplitN(p, "/", 2)
	if len(segs) != 2 || segs[0] == "" || segs[1] == "" {
		return field.ErrorList{field.Invalid(fldPath, p, "must be a domain-prefixed path (such as \"acme.io/foo\")")}
	}
	var errs field.ErrorList
	for _, m := range IsDNS1123Subdomain(segs[0]) {
		errs = append(errs, field.Invalid(fldPath, segs[0], m))
	}
	if !httpPathRe().MatchString(segs[1]) {
		return append(errs, field.Invalid(fldPath, segs[1], regexError("Invalid path", `[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`)))
	}
	return errs
}

var (
	podFailurePolicyActions = []string{api.PodFailurePolicyActionCount, api.PodFailurePolicyActionFailIndex,
		api.PodFailurePolicyActionFailJob, api.PodFailurePolicyActionIgnore}
	onExitCodesOperators = []string{api.PodFailurePolicyOnExitCodesOpIn, api.PodFailurePolicyOnExitCodesOpNotIn}
	conditionStatuses    = []string{api.ConditionFalse, api.ConditionTrue, api.ConditionUnknown}
)

// quotedList prints a list as %q of a []string: ["a" "b"].
func quotedList(list []string) string { return fmt.Sprintf("%q", list) }

func validatePodFailurePolicy(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rulesPath := fldPath.Child("rules")
	if n := len(spec.PodFailurePolicy.Rules); n > maxPodFailurePolicyRules {
		errs = append(errs, field.TooMany(rulesPath, n, maxPodFailurePolicyRules))
	}
	containers := map[string]bool{}
	for _, c := range spec.Template.Spec.Containers {
		containers[c.Name] = true
	}
	for _, c := range spec.Template.Spec.InitContainers {
		containers[c.Name] = true
	}
	for i, rule := range spec.PodFailurePolicy.Rules {
		rp := rulesPath.Index(i)
		ap := rp.Child("action")
		switch {
		case rule.Action == "":
			errs = append(errs, field.Required(ap, "valid values: "+quotedList(podFailurePolicyActions)))
		case rule.Action == api.PodFailurePolicyActionFailIndex:
			if spec.BackoffLimitPerIndex == nil {
				errs = append(errs, field.Invalid(ap, rule.Action, "requires the backoffLimitPerIndex to be set"))
			}
		case !contains(podFailurePolicyActions, rule.Action):
			errs = append(errs, field.NotSupported(ap, rule.Action, podFailurePolicyActions))
		}
		if oe := rule.OnExitCodes; oe != nil {
			p := rp.Child("onExitCodes")
			if oe.Operator == "" {
				errs = append(errs, field.Required(p.Child("operator"), "valid values: "+quotedList(onExitCodesOperators)))
			} else if !contains(onExitCodesOperators, oe.Operator) {
				errs = append(errs, field.NotSupported(p.Child("operator"), oe.Operator, onExitCodesOperators))
			}
			if oe.ContainerName != nil && !containers[*oe.ContainerName] {
				errs = append(errs, field.Invalid(p.Child("containerName"), *oe.ContainerName, "must be one of the container or initContainer names in the pod template"))
			}
			vp := p.Child("values")
			if len(oe.Values) == 0 {
				errs = append(errs, field.Invalid(vp, oe.Values, "at least one value is required"))
			} else if len(oe.Values) > 255 {
				errs = append(errs, field.TooMany(vp, len(oe.Values), 255))
			}
			ordered := true
			seen := map[int32]bool{}
			for j, v := range oe.Values {
				if oe.Operator == api.PodFailurePolicyOnExitCodesOpIn && v == 0 {
					errs = append(errs, field.Invalid(vp.Index(j), v, "must not be 0 for the In operator"))
				}
				if seen[v] {
					errs = append(errs, field.Duplicate(vp.Index(j), v))
				}
				seen[v] = true
				if j > 0 && oe.Values[j-1] > v {
					ordered = false
				}
			}
			if !ordered {
				errs = append(errs, field.Invalid(vp, oe.Values, "must be ordered"))
			}
		}
		if len(rule.OnPodConditions) > 0 {
			p := rp.Child("onPodConditions")
			if len(rule.OnPodConditions) > 20 {
				errs = append(errs, field.TooMany(p, len(rule.OnPodConditions), 20))
			}
			for j, pat := range rule.OnPodConditions {
				pp := p.Index(j)
				errs = append(errs, validateQualifiedName(pat.Type, pp.Child("type"))...)
				if pat.Status == "" {
					errs = append(errs, field.Required(pp.Child("status"), "valid values: "+quotedList(conditionStatuses)))
				} else if !contains(conditionStatuses, pat.Status) {
					errs = append(errs, field.NotSupported(pp.Child("status"), pat.Status, conditionStatuses))
				}
			}
		}
		if rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0 {
			errs = append(errs, field.Invalid(rp, nil, "specifying both OnExitCodes and OnPodConditions is not supported").Omit())
		}
		if rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0 {
			errs = append(errs, field.Invalid(rp, nil, "specifying one of OnExitCodes and OnPodConditions is required").Omit())
		}
	}
	return errs
}

func validateSuccessPolicy(spec *api.JobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rulesPath := fldPath.Child("rules")
	if len(spec.SuccessPolicy.Rules) == 0 {
		errs = append(errs, field.Required(rulesPath, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(spec.SuccessPolicy.Rules) > 20 {
		errs = append(errs, field.TooMany(rulesPath, len(spec.SuccessPolicy.Rules), 20))
	}
	completions := int32(0)
	if spec.Completions != nil {
		completions = *spec.Completions
	}
	for i, rule := range spec.SuccessPolicy.Rules {
		rp := rulesPath.Index(i)
		if rule.SucceededCount == nil && rule.SucceededIndexes == nil {
			errs = append(errs, field.Required(rp, "at least one of succeededCount or succeededIndexes must be specified"))
		}
		var total int32
		if rule.SucceededIndexes != nil {
			var err error
			if total, err = validateIndexesFormat(*rule.SucceededIndexes, completions); err != nil {
				errs = append(errs, field.Invalid(rp.Child("succeededIndexes"), *rule.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
			}
		}
		if rule.SucceededCount != nil {
			cp := rp.Child("succeededCount")
			errs = append(errs, ValidateNonnegativeField(int64(*rule.SucceededCount), cp)...)
			if *rule.SucceededCount > completions {
				errs = append(errs, field.Invalid(cp, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", completions)))
			}
			if rule.SucceededIndexes != nil && *rule.SucceededCount > total {
				errs = append(errs, field.Invalid(cp, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
			}
		}
	}
	return errs
}

func validateIndexesFormat(s string, completions int32) (int32, error) {
	if s == "" {
		return 0, nil
	}
	var last *int32
	var total int32
	for _, iv := range strings.Split(s, ",") {
		x, y, err := parseIndexInterval(iv, completions)
		if err != nil {
			return 0, err
		}
		if last != nil && *last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", *last, x)
		}
		total += y - x + 1
		last = &y
	}
	return total, nil
}

func parseIndexInterval(s string, completions int32) (int32, int32, error) {
	limits := strings.Split(s, "-")
	if len(limits) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", s)
	}
	x, err := strconv.Atoi(limits[0])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[0])
	}
	if x >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[0])
	}
	if len(limits) == 1 {
		return int32(x), int32(x), nil
	}
	y, err := strconv.Atoi(limits[1])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[1])
	}
	if y >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[1])
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return int32(x), int32(y), nil
}

// ValidateJobUpdate checks an update: selector, completions (unless
// indexed) and template are immutable; a suspended job that never started
// may change its scheduling directives.
func ValidateJobUpdate(job, old *api.Job) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	spec, oldSpec := &job.Spec, &old.Spec
	fldPath := field.NewPath("spec")
	errs = append(errs, validateJobSpecWithSelector(spec, fldPath)...)
	indexed := spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion
	if !indexed {
		errs = append(errs, ValidateImmutableField(spec.Completions, oldSpec.Completions, fldPath.Child("completions"))...)
	} else if !api.SemanticEqual(spec.Completions, oldSpec.Completions) && spec.Completions != nil &&
		(spec.Parallelism == nil || *spec.Completions != *spec.Parallelism) {
		errs = append(errs, field.Invalid(fldPath.Child("completions"), *spec.Completions, "can only be modified in tandem with spec.parallelism"))
	}
	errs = append(errs, ValidateImmutableField(spec.Selector, oldSpec.Selector, fldPath.Child("selector"))...)
	oldT := *oldSpec.Template.DeepCopy()
	suspended := spec.Suspend != nil && *spec.Suspend
	if suspended && old.Status.StartTime == nil {
		t := &spec.Template
		switch {
		case t.Spec.Affinity == nil && oldT.Spec.Affinity != nil:
			oldT.Spec.Affinity.NodeAffinity = nil
			if *oldT.Spec.Affinity == (api.Affinity{}) {
				oldT.Spec.Affinity = nil
			}
		case t.Spec.Affinity != nil && oldT.Spec.Affinity == nil:
			oldT.Spec.Affinity = &api.Affinity{NodeAffinity: t.Spec.Affinity.NodeAffinity}
		case t.Spec.Affinity != nil && oldT.Spec.Affinity != nil:
			oldT.Spec.Affinity.NodeAffinity = t.Spec.Affinity.NodeAffinity
		}
		oldT.Spec.NodeSelector = t.Spec.NodeSelector
		oldT.Spec.Tolerations = t.Spec.Tolerations
		oldT.Annotations = t.Annotations
		oldT.Labels = t.Labels
		oldT.Spec.SchedulingGates = t.Spec.SchedulingGates
	}
	if !api.SemanticEqual(spec.Template, oldT) {
		errs = append(errs, field.Invalid(fldPath.Child("template"), goValue{spec.Template}, fieldImmutableErrorMsg))
	}
	for _, f := range []struct {
		name     string
		new, old any
	}{
		{"completionMode", spec.CompletionMode, oldSpec.CompletionMode},
		{"podFailurePolicy", spec.PodFailurePolicy, oldSpec.PodFailurePolicy},
		{"backoffLimitPerIndex", spec.BackoffLimitPerIndex, oldSpec.BackoffLimitPerIndex},
		{"managedBy", spec.ManagedBy, oldSpec.ManagedBy},
		{"successPolicy", spec.SuccessPolicy, oldSpec.SuccessPolicy},
	} {
		if !api.SemanticEqual(f.new, f.old) {
			errs = append(errs, field.Invalid(fldPath.Child(f.name), goValue{f.new}, fieldImmutableErrorMsg))
		}
	}
	return errs
}

// ValidateCronJob checks a new CronJob.
func ValidateCronJob(cj *api.CronJob) field.ErrorList {
	errs := ValidateObjectMeta(&cj.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateCronJobSpec(&cj.Spec, nil, field.NewPath("spec"))...)
	// Job names get an 11-character suffix (-<timestamp>).
	if max := dns1035LabelMaxLen - 11; len(cj.Name) > max {
		errs = append(errs, field.Invalid(field.NewPath("metadata").Child("name"), cj.Name, maxLenError(max)))
	}
	return errs
}

// ValidateCronJobUpdate checks an update.
func ValidateCronJobUpdate(cj, old *api.CronJob) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&cj.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateCronJobSpec(&cj.Spec, &old.Spec, field.NewPath("spec"))...)
}

func validateCronJobSpec(spec, oldSpec *api.CronJobSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	sp := fldPath.Child("schedule")
	if spec.Schedule == "" {
		errs = append(errs, field.Required(sp, ""))
	} else {
		if _, err := cron.Parse(spec.Schedule); err != nil {
			errs = append(errs, field.Invalid(sp, spec.Schedule, err.Error()))
		}
		allowTZ := oldSpec != nil && strings.Contains(oldSpec.Schedule, "TZ")
		switch {
		case allowTZ && strings.Contains(spec.Schedule, "TZ") && spec.TimeZone != nil:
			errs = append(errs, field.Invalid(sp, spec.Schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
		case !allowTZ && strings.Contains(spec.Schedule, "TZ"):
			errs = append(errs, field.Invalid(sp, spec.Schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
		}
	}
	if spec.StartingDeadlineSeconds != nil {
		errs = append(errs, ValidateNonnegativeField(*spec.StartingDeadlineSeconds, fldPath.Child("startingDeadlineSeconds"))...)
	}
	if oldSpec == nil || !api.SemanticEqual(oldSpec.TimeZone, spec.TimeZone) {
		errs = append(errs, validateTimeZone(spec.TimeZone, fldPath.Child("timeZone"))...)
	}
	switch cp := spec.ConcurrencyPolicy; cp {
	case "", api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent:
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("concurrencyPolicy"), cp, []string{api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent}))
	}
	jt := fldPath.Child("jobTemplate")
	errs = append(errs, validateJobSpec(&spec.JobTemplate.Spec, jt.Child("spec"))...)
	if spec.JobTemplate.Spec.Selector != nil {
		errs = append(errs, field.Invalid(jt.Child("spec").Child("selector"), spec.JobTemplate.Spec.Selector, "`selector` will be auto-generated"))
	}
	if ms := spec.JobTemplate.Spec.ManualSelector; ms != nil && *ms {
		errs = append(errs, field.NotSupported(jt.Child("spec").Child("manualSelector"), *ms, []string{"nil", "false"}))
	}
	if spec.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.SuccessfulJobsHistoryLimit), fldPath.Child("successfulJobsHistoryLimit"))...)
	}
	if spec.FailedJobsHistoryLimit != nil {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.FailedJobsHistoryLimit), fldPath.Child("failedJobsHistoryLimit"))...)
	}
	return errs
}

var validTimeZoneChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`) })

func validateTimeZone(tz *string, fldPath *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(fldPath, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneChars().MatchString(part) {
			return field.ErrorList{field.Invalid(fldPath, tz, "unknown time zone "+*tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, field.Invalid(fldPath, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := cron.LoadLocation(*tz); err != nil {
		errs = append(errs, field.Invalid(fldPath, tz, err.Error()))
	}
	return errs
}
