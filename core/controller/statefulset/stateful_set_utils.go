package statefulset

import (
	"regexp"
	"sort"
	"strconv"
	"sync"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/controller"
	"kubeplay/core/controller/history"
)

// controllerKind and podKind name the owners a StatefulSet's objects carry.
var (
	controllerKind = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}
	podKind        = api.GroupVersionKind{Version: "v1", Kind: "Pod"}
)

// statefulPodRegex splits a pod name into its set's name and ordinal.
var statefulPodRegex = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(.*)-([0-9]+)$") })

// getParentNameAndOrdinal reads "<set>-<ordinal>" from a pod's name; a pod
// not named that way has no parent and ordinal -1.
func getParentNameAndOrdinal(pod *api.Pod) (string, int) {
	m := statefulPodRegex().FindStringSubmatch(pod.Name)
	if len(m) < 3 {
		return "", -1
	}
	ordinal := -1
	if i, err := strconv.ParseInt(m[2], 10, 32); err == nil {
		ordinal = int(i)
	}
	return m[1], ordinal
}

func getParentName(pod *api.Pod) string { p, _ := getParentNameAndOrdinal(pod); return p }

func getOrdinal(pod *api.Pod) int { _, o := getParentNameAndOrdinal(pod); return o }

// getStartOrdinal is spec.ordinals.start, 0 when unset.
func getStartOrdinal(set *api.StatefulSet) int {
	if set.Spec.Ordinals != nil {
		return int(set.Spec.Ordinals.Start)
	}
	return 0
}

// getEndOrdinal is the last ordinal the set wants (inclusive).
func getEndOrdinal(set *api.StatefulSet) int { return getStartOrdinal(set) + int(replicasOf(set)) - 1 }

func replicasOf(set *api.StatefulSet) int32 {
	if set.Spec.Replicas == nil {
		return 1
	}
	return *set.Spec.Replicas
}

// podInOrdinalRange reports whether the set still wants pod's ordinal.
func podInOrdinalRange(pod *api.Pod, set *api.StatefulSet) bool {
	o := getOrdinal(pod)
	return o >= getStartOrdinal(set) && o <= getEndOrdinal(set)
}

func getPodName(set *api.StatefulSet, ordinal int) string {
	return set.Name + "-" + strconv.Itoa(ordinal)
}

// getPersistentVolumeClaimName is <template>-<set>-<ordinal>.
func getPersistentVolumeClaimName(set *api.StatefulSet, claim *api.PersistentVolumeClaim, ordinal int) string {
	return claim.Name + "-" + set.Name + "-" + strconv.Itoa(ordinal)
}

// isMemberOf reports whether pod is named as one of set's.
func isMemberOf(set *api.StatefulSet, pod *api.Pod) bool { return getParentName(pod) == set.Name }

// identityMatches reports whether pod has its stable identity in set.
func identityMatches(set *api.StatefulSet, pod *api.Pod) bool {
	parent, ordinal := getParentNameAndOrdinal(pod)
	return ordinal >= 0 &&
		set.Name == parent &&
		pod.Name == getPodName(set, ordinal) &&
		pod.Namespace == set.Namespace &&
		pod.Labels[api.StatefulSetPodNameLabel] == pod.Name
}

// storageMatches reports whether pod mounts each of its claims by name.
func storageMatches(set *api.StatefulSet, pod *api.Pod) bool {
	ordinal := getOrdinal(pod)
	if ordinal < 0 {
		return false
	}
	volumes := make(map[string]api.Volume, len(pod.Spec.Volumes))
	for _, v := range pod.Spec.Volumes {
		volumes[v.Name] = v
	}
	for i := range set.Spec.VolumeClaimTemplates {
		claim := &set.Spec.VolumeClaimTemplates[i]
		v, ok := volumes[claim.Name]
		if !ok || v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != getPersistentVolumeClaimName(set, claim, ordinal) {
			return false
		}
	}
	return true
}

// getPersistentVolumeClaimRetentionPolicy defaults a missing policy to
// Retain on both scale-down and deletion.
func getPersistentVolumeClaimRetentionPolicy(set *api.StatefulSet) api.StatefulSetPersistentVolumeClaimRetentionPolicy {
	p := api.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: api.RetainPersistentVolumeClaimRetentionPolicyType,
		WhenScaled:  api.RetainPersistentVolumeClaimRetentionPolicyType,
	}
	if set.Spec.PersistentVolumeClaimRetentionPolicy != nil {
		p = *set.Spec.PersistentVolumeClaimRetentionPolicy
	}
	return p
}

