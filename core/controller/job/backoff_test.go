package job

import (
	"testing"
	"time"

	"kubeplay/core/api"
)

func TestBackoffDelay(t *testing.T) {
	for _, tc := range []struct {
		failures int32
		want     time.Duration
	}{
		{0, 0},
		{1, 10 * time.Second},
		{2, 20 * time.Second},
		{3, 40 * time.Second},
		{4, 80 * time.Second},
		{6, 320 * time.Second},
		{7, 10 * time.Minute}, // 640 s is past the cap
		{30, 10 * time.Minute},
	} {
		if got := backoffDelay(DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff, tc.failures); got != tc.want {
			t.Errorf("backoffDelay(%d) = %v, want %v", tc.failures, got, tc.want)
		}
	}
}

func TestRemainingTime(t *testing.T) {
	last := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		failures int32
		elapsed  time.Duration
		want     time.Duration
	}{
		{"no failures", 0, 0, 0},
		{"just failed", 1, 0, 10 * time.Second},
		{"part waited", 2, 5 * time.Second, 15 * time.Second},
		{"exactly waited", 2, 20 * time.Second, 0},
		{"long ago", 3, time.Hour, 0},
	} {
		r := backoffRecord{failuresAfterLastSuccess: tc.failures, lastFailureTime: &last}
		if got := r.getRemainingTime(last.Add(tc.elapsed)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func finishedPod(name string, phase string, at time.Time) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name},
		Status: api.PodStatus{Phase: phase, ContainerStatuses: []api.ContainerStatus{{
			State: api.ContainerState{Terminated: &api.ContainerStateTerminated{FinishedAt: api.NewTime(at)}},
		}}},
	}
}

// A success resets the failure count; only failures after it count.
func TestNewBackoffRecord(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name          string
		prior         int32
		succeeded     []int
		failed        []int
		wantFailures  int32
		wantLastFails int // seconds; -1 for none
	}{
		{"nothing new keeps the record", 2, nil, nil, 2, -1},
		{"failures add up", 1, nil, []int{5, 3}, 3, 5},
		{"a success resets", 4, []int{7}, nil, 0, -1},
		{"failures after the success count", 4, []int{7}, []int{6, 8, 9}, 2, 9},
	} {
		s := newBackoffStore()
		if tc.prior > 0 {
			s.updateBackoffRecord(backoffRecord{key: "k", failuresAfterLastSuccess: tc.prior})
		}
		var sp, fp []*api.Pod
		for _, x := range tc.succeeded {
			sp = append(sp, finishedPod("s", api.PodSucceeded, at(x)))
		}
		for _, x := range tc.failed {
			fp = append(fp, finishedPod("f", api.PodFailed, at(x)))
		}
		r := s.newBackoffRecord("k", sp, fp)
		if r.failuresAfterLastSuccess != tc.wantFailures {
			t.Errorf("%s: failures %d, want %d", tc.name, r.failuresAfterLastSuccess, tc.wantFailures)
		}
		if tc.wantLastFails >= 0 && (r.lastFailureTime == nil || !r.lastFailureTime.Equal(at(tc.wantLastFails))) {
			t.Errorf("%s: last failure %v, want %v", tc.name, r.lastFailureTime, at(tc.wantLastFails))
		}
	}
}

func TestGetFinishedTime(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	running := &api.Pod{Status: api.PodStatus{
		ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Running: &api.ContainerStateRunning{}}}},
		Conditions:        []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(t0.Add(3 * time.Second))}},
	}}
	deleted := &api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: api.NewTimePtr(t0.Add(40 * time.Second)), DeletionGracePeriodSeconds: api.Int64(30)}}
	created := &api.Pod{ObjectMeta: api.ObjectMeta{CreationTimestamp: api.NewTime(t0)}}
	for _, tc := range []struct {
		name string
		pod  *api.Pod
		want time.Time
	}{
		{"container finish", finishedPod("a", api.PodFailed, t0.Add(5*time.Second)), t0.Add(5 * time.Second)},
		{"ready false", running, t0.Add(3 * time.Second)},
		{"deletion minus grace", deleted, t0.Add(10 * time.Second)},
		{"creation", created, t0},
	} {
		if got := getFinishedTime(tc.pod); !got.Equal(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
