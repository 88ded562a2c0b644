package validation

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidatePodSpec checks a pod spec (of a Pod, or embedded in a template;
// podMeta is nil for templates).
func ValidatePodSpec(spec *api.PodSpec, podMeta *api.ObjectMeta, fldPath *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	gracePeriod := spec.TerminationGracePeriodSeconds
	if gracePeriod == nil {
		d := int64(api.DefaultTerminationGracePeriodSeconds)
		gracePeriod = &d
	}
	hostUsers := spec.HostUsers == nil || *spec.HostUsers
	restartPolicy := spec.RestartPolicy

	vols, vErrs := ValidateVolumes(spec.Volumes, podMeta, fldPath.Child("volumes"), opts)
	errs = append(errs, vErrs...)
	claimNames := map[string]bool{}
	for _, c := range spec.ResourceClaims {
		if c.Name != "" {
			claimNames[c.Name] = true
		}
	}
	errs = append(errs, validatePodResourceClaims(spec.ResourceClaims, fldPath.Child("resourceClaims"))...)
	errs = append(errs, validateContainers(spec.Containers, vols, claimNames, gracePeriod, fldPath.Child("containers"), restartPolicy, hostUsers)...)
	errs = append(errs, validateInitContainers(spec.InitContainers, spec.Containers, vols, claimNames, gracePeriod, fldPath.Child("initContainers"), restartPolicy, hostUsers)...)
	errs = append(errs, validateEphemeralContainers(spec, vols, claimNames, fldPath.Child("ephemeralContainers"), hostUsers)...)
	errs = append(errs, validatePodHostNetworkDeps(spec, fldPath, opts)...)
	errs = append(errs, validateRestartPolicy(spec.RestartPolicy, fldPath.Child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(spec.DNSPolicy, fldPath.Child("dnsPolicy"))...)
	errs = append(errs, ValidateLabels(spec.NodeSelector, fldPath.Child("nodeSelector"))...)
	errs = append(errs, validatePodSecurityContext(spec, fldPath.Child("securityContext"))...)
	errs = append(errs, validateAffinity(spec.Affinity, fldPath.Child("affinity"))...)
	errs = append(errs, validatePodDNSConfig(spec.DNSConfig, spec.DNSPolicy, fldPath.Child("dnsConfig"))...)
	errs = append(errs, validatePodGates(spec, fldPath)...)
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, fldPath.Child("topologySpreadConstraints"))...)
	errs = append(errs, validatePodIdentity(spec, hostUsers, fldPath)...)
	errs = append(errs, ValidateTolerations(spec.Tolerations, fldPath.Child("tolerations"))...)
	errs = append(errs, validateHostAliases(spec.HostAliases, fldPath.Child("hostAliases"))...)
	errs = append(errs, validatePodRuntimeFields(spec, fldPath)...)
	return errs
}

func validatePodGates(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, g := range spec.ReadinessGates {
		errs = append(errs, validateQualifiedName(g.ConditionType, fldPath.Child("readinessGates").Index(i).Child("conditionType"))...)
	}
	seenGates := map[string]bool{}
	for i, g := range spec.SchedulingGates {
		p := fldPath.Child("schedulingGates").Index(i)
		errs = append(errs, validateQualifiedName(g.Name, p)...)
		if seenGates[g.Name] {
			errs = append(errs, field.Duplicate(p, g.Name))
		}
		seenGates[g.Name] = true
	}
	return errs
}

