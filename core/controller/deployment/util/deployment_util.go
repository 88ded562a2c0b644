// Package util holds the deployment controller's rules that kubectl's
// rollout commands share: revisions, annotations, the rolling-update
// arithmetic and the conditions a rollout reports.
package util

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
)

// Condition reasons and the messages that go with them.
const (
	ReplicaSetUpdatedReason        = "ReplicaSetUpdated"
	FailedRSCreateReason           = "ReplicaSetCreateError"
	NewReplicaSetReason            = "NewReplicaSetCreated"
	FoundNewRSReason               = "FoundNewReplicaSet"
	NewRSAvailableReason           = "NewReplicaSetAvailable"
	TimedOutReason                 = "ProgressDeadlineExceeded"
	PausedDeployReason             = "DeploymentPaused"
	ResumedDeployReason            = "DeploymentResumed"
	MinimumReplicasAvailable       = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable     = "MinimumReplicasUnavailable"
	RollbackRevisionNotFound       = "DeploymentRollbackRevisionNotFound"
	RollbackTemplateUnchanged      = "DeploymentRollbackTemplateUnchanged"
	RollbackDone                   = "DeploymentRollback"
	MaxRevHistoryLengthInChars     = 2000
	lastAppliedConfigAnnotation    = "kubectl.kubernetes.io/last-applied-configuration"
	defaultRevisionHistoryLimitNil = math.MaxInt32
)

// Replicas is spec.replicas with its default.
func Replicas(d *api.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// RSReplicas is a ReplicaSet's spec.replicas with its default.
func RSReplicas(rs *api.ReplicaSet) int32 {
	if rs == nil || rs.Spec.Replicas == nil {
		return 0
	}
	return *rs.Spec.Replicas
}

// Revision is a ReplicaSet's revision annotation as a number (0 if absent).
func Revision(obj api.Object) (int64, error) {
	v, ok := obj.GetObjectMeta().Annotations[api.RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// MaxRevision is the highest revision among the ReplicaSets.
func MaxRevision(all []*api.ReplicaSet) int64 {
	var max int64
	for _, rs := range all {
		if v, err := Revision(rs); err == nil && v > max {
			max = v
		}
	}
	return max
}

// LastRevision is the second highest revision: the one before the current.
func LastRevision(all []*api.ReplicaSet) int64 {
	var max, second int64
	for _, rs := range all {
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		if v >= max {
			second, max = max, v
		} else if v > second {
			second = v
		}
	}
	return second
}

func skipCopyAnnotation(key string) bool {
	switch key {
	case lastAppliedConfigAnnotation, api.RevisionAnnotation, api.RevisionHistoryAnnotation,
		api.DesiredReplicasAnnotation, api.MaxReplicasAnnotation, api.DeprecatedRollbackTo:
		return true
	}
	return false
}

// copyDeploymentAnnotationsToReplicaSet copies the user's annotations (the
// change-cause among them) onto the ReplicaSet.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) || rs.Annotations[k] == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// SetDeploymentAnnotationsTo makes the deployment's annotations those of
// the ReplicaSet it rolls back to.
func SetDeploymentAnnotationsTo(d *api.Deployment, rollbackTo *api.ReplicaSet) {
	kept := map[string]string{}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			kept[k] = v
		}
	}
	for k, v := range rollbackTo.Annotations {
		if !skipCopyAnnotation(k) {
			kept[k] = v
		}
	}
	d.Annotations = kept
}

// SetNewReplicaSetAnnotations gives the new ReplicaSet the deployment's
// annotations and the new revision, remembering a reused ReplicaSet's
// earlier revisions in revision-history.
func SetNewReplicaSetAnnotations(d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool, maxHistory int) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	oldRevision, ok := rs.Annotations[api.RevisionAnnotation]
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldInt = 0
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldInt < newInt {
		rs.Annotations[api.RevisionAnnotation] = newRevision
		changed = true
	}
	if ok && oldInt < newInt {
		history := rs.Annotations[api.RevisionHistoryAnnotation]
		olds := strings.Split(history, ",")
		if olds[0] == "" {
			rs.Annotations[api.RevisionHistoryAnnotation] = oldRevision
		} else {
			total := len(history) + len(oldRevision) + 1
			start := 0
			for total > maxHistory && start < len(olds) {
				total -= len(olds[start]) + 1
				start++
			}
			if total <= maxHistory {
				rs.Annotations[api.RevisionHistoryAnnotation] = strings.Join(append(olds[start:], oldRevision), ",")
			}
		}
	}
	if !exists && SetReplicasAnnotations(rs, Replicas(d), Replicas(d)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// SetReplicasAnnotations records the deployment's size on a ReplicaSet, for
// proportional scaling.
func SetReplicasAnnotations(rs *api.ReplicaSet, desired, max int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	d, m := strconv.Itoa(int(desired)), strconv.Itoa(int(max))
	if rs.Annotations[api.DesiredReplicasAnnotation] == d && rs.Annotations[api.MaxReplicasAnnotation] == m {
		return false
	}
	rs.Annotations[api.DesiredReplicasAnnotation] = d
	rs.Annotations[api.MaxReplicasAnnotation] = m
	return true
}

// ReplicasAnnotationsNeedUpdate reports whether SetReplicasAnnotations would change rs.
func ReplicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, max int32) bool {
	return rs.Annotations[api.DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[api.MaxReplicasAnnotation] != strconv.Itoa(int(max))
}

// GetDesiredReplicasAnnotation reads desired-replicas.
func GetDesiredReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	return intAnnotation(rs, api.DesiredReplicasAnnotation)
}

func intAnnotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// IsRollingUpdate reports the RollingUpdate strategy.
func IsRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType
}

