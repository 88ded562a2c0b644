package tainteviction

import (
	"testing"
	"time"

	"kubeplay/core/api"
)

func TestGetMinTolerationTime(t *testing.T) {
	sec := func(s int64) api.Toleration { return api.Toleration{TolerationSeconds: &s} }
	for _, tc := range []struct {
		name string
		tol  []api.Toleration
		want time.Duration
	}{
		{"no tolerations: at once", nil, 0},
		{"forever", []api.Toleration{{}}, -1},
		{"the shortest wins", []api.Toleration{sec(300), sec(60), {}}, 60 * time.Second},
		{"zero or negative: at once", []api.Toleration{sec(300), sec(-5)}, 0},
	} {
		if got := getMinTolerationTime(tc.tol); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestGetMatchingTolerations(t *testing.T) {
	taints := []api.Taint{
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute},
		{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoExecute},
	}
	unreachable := api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}
	dedicated := api.Toleration{Key: "dedicated", Value: "db"}
	everything := api.Toleration{Operator: api.TolerationOpExists}

	if ok, _ := getMatchingTolerations(taints, []api.Toleration{unreachable}); ok {
		t.Error("one taint untolerated, yet all tolerated")
	}
	ok, used := getMatchingTolerations(taints, []api.Toleration{dedicated, unreachable})
	if !ok || len(used) != 2 || used[0].Key != unreachable.Key || used[1].Key != "dedicated" {
		t.Errorf("used = %+v", used)
	}
	if ok, used := getMatchingTolerations(taints, []api.Toleration{everything}); !ok || len(used) != 2 {
		t.Errorf("an empty-key Exists toleration tolerates everything: %v %+v", ok, used)
	}
}