// validatePodIdentity checks the host namespaces a pod without host
// users may not share, and the names it gives itself and its node.
func validatePodIdentity(spec *api.PodSpec, hostUsers bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !hostUsers {
		if spec.HostNetwork {
			errs = append(errs, field.Forbidden(fldPath.Child("hostNetwork"), "when `pod.Spec.HostUsers` is false"))
		}
		if spec.HostPID {
			errs = append(errs, field.Forbidden(fldPath.Child("HostPID"), "when `pod.Spec.HostUsers` is false"))
		}
		if spec.HostIPC {
			errs = append(errs, field.Forbidden(fldPath.Child("HostIPC"), "when `pod.Spec.HostUsers` is false"))
		}
	}
	if spec.ServiceAccountName != "" {
		for _, m := range NameIsDNSSubdomain(spec.ServiceAccountName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("serviceAccountName"), spec.ServiceAccountName, m))
		}
	}
	if spec.NodeName != "" {
		for _, m := range NameIsDNSSubdomain(spec.NodeName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("nodeName"), spec.NodeName, m))
		}
	}
	if spec.ActiveDeadlineSeconds != nil {
		v := *spec.ActiveDeadlineSeconds
		if v < 1 || v > math.MaxInt32 {
			errs = append(errs, field.Invalid(fldPath.Child("activeDeadlineSeconds"), v, InclusiveRangeError(1, math.MaxInt32)))
		}
	}
	if spec.Hostname != "" {
		errs = append(errs, validateDNS1123Label(spec.Hostname, fldPath.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		errs = append(errs, validateDNS1123Label(spec.Subdomain, fldPath.Child("subdomain"))...)
	}
	return errs
}

func validateHostAliases(aliases []api.HostAlias, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ha := range aliases {
		p := fldPath.Index(i)
		if !isValidIP(ha.IP) {
			errs = append(errs, field.Invalid(p.Child("ip"), ha.IP, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
		}
		for j, h := range ha.Hostnames {
			errs = append(errs, validateDNS1123Subdomain(h, p.Child("hostnames").Index(j))...)
		}
	}
	return errs
}

// validatePodRuntimeFields checks the priority class, runtime class,
// preemption policy, overhead and OS.
func validatePodRuntimeFields(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.PriorityClassName != "" {
		for _, m := range NameIsDNSSubdomain(spec.PriorityClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("priorityClassName"), spec.PriorityClassName, m))
		}
	}
	if spec.RuntimeClassName != nil {
		for _, m := range NameIsDNSSubdomain(*spec.RuntimeClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("runtimeClassName"), *spec.RuntimeClassName, m))
		}
	}
	if pp := spec.PreemptionPolicy; pp != nil {
		switch *pp {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, field.Required(fldPath.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(fldPath.Child("preemptionPolicy"), *pp, []string{api.PreemptLowerPriority, api.PreemptNever}))
		}
	}
	if spec.Overhead != nil {
		errs = append(errs, ValidateContainerResourceRequirements(&api.ResourceRequirements{Limits: spec.Overhead}, nil, fldPath.Child("overhead"))...)
	}
	if spec.OS != nil {
		if spec.OS.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("os").Child("name"), "cannot be empty"))
		} else if spec.OS.Name != "linux" && spec.OS.Name != "windows" {
			errs = append(errs, field.NotSupported(fldPath.Child("os"), spec.OS.Name, []string{"linux", "windows"}))
		}
	}
	return errs
}