// getPersistentVolumeClaims builds pod's claims from the set's templates,
// in template order: named per ordinal, in the set's namespace, labelled
// with the template's labels and the set's selector labels.
func getPersistentVolumeClaims(set *api.StatefulSet, pod *api.Pod) []*api.PersistentVolumeClaim {
	ordinal := getOrdinal(pod)
	out := make([]*api.PersistentVolumeClaim, 0, len(set.Spec.VolumeClaimTemplates))
	for i := range set.Spec.VolumeClaimTemplates {
		claim := set.Spec.VolumeClaimTemplates[i].DeepCopy()
		claim.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
		claim.Name = getPersistentVolumeClaimName(set, claim, ordinal)
		claim.Namespace = set.Namespace
		claim.Status = api.PersistentVolumeClaimStatus{}
		if claim.Labels == nil {
			claim.Labels = map[string]string{}
		}
		if set.Spec.Selector != nil {
			for k, v := range set.Spec.Selector.MatchLabels {
				claim.Labels[k] = v
			}
		}
		if len(claim.Labels) == 0 {
			claim.Labels = nil
		}
		out = append(out, claim)
	}
	return out
}

// updateStorage makes pod mount its claims (in template order) in place of
// any volume of the same name, keeping its other volumes after them.
func updateStorage(set *api.StatefulSet, pod *api.Pod) {
	claims := getPersistentVolumeClaims(set, pod)
	byTemplate := make(map[string]bool, len(claims))
	volumes := make([]api.Volume, 0, len(claims)+len(pod.Spec.Volumes))
	for i, claim := range claims {
		name := set.Spec.VolumeClaimTemplates[i].Name
		byTemplate[name] = true
		volumes = append(volumes, api.Volume{Name: name, VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name},
		}})
	}
	for _, v := range pod.Spec.Volumes {
		if !byTemplate[v.Name] {
			volumes = append(volumes, v)
		}
	}
	if len(volumes) == 0 {
		volumes = nil
	}
	pod.Spec.Volumes = volumes
}

// initIdentity gives a new pod its identity, hostname and subdomain; the
// last two are immutable, so only creation sets them.
func initIdentity(set *api.StatefulSet, pod *api.Pod) {
	updateIdentity(set, pod)
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
}

// updateIdentity sets pod's name, namespace, pod-name and pod-index labels.
func updateIdentity(set *api.StatefulSet, pod *api.Pod) {
	ordinal := getOrdinal(pod)
	pod.Name = getPodName(set, ordinal)
	pod.Namespace = set.Namespace
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[api.StatefulSetPodNameLabel] = pod.Name
	pod.Labels[api.PodIndexLabel] = strconv.Itoa(ordinal)
}

func isRunningAndReady(pod *api.Pod) bool {
	return pod.Status.Phase == api.PodRunning && api.IsPodReady(pod)
}

func isRunningAndAvailable(pod *api.Pod, minReadySeconds int32, now time.Time) bool {
	return api.IsPodAvailable(pod, minReadySeconds, api.Time{Time: now})
}

// isCreated: a pod the API server has stored always has a phase.
func isCreated(pod *api.Pod) bool     { return pod.Status.Phase != "" }
func isPending(pod *api.Pod) bool     { return pod.Status.Phase == api.PodPending }
func isFailed(pod *api.Pod) bool      { return pod.Status.Phase == api.PodFailed }
func isSucceeded(pod *api.Pod) bool   { return pod.Status.Phase == api.PodSucceeded }
func isTerminating(pod *api.Pod) bool { return pod.DeletionTimestamp != nil }

// isUnavailable: not yet available, or on its way out.
func isUnavailable(pod *api.Pod, minReadySeconds int32, now time.Time) bool {
	return !isRunningAndAvailable(pod, minReadySeconds, now) || isTerminating(pod)
}

// allowsBurst: Parallel pod management drops the ordering guarantees.
func allowsBurst(set *api.StatefulSet) bool {
	return set.Spec.PodManagementPolicy == api.ParallelPodManagement
}

func setPodRevision(pod *api.Pod, revision string) {
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[api.StatefulSetRevisionLabel] = revision
}

func getPodRevision(pod *api.Pod) string { return pod.Labels[api.StatefulSetRevisionLabel] }