// scaled is an int-or-percent resolved against total (0 when malformed;
// validation keeps malformed values out).
func scaled(v *intstr.IntOrString, total int, roundUp bool) int {
	if v == nil {
		return 0
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, total, roundUp)
	if err != nil {
		return 0
	}
	return n
}

// ResolveFenceposts turns maxSurge (rounded up) and maxUnavailable (rounded
// down) into numbers; both zero would deadlock, so unavailable becomes 1.
func ResolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) (int32, int32) {
	surge := scaled(maxSurge, int(desired), true)
	unavailable := scaled(maxUnavailable, int(desired), false)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable)
}

// MaxUnavailable is how many pods a rolling update may take down.
func MaxUnavailable(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) || Replicas(d) == 0 || d.Spec.Strategy.RollingUpdate == nil {
		return 0
	}
	_, u := ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, Replicas(d))
	if u > Replicas(d) {
		return Replicas(d)
	}
	return u
}

// MaxSurge is how many pods a rolling update may add above replicas.
func MaxSurge(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) || d.Spec.Strategy.RollingUpdate == nil {
		return 0
	}
	s, _ := ResolveFenceposts(d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable, Replicas(d))
	return s
}

// GetProportion is a ReplicaSet's share of a scaling of the deployment by
// toAdd, of which added is already handed out.
func GetProportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rs == nil || RSReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := getReplicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if Replicas(d) == 0 {
		return -RSReplicas(rs)
	}
	deploymentReplicas := Replicas(d) + MaxSurge(d)
	annotated, ok := intAnnotation(rs, api.MaxReplicasAnnotation)
	if !ok {
		annotated = d.Status.Replicas
	}
	size := float64(RSReplicas(rs)*deploymentReplicas) / float64(annotated)
	return int32(math.Round(size)) - RSReplicas(rs)
}

// EqualIgnoreHash compares two pod templates ignoring pod-template-hash,
// by upstream's Semantic.DeepEqual (labels left empty equal none).
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	a, b = a.DeepCopy(), b.DeepCopy()
	delete(a.Labels, api.DefaultDeploymentUniqueLabelKey)
	delete(b.Labels, api.DefaultDeploymentUniqueLabelKey)
	return api.SemanticEqual(a, b)
}