func validatePodResourceClaims(claims []api.PodResourceClaim, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, c := range claims {
		p := fldPath.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(p.Child("name"), ""))
		case names[c.Name]:
			errs = append(errs, field.Duplicate(p.Child("name"), c.Name))
		default:
			errs = append(errs, validateDNS1123Label(c.Name, p.Child("name"))...)
			names[c.Name] = true
		}
		if c.ResourceClaimName != nil && c.ResourceClaimTemplateName != nil {
			errs = append(errs, field.Invalid(p, claimValue(c), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		}
		if c.ResourceClaimName == nil && c.ResourceClaimTemplateName == nil {
			errs = append(errs, field.Invalid(p, claimValue(c), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
	}
	return errs
}

type claimValue api.PodResourceClaim

func (c claimValue) String() string { return fmt.Sprintf("core.PodResourceClaim{Name:%q}", c.Name) }

func validateEphemeralContainers(spec *api.PodSpec, vols map[string]*api.VolumeSource, claimNames map[string]bool, fldPath *field.Path, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	other := map[string]bool{}
	all := map[string]bool{}
	for _, c := range spec.Containers {
		other[c.Name], all[c.Name] = true, true
	}
	for _, c := range spec.InitContainers {
		other[c.Name], all[c.Name] = true, true
	}
	for i, ec := range spec.EphemeralContainers {
		p := fldPath.Index(i)
		c := api.Container(ec.EphemeralContainerCommon)
		errs = append(errs, validateContainerCommon(&c, vols, claimNames, p, spec.RestartPolicy, hostUsers)...)
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			errs = append(errs, field.Invalid(p.Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
		if all[ec.Name] {
			errs = append(errs, field.Duplicate(p.Child("name"), ec.Name))
		} else {
			all[ec.Name] = true
		}
		if ec.TargetContainerName != "" && !other[ec.TargetContainerName] {
			errs = append(errs, field.NotFound(p.Child("targetContainerName"), ec.TargetContainerName))
		}
		const msg = "cannot be set for an Ephemeral Container"
		if len(c.Ports) > 0 {
			errs = append(errs, field.Forbidden(p.Child("ports"), msg))
		}
		if len(c.Resources.Limits)+len(c.Resources.Requests)+len(c.Resources.Claims) > 0 {
			errs = append(errs, field.Forbidden(p.Child("resources"), msg))
		}
		if len(c.ResizePolicy) > 0 {
			errs = append(errs, field.Forbidden(p.Child("resizePolicy"), msg))
		}
		if c.RestartPolicy != nil {
			errs = append(errs, field.Forbidden(p.Child("restartPolicy"), msg))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, field.Forbidden(p.Child("livenessProbe"), msg))
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, field.Forbidden(p.Child("readinessProbe"), msg))
		}
		if c.StartupProbe != nil {
			errs = append(errs, field.Forbidden(p.Child("startupProbe"), msg))
		}
		if c.Lifecycle != nil {
			errs = append(errs, field.Forbidden(p.Child("lifecycle"), msg))
		}
		for j, vm := range c.VolumeMounts {
			if vm.SubPath != "" {
				errs = append(errs, field.Forbidden(p.Child("volumeMounts").Index(j).Child("subPath"), msg))
			}
			if vm.SubPathExpr != "" {
				errs = append(errs, field.Forbidden(p.Child("volumeMounts").Index(j).Child("subPathExpr"), msg))
			}
		}
	}
	return errs
}

func validatePodHostNetworkDeps(spec *api.PodSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range spec.Containers {
		for j, port := range c.Ports {
			if hp, cp := port.HostPort, port.ContainerPort; (opts.resourceIsPod || hp != 0) && hp != cp {
				errs = append(errs, field.Invalid(fldPath.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort,
					"must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

var validRestartPolicies = []string{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}

// validateRestartPolicy: empty is defaulted to Always before validation.
func validateRestartPolicy(policy string, fldPath *field.Path) field.ErrorList {
	if policy != "" && !contains(validRestartPolicies, policy) {
		return field.ErrorList{field.NotSupported(fldPath, policy, validRestartPolicies)}
	}
	return nil
}

// effectiveRestartPolicy is the policy after defaulting.
func effectiveRestartPolicy(p string) string {
	if p == "" {
		return api.RestartPolicyAlways
	}
	return p
}

func validateDNSPolicy(policy string, fldPath *field.Path) field.ErrorList {
	valid := []string{api.DNSClusterFirstWithHostNet, api.DNSClusterFirst, api.DNSDefault, api.DNSNone}
	if policy != "" && !contains(valid, policy) {
		return field.ErrorList{field.NotSupported(fldPath, policy, valid)}
	}
	return nil
}

var sysctlRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`)
})

func validatePodSecurityContext(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	sc := spec.SecurityContext
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	if sc.FSGroup != nil {
		for _, m := range IsValidGroupID(*sc.FSGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("fsGroup"), *sc.FSGroup, m))
		}
	}
	if sc.RunAsUser != nil {
		for _, m := range IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsUser"), *sc.RunAsUser, m))
		}
	}
	if sc.RunAsGroup != nil {
		for _, m := range IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsGroup"), *sc.RunAsGroup, m))
		}
	}
	for i, g := range sc.SupplementalGroups {
		for _, m := range IsValidGroupID(g) {
			errs = append(errs, field.Invalid(fldPath.Child("supplementalGroups").Index(i), g, m))
		}
	}
	if spec.ShareProcessNamespace != nil && spec.HostPID && *spec.ShareProcessNamespace {
		errs = append(errs, field.Invalid(fldPath.Child("shareProcessNamespace"), *spec.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	names := map[string]bool{}
	for i, s := range sc.Sysctls {
		p := fldPath.Child("sysctls").Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, field.Required(p, ""))
		case len(s.Name) > 253 || !sysctlRe().MatchString(s.Name):
			errs = append(errs, field.Invalid(p, s.Name, "must have at most 253 characters and match regex "+sysctlRe().String()))
		case names[s.Name]:
			errs = append(errs, field.Duplicate(p, s.Name))
		}
		names[s.Name] = true
	}
	if p := sc.FSGroupChangePolicy; p != nil && *p != "OnRootMismatch" && *p != "Always" {
		errs = append(errs, field.NotSupported(fldPath.Child("fsGroupChangePolicy"), *p, []string{"Always", "OnRootMismatch"}))
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	errs = append(errs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	if p := sc.SupplementalGroupsPolicy; p != nil && *p != "Merge" && *p != "Strict" {
		errs = append(errs, field.NotSupported(fldPath.Child("supplementalGroupsPolicy"), *p, []string{"Merge", "Strict"}))
	}
	if p := sc.SELinuxChangePolicy; p != nil && *p != "MountOption" && *p != "Recursive" {
		errs = append(errs, field.NotSupported(fldPath.Child("seLinuxChangePolicy"), *p, []string{"MountOption", "Recursive"}))
	}
	return errs
}

func validatePodDNSConfig(c *api.PodDNSConfig, policy string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if policy == api.DNSNone {
		if c == nil {
			return field.ErrorList{field.Required(fldPath, "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(c.Nameservers) == 0 {
			return field.ErrorList{field.Required(fldPath.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if c == nil {
		return nil
	}
	if len(c.Nameservers) > 3 {
		errs = append(errs, field.Invalid(fldPath.Child("nameservers"), c.Nameservers, "must not have more than 3 nameservers"))
	}
	for i, ns := range c.Nameservers {
		if !isValidIP(ns) {
			errs = append(errs, field.Invalid(fldPath.Child("nameservers").Index(i), ns, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
		}
	}
	if len(c.Searches) > 32 {
		errs = append(errs, field.Invalid(fldPath.Child("searches"), c.Searches, "must not have more than 32 search paths"))
	}
	if len(strings.Join(c.Searches, " ")) > 2048 {
		errs = append(errs, field.Invalid(fldPath.Child("searches"), c.Searches, "must not have more than 2048 characters (including spaces) in the search list"))
	}
	for i, s := range c.Searches {
		errs = append(errs, validateDNS1123Subdomain(strings.TrimSuffix(s, "."), fldPath.Child("searches").Index(i))...)
	}
	for i, o := range c.Options {
		if o.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("options").Index(i), "must not be empty"))
		}
	}
	return errs
}

// ValidateTolerations checks tolerations.
func ValidateTolerations(tolerations []api.Toleration, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tolerations {
		p := fldPath.Index(i)
		if t.Key != "" {
			errs = append(errs, ValidateLabelName(t.Key, p.Child("key"))...)
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, field.Invalid(p.Child("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(p.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []string{api.TolerationOpEqual, api.TolerationOpExists}))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(t.Effect, true, p.Child("effect"))...)
		}
	}
	return errs
}

func validateTaintEffect(effect string, allowEmpty bool, fldPath *field.Path) field.ErrorList {
	if !allowEmpty && effect == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	switch effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, effect, []string{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute})}
}

func validateAffinity(a *api.Affinity, fldPath *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		p := fldPath.Child("nodeAffinity")
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			errs = append(errs, ValidateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, p.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			tp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, field.Invalid(tp.Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validateNodeSelectorTerm(t.Preference, true, tp.Child("preference"))...)
		}
	}
	podTerms := func(required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm, p *field.Path) {
		for i, t := range required {
			errs = append(errs, validatePodAffinityTerm(t, p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
		}
		for i, t := range preferred {
			tp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, field.Invalid(tp.Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validatePodAffinityTerm(t.PodAffinityTerm, tp.Child("podAffinityTerm"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		podTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAffinity"))
	}
	if pa := a.PodAntiAffinity; pa != nil {
		podTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, fldPath.Child("podAntiAffinity"))
	}
	return errs
}

// ValidateNodeSelector checks a required node affinity.
func ValidateNodeSelector(ns *api.NodeSelector, fldPath *field.Path) field.ErrorList {
	termPath := fldPath.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(termPath, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, t := range ns.NodeSelectorTerms {
		errs = append(errs, validateNodeSelectorTerm(t, false, termPath.Index(i))...)
	}
	return errs
}

func validateNodeSelectorTerm(t api.NodeSelectorTerm, allowInvalidValues bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, rq := range t.MatchExpressions {
		p := fldPath.Child("matchExpressions").Index(j)
		switch rq.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(rq.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
			if len(rq.Values) > 0 {
				errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			if len(rq.Values) != 1 {
				errs = append(errs, field.Required(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		errs = append(errs, ValidateLabelName(rq.Key, p.Child("key"))...)
		if !allowInvalidValues {
			for k, v := range rq.Values {
				for _, m := range IsValidLabelValue(v) {
					errs = append(errs, field.Invalid(p.Child("values").Index(k), v, m))
				}
			}
		}
	}
	for j, rq := range t.MatchFields {
		p := fldPath.Child("matchFields").Index(j)
		switch rq.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(rq.Values) != 1 {
				errs = append(errs, field.Required(p.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		if rq.Key != "metadata.name" {
			errs = append(errs, field.Invalid(p.Child("key"), rq.Key, "not a valid field selector key"))
		} else {
			for k, v := range rq.Values {
				for _, m := range NameIsDNSSubdomain(v, false) {
					errs = append(errs, field.Invalid(p.Child("values").Index(k), v, m))
				}
			}
		}
	}
	return errs
}

func validatePodAffinityTerm(t api.PodAffinityTerm, fldPath *field.Path) field.ErrorList {
	errs := ValidateLabelSelector(t.LabelSelector, fldPath.Child("labelSelector"))
	errs = append(errs, ValidateLabelSelector(t.NamespaceSelector, fldPath.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, m := range NameIsDNSLabel(ns, false) {
			errs = append(errs, field.Invalid(fldPath.Child("namespace"), ns, m))
		}
	}
	keys := func(list []string, p *field.Path) {
		if len(list) == 0 {
			return
		}
		if t.LabelSelector == nil {
			errs = append(errs, field.Forbidden(p, "must not be specified when labelSelector is not set"))
			return
		}
		for i, k := range list {
			errs = append(errs, ValidateLabelName(k, p.Index(i))...)
		}
	}
	keys(t.MatchLabelKeys, fldPath.Child("matchLabelKeys"))
	keys(t.MismatchLabelKeys, fldPath.Child("mismatchLabelKeys"))
	mismatch := map[string]bool{}
	for _, k := range t.MismatchLabelKeys {
		mismatch[k] = true
	}
	for i, k := range t.MatchLabelKeys {
		if mismatch[k] {
			errs = append(errs, field.Invalid(fldPath.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	if t.TopologyKey == "" {
		errs = append(errs, field.Required(fldPath.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, ValidateLabelName(t.TopologyKey, fldPath.Child("topologyKey"))...)
}

func validateTopologySpreadConstraints(cs []api.TopologySpreadConstraint, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		p := fldPath.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(p.Child("maxSkew"), c.MaxSkew, isNotPositiveErrorMsg))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway {
			errs = append(errs, field.NotSupported(p.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []string{api.DoNotSchedule, api.ScheduleAnyway}))
		}
		for _, rest := range cs[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(p.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, field.Invalid(p.Child("minDomains"), *c.MinDomains, isNotPositiveErrorMsg))
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				errs = append(errs, field.Invalid(p.Child("minDomains"), *c.MinDomains,
					fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		policies := []string{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}
		if np := c.NodeAffinityPolicy; np != nil && !contains(policies, *np) {
			errs = append(errs, field.NotSupported(p.Child("nodeAffinityPolicy"), *np, policies))
		}
		if np := c.NodeTaintsPolicy; np != nil && !contains(policies, *np) {
			errs = append(errs, field.NotSupported(p.Child("nodeTaintsPolicy"), *np, policies))
		}
		if len(c.MatchLabelKeys) > 0 {
			kp := p.Child("matchLabelKeys")
			selKeys := map[string]bool{}
			if c.LabelSelector != nil {
				for k := range c.LabelSelector.MatchLabels {
					selKeys[k] = true
				}
				for _, e := range c.LabelSelector.MatchExpressions {
					selKeys[e.Key] = true
				}
			} else {
				errs = append(errs, field.Forbidden(kp, "must not be specified when labelSelector is not set"))
			}
			for j, k := range c.MatchLabelKeys {
				errs = append(errs, ValidateLabelName(k, kp.Index(j))...)
				if selKeys[k] {
					errs = append(errs, field.Invalid(kp.Index(j), k, "exists in both matchLabelKeys and labelSelector"))
				}
			}
		}
		errs = append(errs, ValidateLabelSelector(c.LabelSelector, p.Child("labelSelector"))...)
	}
	return errs
}

// ValidatePodTemplateSpec checks a template embedded in a controller.
func ValidatePodTemplateSpec(t *api.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	errs := ValidateLabels(t.Labels, fldPath.Child("labels"))
	errs = append(errs, ValidateAnnotations(t.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, ValidatePodSpec(&t.Spec, nil, fldPath.Child("spec"), podOptions{})...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(fldPath.Child("spec").Child("ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}
