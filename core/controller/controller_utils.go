package controller

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// Event reasons the pod control records on the controller object.
const (
	FailedCreatePodReason     = "FailedCreate"
	SuccessfulCreatePodReason = "SuccessfulCreate"
	FailedDeletePodReason     = "FailedDelete"
	SuccessfulDeletePodReason = "SuccessfulDelete"
)

// IsPodActive is true for a pod that is neither finished nor being deleted.
func IsPodActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// FilterActivePods keeps the active pods.
func FilterActivePods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// NewControllerRef is the owner reference a controller puts on what it owns.
func NewControllerRef(owner api.Object) *api.OwnerReference {
	tm, m := owner.GetTypeMeta(), owner.GetObjectMeta()
	return &api.OwnerReference{APIVersion: tm.APIVersion, Kind: tm.Kind, Name: m.Name, UID: m.UID,
		Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}
}

// GetPodFromTemplate is the pod a controller creates from its template:
// the template's labels, annotations, finalizers and spec, a generated
// name after the parent's, and the controller reference.
func GetPodFromTemplate(template *api.PodTemplateSpec, parent api.Object, controllerRef *api.OwnerReference) *api.Pod {
	t := template.DeepCopy()
	pod := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{
			Labels:       t.Labels,
			Annotations:  t.Annotations,
			GenerateName: parent.GetObjectMeta().Name + "-",
			Namespace:    parent.GetObjectMeta().Namespace,
			Finalizers:   t.Finalizers,
		},
		Spec: t.Spec,
	}
	if controllerRef != nil {
		pod.OwnerReferences = append(pod.OwnerReferences, *controllerRef)
	}
	return pod
}

// PodControl creates and deletes pods for a controller and records the
// events upstream's RealPodControl records on the controller object.
type PodControl struct {
	Client   client.Interface
	Recorder *client.Recorder
}

// CreatePods creates one pod from template on behalf of parent.
func (pc PodControl) CreatePods(template *api.PodTemplateSpec, parent api.Object, controllerRef *api.OwnerReference) (*api.Pod, error) {
	return pc.CreatePod(GetPodFromTemplate(template, parent, controllerRef), parent)
}

// CreatePod creates pod on behalf of parent.
func (pc PodControl) CreatePod(pod *api.Pod, parent api.Object) (*api.Pod, error) {
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("unable to create pods, no labels")
	}
	created, err := client.Create(pc.Client, pod)
	if err != nil {
		pc.Recorder.Eventf(parent, api.EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err)
		return nil, err
	}
	pc.Recorder.Eventf(parent, api.EventTypeNormal, SuccessfulCreatePodReason, "Created pod: %v", created.Name)
	return created, nil
}

// DeletePod deletes a pod on behalf of parent.
func (pc PodControl) DeletePod(namespace, name string, parent api.Object) error {
	err := client.Delete[*api.Pod](pc.Client, namespace, name, api.DeleteOptions{})
	if err != nil {
		pc.Recorder.Eventf(parent, api.EventTypeWarning, FailedDeletePodReason, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %v", err)
	}
	pc.Recorder.Eventf(parent, api.EventTypeNormal, SuccessfulDeletePodReason, "Deleted pod: %v", name)
	return nil
}

// podPhaseToOrdinal ranks phases for deletion: pending pods go first.
var podPhaseToOrdinal = map[string]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}

// ActivePodsWithRanks orders pods by how cheap they are to delete, the
// cheapest first, by upstream's rules: unscheduled before scheduled,
// pending before unknown before running, not ready before ready, lower
// pod-deletion-cost first, pods on crowded nodes (higher Rank) first,
// recently ready before long ready, more restarts first, newer before
// older (ages compared on a log2 scale, ties by uid).
type ActivePodsWithRanks struct {
	Pods []*api.Pod
	Rank []int
	Now  time.Time
}

func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

func (s ActivePodsWithRanks) Less(i, j int) bool {
	a, b := s.Pods[i], s.Pods[j]
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := podPhaseToOrdinal[string(a.Status.Phase)], podPhaseToOrdinal[string(b.Status.Phase)]; pa != pb {
		return pa < pb
	}
	if ra, rb := api.IsPodReady(a), api.IsPodReady(b); ra != rb {
		return !ra
	}
	if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
		return ca < cb
	}
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	if api.IsPodReady(a) && api.IsPodReady(b) {
		ta, tb := podReadyTime(a), podReadyTime(b)
		if !ta.Equal(tb) {
			if s.Now.IsZero() || ta.IsZero() || tb.IsZero() {
				return afterOrZero(ta, tb)
			}
			if d := logarithmicRankDiff(ta, tb, s.Now); d != 0 {
				return d < 0
			}
			return a.UID < b.UID
		}
	}
	if ma, mb := maxContainerRestarts(a), maxContainerRestarts(b); ma != mb {
		return ma > mb
	}
	ta, tb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
	if !ta.Equal(tb) {
		if s.Now.IsZero() || ta.IsZero() || tb.IsZero() {
			return afterOrZero(ta, tb)
		}
		if d := logarithmicRankDiff(ta, tb, s.Now); d != 0 {
			return d < 0
		}
		return a.UID < b.UID
	}
	return false
}

// afterOrZero is true when t1 is unset or later than t2.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logarithmicRankDiff compares how long ago t1 and t2 were on a log2
// scale: a positive result means t1 is in an older bucket.
func logarithmicRankDiff(t1, t2, now time.Time) int64 {
	d1, d2 := now.Sub(t1), now.Sub(t2)
	r1, r2 := int64(-1), int64(-1)
	if d1 > 0 {
		r1 = int64(math.Log2(float64(d1)))
	}
	if d2 > 0 {
		r2 = int64(math.Log2(float64(d2)))
	}
	return r1 - r2
}

func podReadyTime(p *api.Pod) time.Time {
	if c := api.GetPodReadyCondition(&p.Status); c != nil && c.Status == api.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func maxContainerRestarts(p *api.Pod) int32 {
	var m int32
	for _, c := range p.Status.ContainerStatuses {
		if c.RestartCount > m {
			m = c.RestartCount
		}
	}
	return m
}

// PodDeletionCostAnnotation lets users say which pods to remove first.
const PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

func deletionCost(p *api.Pod) int32 {
	v, ok := p.Annotations[PodDeletionCostAnnotation]
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// SameControllerRef reports whether two controller references name the
// same owner (both nil counts as the same).
func SameControllerRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.UID == b.UID && a.Kind == b.Kind && a.Name == b.Name && a.APIVersion == b.APIVersion
}
