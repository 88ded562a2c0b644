package api

import (
	"testing"
	"time"
)

var t0 = NewTime(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))

func at(sec int) Time { return NewTime(t0.Add(time.Duration(sec) * time.Second)) }

func TestUpdatePodCondition(t *testing.T) {
	tests := []struct {
		name        string
		existing    []PodCondition
		update      PodCondition
		wantChanged bool
		wantLTT     Time
	}{
		{"new condition is added at now", nil,
			PodCondition{Type: PodReady, Status: ConditionFalse}, true, at(10)},
		{"same status and reason changes nothing", []PodCondition{{Type: PodReady, Status: ConditionTrue, LastTransitionTime: at(0)}},
			PodCondition{Type: PodReady, Status: ConditionTrue}, false, at(0)},
		{"new reason keeps the transition time", []PodCondition{{Type: PodReady, Status: ConditionFalse, Reason: "A", LastTransitionTime: at(0)}},
			PodCondition{Type: PodReady, Status: ConditionFalse, Reason: "B"}, true, at(0)},
		{"status flip moves the transition time", []PodCondition{{Type: PodReady, Status: ConditionFalse, LastTransitionTime: at(0)}},
			PodCondition{Type: PodReady, Status: ConditionTrue}, true, at(10)},
		{"new probe time is a change", []PodCondition{{Type: PodScheduled, Status: ConditionFalse, LastTransitionTime: at(0)}},
			PodCondition{Type: PodScheduled, Status: ConditionFalse, LastProbeTime: at(5)}, true, at(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &PodStatus{Conditions: append([]PodCondition{{Type: PodInitialized, Status: ConditionTrue}}, tt.existing...)}
			c := tt.update
			if got := UpdatePodCondition(st, &c, at(10)); got != tt.wantChanged {
				t.Errorf("changed = %v, want %v", got, tt.wantChanged)
			}
			_, got := GetPodCondition(st, tt.update.Type)
			if got == nil {
				t.Fatal("condition missing after update")
			}
			if !got.LastTransitionTime.Equal(tt.wantLTT.Time) {
				t.Errorf("lastTransitionTime = %v, want %v", got.LastTransitionTime, tt.wantLTT)
			}
			if got.Status != tt.update.Status || got.Reason != tt.update.Reason {
				t.Errorf("stored %+v", *got)
			}
			if n := len(st.Conditions); n != 2 { // Initialized and the updated one
				t.Errorf("%d conditions: %+v", n, st.Conditions)
			}
		})
	}
}

func TestGetPodConditionMissing(t *testing.T) {
	if i, c := GetPodCondition(&PodStatus{}, PodReady); i != -1 || c != nil {
		t.Errorf("got %d %v", i, c)
	}
	if i, c := GetPodCondition(nil, PodReady); i != -1 || c != nil {
		t.Errorf("nil status: got %d %v", i, c)
	}
}

func TestIsPodReadyAndAvailable(t *testing.T) {
	ready := func(status string, since Time) *Pod {
		return &Pod{Status: PodStatus{Conditions: []PodCondition{
			{Type: PodScheduled, Status: ConditionTrue},
			{Type: PodReady, Status: status, LastTransitionTime: since},
		}}}
	}
	tests := []struct {
		name            string
		pod             *Pod
		minReadySeconds int32
		now             Time
		wantReady       bool
		wantAvailable   bool
	}{
		{"no Ready condition", &Pod{}, 0, at(0), false, false},
		{"not ready", ready(ConditionFalse, at(0)), 0, at(100), false, false},
		{"unknown", ready(ConditionUnknown, at(0)), 0, at(100), false, false},
		{"ready, no minReadySeconds", ready(ConditionTrue, at(0)), 0, at(0), true, true},
		{"ready for less than minReadySeconds", ready(ConditionTrue, at(0)), 5, at(4), true, false},
		{"ready for exactly minReadySeconds is not yet available", ready(ConditionTrue, at(0)), 5, at(5), true, false},
		{"ready for longer than minReadySeconds", ready(ConditionTrue, at(0)), 5, at(6), true, true},
		{"ready without a transition time", ready(ConditionTrue, Time{}), 5, at(600), true, false},
		{"nil pod", nil, 0, at(0), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsPodReady(tt.pod); got != tt.wantReady {
				t.Errorf("IsPodReady = %v, want %v", got, tt.wantReady)
			}
			if got := IsPodAvailable(tt.pod, tt.minReadySeconds, tt.now); got != tt.wantAvailable {
				t.Errorf("IsPodAvailable = %v, want %v", got, tt.wantAvailable)
			}
		})
	}
}