// FindNewReplicaSet is the oldest ReplicaSet whose template is the deployment's.
func FindNewReplicaSet(d *api.Deployment, all []*api.ReplicaSet) *api.ReplicaSet {
	sorted := append([]*api.ReplicaSet(nil), all...)
	sort.Sort(ReplicaSetsByCreationTimestamp(sorted))
	for _, rs := range sorted {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// FindOldReplicaSets is every ReplicaSet but the new one.
func FindOldReplicaSets(d *api.Deployment, all []*api.ReplicaSet) []*api.ReplicaSet {
	newRS := FindNewReplicaSet(d, all)
	var out []*api.ReplicaSet
	for _, rs := range all {
		if newRS == nil || rs.UID != newRS.UID {
			out = append(out, rs)
		}
	}
	return out
}

// FilterActiveReplicaSets keeps ReplicaSets with replicas wanted.
func FilterActiveReplicaSets(all []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range all {
		if rs != nil && RSReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// GetReplicaCountForReplicaSets sums spec.replicas.
func GetReplicaCountForReplicaSets(all []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range all {
		n += RSReplicas(rs)
	}
	return n
}

// GetActualReplicaCountForReplicaSets sums status.replicas.
func GetActualReplicaCountForReplicaSets(all []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range all {
		if rs != nil {
			n += rs.Status.Replicas
		}
	}
	return n
}

// GetReadyReplicaCountForReplicaSets sums status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(all []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range all {
		if rs != nil {
			n += rs.Status.ReadyReplicas
		}
	}
	return n
}

// GetAvailableReplicaCountForReplicaSets sums status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(all []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range all {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}

// NewRSNewReplicas is how big the new ReplicaSet may be now.
func NewRSNewReplicas(d *api.Deployment, all []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	switch d.Spec.Strategy.Type {
	case api.RollingUpdateDeploymentStrategyType:
		maxTotal := Replicas(d) + MaxSurge(d)
		current := GetReplicaCountForReplicaSets(all)
		if current >= maxTotal {
			return RSReplicas(newRS)
		}
		up := min(maxTotal-current, Replicas(d)-RSReplicas(newRS))
		return RSReplicas(newRS) + up
	default:
		return Replicas(d)
	}
}

// IsSaturated reports a new ReplicaSet that holds all the deployment's
// replicas, all available.
func IsSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := GetDesiredReplicasAnnotation(rs)
	return ok && desired == Replicas(d) && RSReplicas(rs) == Replicas(d) && rs.Status.AvailableReplicas == Replicas(d)
}

// HasProgressDeadline reports a deadline is set.
func HasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// HasRevisionHistoryLimit reports a limit is set.
func HasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// DeploymentComplete: every replica updated and available, generation seen.
func DeploymentComplete(d *api.Deployment, s *api.DeploymentStatus) bool {
	r := Replicas(d)
	return s.UpdatedReplicas == r && s.Replicas == r && s.AvailableReplicas == r && s.ObservedGeneration >= d.Generation
}

// DeploymentProgressing: the new status shows movement over the old.
func DeploymentProgressing(d *api.Deployment, s *api.DeploymentStatus) bool {
	old := d.Status
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := s.Replicas - s.UpdatedReplicas
	return s.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld ||
		s.ReadyReplicas > old.ReadyReplicas || s.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut: no progress for progressDeadlineSeconds.
func DeploymentTimedOut(d *api.Deployment, s *api.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c := api.GetDeploymentCondition(*s, api.DeploymentProgressing)
	if c == nil {
		return false
	}
	switch c.Reason {
	case NewRSAvailableReason:
		return false
	case TimedOutReason:
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return c.LastUpdateTime.Add(deadline).Before(now)
}

// ReplicaSetsByCreationTimestamp sorts oldest first, then by name.
type ReplicaSetsByCreationTimestamp []*api.ReplicaSet

func (o ReplicaSetsByCreationTimestamp) Len() int      { return len(o) }
func (o ReplicaSetsByCreationTimestamp) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsByCreationTimestamp) Less(i, j int) bool {
	if o[i].CreationTimestamp.Equal(o[j].CreationTimestamp.Time) {
		return o[i].Name < o[j].Name
	}
	return o[i].CreationTimestamp.Before(o[j].CreationTimestamp.Time)
}

// ReplicaSetsBySizeOlder sorts larger first, older first among equals.
type ReplicaSetsBySizeOlder []*api.ReplicaSet

func (o ReplicaSetsBySizeOlder) Len() int      { return len(o) }
func (o ReplicaSetsBySizeOlder) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsBySizeOlder) Less(i, j int) bool {
	if RSReplicas(o[i]) == RSReplicas(o[j]) {
		return ReplicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return RSReplicas(o[i]) > RSReplicas(o[j])
}

// ReplicaSetsBySizeNewer sorts larger first, newer first among equals.
type ReplicaSetsBySizeNewer []*api.ReplicaSet

func (o ReplicaSetsBySizeNewer) Len() int      { return len(o) }
func (o ReplicaSetsBySizeNewer) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsBySizeNewer) Less(i, j int) bool {
	if RSReplicas(o[i]) == RSReplicas(o[j]) {
		return ReplicaSetsByCreationTimestamp(o).Less(j, i)
	}
	return RSReplicas(o[i]) > RSReplicas(o[j])
}

// ReplicaSetsByRevision sorts by revision, then by age.
type ReplicaSetsByRevision []*api.ReplicaSet

func (o ReplicaSetsByRevision) Len() int      { return len(o) }
func (o ReplicaSetsByRevision) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o ReplicaSetsByRevision) Less(i, j int) bool {
	ri, _ := Revision(o[i])
	rj, _ := Revision(o[j])
	if ri == rj {
		return ReplicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return ri < rj
}