// newStatefulSetPod is set's pod for ordinal, with its identity and claims.
func newStatefulSetPod(set *api.StatefulSet, ordinal int) *api.Pod {
	ref := history.ControllerRef(set, controllerKind)
	pod := controller.GetPodFromTemplate(&set.Spec.Template, set, &ref)
	pod.Name = getPodName(set, ordinal)
	initIdentity(set, pod)
	updateStorage(set, pod)
	return pod
}

// newVersionedStatefulSetPod builds the pod for ordinal at the revision it
// belongs to: below the partition (or, for a rolling update without a
// rollingUpdate block, below the current replica count) it keeps the
// current revision, otherwise it takes the update revision. The operator
// grouping is upstream's.
func newVersionedStatefulSetPod(currentSet, updateSet *api.StatefulSet, currentRevision, updateRevision string, ordinal int) *api.Pod {
	s := currentSet.Spec.UpdateStrategy
	start := getStartOrdinal(currentSet)
	if s.Type == api.RollingUpdateStatefulSetStrategyType &&
		(s.RollingUpdate == nil && ordinal < start+int(currentSet.Status.CurrentReplicas)) ||
		(s.RollingUpdate != nil && ordinal < start+int(partitionOf(currentSet))) {
		pod := newStatefulSetPod(currentSet, ordinal)
		setPodRevision(pod, currentRevision)
		return pod
	}
	pod := newStatefulSetPod(updateSet, ordinal)
	setPodRevision(pod, updateRevision)
	return pod
}

func partitionOf(set *api.StatefulSet) int32 {
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		return *ru.Partition
	}
	return 0
}

// newRevision records set's template as revision number revision. The set's
// annotations are copied on, which is where kubectl's change-cause lives.
func newRevision(set *api.StatefulSet, revision int64, collisionCount *int32) (*api.ControllerRevision, error) {
	patch, err := history.TemplatePatch(&set.Spec.Template)
	if err != nil {
		return nil, err
	}
	cr := history.NewControllerRevision(set, controllerKind, set.Spec.Template.Labels, patch, revision, collisionCount)
	if len(set.Annotations) > 0 {
		cr.Annotations = make(map[string]string, len(set.Annotations))
		for k, v := range set.Annotations {
			cr.Annotations[k] = v
		}
	}
	return cr, nil
}

// ApplyRevision is set with the template revision recorded.
func ApplyRevision(set *api.StatefulSet, revision *api.ControllerRevision) (*api.StatefulSet, error) {
	template, err := history.TemplateFromPatch(revision.Data.Raw)
	if err != nil {
		return nil, err
	}
	clone := set.DeepCopy()
	clone.Spec.Template = *template
	return clone, nil
}

// inconsistentStatus reports whether status differs from what set shows.
func inconsistentStatus(set *api.StatefulSet, status *api.StatefulSetStatus) bool {
	return status.ObservedGeneration > set.Status.ObservedGeneration ||
		status.Replicas != set.Status.Replicas ||
		status.CurrentReplicas != set.Status.CurrentReplicas ||
		status.ReadyReplicas != set.Status.ReadyReplicas ||
		status.UpdatedReplicas != set.Status.UpdatedReplicas ||
		status.CurrentRevision != set.Status.CurrentRevision ||
		status.AvailableReplicas != set.Status.AvailableReplicas ||
		status.UpdateRevision != set.Status.UpdateRevision
}

// completeRollingUpdate makes the update revision current once every
// wanted replica runs it and is ready.
func completeRollingUpdate(set *api.StatefulSet, status *api.StatefulSetStatus) {
	r := replicasOf(set)
	if set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType &&
		status.UpdatedReplicas == r && status.ReadyReplicas == r && status.Replicas == r {
		status.CurrentReplicas = status.UpdatedReplicas
		status.CurrentRevision = status.UpdateRevision
	}
}

// sortDescendingOrdinal puts the highest ordinal first.
func sortDescendingOrdinal(pods []*api.Pod) {
	sort.SliceStable(pods, func(i, j int) bool { return getOrdinal(pods[i]) > getOrdinal(pods[j]) })
}

// getStatefulSetMaxUnavailable scales maxUnavailable (default 1) to the
// replica count, rounding down but never below 1.
func getStatefulSetMaxUnavailable(maxUnavailable *intstr.IntOrString, replicas int) (int, error) {
	v := intstr.FromInt(1)
	if maxUnavailable != nil {
		v = *maxUnavailable
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&v, replicas, false)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		n = 1
	}
	return n, nil
}
