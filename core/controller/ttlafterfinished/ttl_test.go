package ttlafterfinished

import (
	"testing"
	"time"

	"kubeplay/core/api"
)

func TestTimeLeft(t *testing.T) {
	finished := time.Date(2026, 11, 22, 11, 30, 0, 0, time.UTC)
	cond := func(typ string, at time.Time) []api.JobCondition {
		return []api.JobCondition{{Type: typ, Status: api.ConditionTrue, LastTransitionTime: api.Time{Time: at}}}
	}
	for _, tc := range []struct {
		name       string
		conditions []api.JobCondition
		ttl        int32
		now        time.Time
		want       time.Duration
		wantErr    bool
	}{
		{"complete, waiting", cond(api.JobComplete, finished), 100, finished.Add(30 * time.Second), 70 * time.Second, false},
		{"failed, expired", cond(api.JobFailed, finished), 100, finished.Add(100 * time.Second), 0, false},
		{"zero ttl", cond(api.JobComplete, finished), 0, finished, 0, false},
		{"past expiry", cond(api.JobComplete, finished), 10, finished.Add(time.Minute), -50 * time.Second, false},
		{"no finish time", cond(api.JobComplete, time.Time{}), 10, finished, 0, true},
		{"not finished", nil, 10, finished, 0, true},
	} {
		j := &api.Job{Spec: api.JobSpec{TTLSecondsAfterFinished: api.Int32(tc.ttl)}, Status: api.JobStatus{Conditions: tc.conditions}}
		got, err := timeLeft(j, tc.now)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("%s: %v, %v; want %v (error %v)", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestNeedsCleanup(t *testing.T) {
	done := []api.JobCondition{{Type: api.JobComplete, Status: api.ConditionTrue}}
	for _, tc := range []struct {
		name string
		job  api.Job
		want bool
	}{
		{"finished with ttl", api.Job{Spec: api.JobSpec{TTLSecondsAfterFinished: api.Int32(5)}, Status: api.JobStatus{Conditions: done}}, true},
		{"finished without ttl", api.Job{Status: api.JobStatus{Conditions: done}}, false},
		{"running with ttl", api.Job{Spec: api.JobSpec{TTLSecondsAfterFinished: api.Int32(5)}}, false},
		{"success criteria only", api.Job{Spec: api.JobSpec{TTLSecondsAfterFinished: api.Int32(5)},
			Status: api.JobStatus{Conditions: []api.JobCondition{{Type: api.JobSuccessCriteriaMet, Status: api.ConditionTrue}}}}, false},
	} {
		if got := needsCleanup(&tc.job); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
