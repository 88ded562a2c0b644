package daemon

import (
	"fmt"
	"kubeplay/core/controller/hashutil"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
)

// Labels a daemon pod carries for the template it was made from.
const (
	// DaemonSetTemplateGenerationKey is the pre-revision marker, still set.
	DaemonSetTemplateGenerationKey = "pod-template-generation"
	// nodeFieldSelectorKeyNodeName is the field a daemon pod's node
	// affinity matches.
	nodeFieldSelectorKeyNodeName = "metadata.name"
)

// GetTemplateGeneration reads the deprecated.daemonset.template.generation
// annotation: nil when absent, an error when it does not parse.
func GetTemplateGeneration(ds *api.DaemonSet) (*int64, error) {
	v, ok := ds.Annotations[api.DeprecatedTemplateGeneration]
	if !ok {
		return nil, nil
	}
	g, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// templateGeneration is GetTemplateGeneration, falling back to the
// DaemonSet's generation when the annotation is missing: the API server
// sets the annotation from the template generation, which equals the
// generation until a change outside the template, and a pod counts as
// updated when its hash matches anyway.
func templateGeneration(ds *api.DaemonSet) *int64 {
	g, err := GetTemplateGeneration(ds)
	if err != nil {
		return nil
	}
	if g == nil && ds.Generation > 0 {
		v := ds.Generation
		g = &v
	}
	return g
}

// AddOrUpdateDaemonPodTolerations adds the tolerations every daemon pod
// gets: it survives node trouble (not-ready and unreachable NoExecute,
// forever) and schedules onto nodes under pressure or cordoned; a
// host-network pod also onto a node whose network is not ready.
func AddOrUpdateDaemonPodTolerations(spec *api.PodSpec) {
	add := func(key, effect string) {
		addOrUpdateToleration(spec, &api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect})
	}
	add(api.TaintNodeNotReady, api.TaintEffectNoExecute)
	add(api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	add(api.TaintNodeDiskPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodePIDPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)
	if spec.HostNetwork {
		add(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule)
	}
}

// addOrUpdateToleration replaces a toleration for the same key, operator,
// value and effect, or appends t.
func addOrUpdateToleration(spec *api.PodSpec, t *api.Toleration) {
	for i := range spec.Tolerations {
		if t.MatchToleration(&spec.Tolerations[i]) {
			spec.Tolerations[i] = *t
			return
		}
	}
	spec.Tolerations = append(spec.Tolerations, *t)
}

// CreatePodTemplate is the template a daemon pod is made from: the
// daemon tolerations added and the generation and hash labels set.
func CreatePodTemplate(template api.PodTemplateSpec, generation *int64, hash string) api.PodTemplateSpec {
	t := *template.DeepCopy()
	AddOrUpdateDaemonPodTolerations(&t.Spec)
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	if generation != nil {
		t.Labels[DaemonSetTemplateGenerationKey] = strconv.FormatInt(*generation, 10)
	}
	if hash != "" {
		t.Labels[api.DefaultDaemonSetUniqueLabelKey] = hash
	}
	return t
}

// IsPodUpdated reports whether pod was made from the current template:
// its hash label, or its generation label, matches.
func IsPodUpdated(pod *api.Pod, hash string, generation *int64) bool {
	templateMatches := generation != nil && pod.Labels[DaemonSetTemplateGenerationKey] == strconv.FormatInt(*generation, 10)
	hashMatches := hash != "" && pod.Labels[api.DefaultDaemonSetUniqueLabelKey] == hash
	return hashMatches || templateMatches
}

// ReplaceDaemonSetPodNodeNameNodeAffinity makes affinity require the node
// named nodename (by metadata.name), replacing any required terms, so the
// scheduler can only place the pod there.
func ReplaceDaemonSetPodNodeNameNodeAffinity(affinity *api.Affinity, nodename string) *api.Affinity {
	sel := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchFields: []api.NodeSelectorRequirement{{Key: nodeFieldSelectorKeyNodeName, Operator: api.NodeSelectorOpIn, Values: []string{nodename}}},
	}}}
	if affinity == nil {
		return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}}
	}
	if affinity.NodeAffinity == nil {
		affinity.NodeAffinity = &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}
		return affinity
	}
	if affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = sel
		return affinity
	}
	affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = sel.NodeSelectorTerms
	return affinity
}

// GetTargetNodeName is the node a daemon pod is for: its nodeName once
// bound, else the metadata.name its node affinity requires.
func GetTargetNodeName(pod *api.Pod) (string, error) {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName, nil
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return "", fmt.Errorf("no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod %s/%s", pod.Namespace, pod.Name)
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) < 1 {
		return "", fmt.Errorf("no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod %s/%s", pod.Namespace, pod.Name)
	}
	for _, term := range terms {
		for _, exp := range term.MatchFields {
			if exp.Key == nodeFieldSelectorKeyNodeName && exp.Operator == api.NodeSelectorOpIn {
				if len(exp.Values) != 1 {
					return "", fmt.Errorf("the matchFields value of '%s' is not unique for pod %s/%s", nodeFieldSelectorKeyNodeName, pod.Namespace, pod.Name)
				}
				return exp.Values[0], nil
			}
		}
	}
	return "", fmt.Errorf("no node name found for pod %s/%s", pod.Namespace, pod.Name)
}

// SurgeCount is maxSurge scaled to numberToSchedule (rounded up); 0 unless
// rolling.
func SurgeCount(ds *api.DaemonSet, numberToSchedule int) (int, error) {
	r := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || r == nil || r.MaxSurge == nil {
		return 0, nil
	}
	return intstr.GetScaledValueFromIntOrPercent(r.MaxSurge, numberToSchedule, true)
}

// UnavailableCount is maxUnavailable scaled to numberToSchedule (rounded
// up); 0 unless rolling.
func UnavailableCount(ds *api.DaemonSet, numberToSchedule int) (int, error) {
	r := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || r == nil {
		return 0, nil
	}
	return intstr.GetScaledValueFromIntOrPercent(r.MaxUnavailable, numberToSchedule, true)
}

// AllowsSurge: a rolling update that starts the new pod before the old one
// stops.
func AllowsSurge(ds *api.DaemonSet) bool {
	n, err := SurgeCount(ds, 1)
	return err == nil && n > 0
}

// ComputeHash is the controller-revision-hash of a template (upstream's
// controller.ComputeHash).
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	return hashutil.ComputeHash(template, collisionCount)
}
