package util

import (
	"time"

	"kubeplay/core/api"
)

// TriggerTimeTracker computes the last-change-trigger-time annotation: the
// earliest pod readiness change or service creation seen since the
// previous sync of the service. Upstream accepts that several changes of
// one object between two syncs count as one; so does this.
type TriggerTimeTracker struct {
	states map[string]serviceState // by namespace/name
}

type serviceState struct {
	lastServiceTriggerTime time.Time
	lastPodTriggerTimes    map[string]time.Time // by pod name
}

// NewTriggerTimeTracker returns an empty tracker.
func NewTriggerTimeTracker() *TriggerTimeTracker {
	return &TriggerTimeTracker{states: map[string]serviceState{}}
}

// ComputeEndpointLastChangeTriggerTime records the service's and pods'
// trigger times and returns the time to export: the service's creation for
// a service seen for the first time, else the earliest trigger time that
// changed (zero: none changed, drop the annotation).
func (t *TriggerTimeTracker) ComputeEndpointLastChangeTriggerTime(namespace string, svc *api.Service, pods []*api.Pod) time.Time {
	key := namespace + "/" + svc.Name
	state, known := t.states[key]
	var earliest time.Time
	podTimes := map[string]time.Time{}
	for _, pod := range pods {
		pt := podTriggerTime(pod)
		if pt.IsZero() {
			continue
		}
		podTimes[pod.Name] = pt
		if pt.After(state.lastPodTriggerTimes[pod.Name]) {
			earliest = minTime(earliest, pt)
		}
	}
	st := svc.CreationTimestamp.Time
	if st.After(state.lastServiceTriggerTime) {
		earliest = minTime(earliest, st)
	}
	t.states[key] = serviceState{lastServiceTriggerTime: st, lastPodTriggerTimes: podTimes}
	if !known {
		return svc.CreationTimestamp.Time
	}
	return earliest
}

// DeleteService forgets a deleted service.
func (t *TriggerTimeTracker) DeleteService(namespace, name string) {
	delete(t.states, namespace+"/"+name)
}

// podTriggerTime is when the pod's readiness last changed.
func podTriggerTime(pod *api.Pod) time.Time {
	if c := api.GetPodReadyCondition(&pod.Status); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

func minTime(cur, v time.Time) time.Time {
	if cur.IsZero() || v.Before(cur) {
		return v
	}
	return cur
}
