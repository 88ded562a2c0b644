package tainteviction

import (
	"math"
	"time"

	"kubeplay/core/api"
)

// getNoExecuteTaints keeps the NoExecute taints.
func getNoExecuteTaints(taints []api.Taint) []api.Taint {
	out := []api.Taint{}
	for _, t := range taints {
		if t.Effect == api.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// getMatchingTolerations reports whether every taint is tolerated, and the
// first toleration that tolerates each.
func getMatchingTolerations(taints []api.Taint, tolerations []api.Toleration) (bool, []api.Toleration) {
	used := []api.Toleration{}
	for i := range taints {
		found := false
		for j := range tolerations {
			if tolerations[j].ToleratesTaint(&taints[i]) {
				used = append(used, tolerations[j])
				found = true
				break
			}
		}
		if !found {
			return false, []api.Toleration{}
		}
	}
	return true, used
}

// getMinTolerationTime is the shortest tolerationSeconds among the
// tolerations: 0 for none given, -1 when all tolerate forever.
func getMinTolerationTime(tolerations []api.Toleration) time.Duration {
	if len(tolerations) == 0 {
		return 0
	}
	min := int64(math.MaxInt64)
	for _, t := range tolerations {
		if t.TolerationSeconds == nil {
			continue
		}
		s := *t.TolerationSeconds
		if s <= 0 {
			return 0
		}
		if s < min {
			min = s
		}
	}
	if min == int64(math.MaxInt64) {
		return -1
	}
	// Guard the conversion: a huge tolerationSeconds must not wrap around.
	if min > int64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(min) * time.Second
}

func sameTolerations(a, b []api.Toleration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !x.MatchToleration(&y) {
			return false
		}
		if (x.TolerationSeconds == nil) != (y.TolerationSeconds == nil) ||
			(x.TolerationSeconds != nil && *x.TolerationSeconds != *y.TolerationSeconds) {
			return false
		}
	}
	return true
}

func sameTaints(a, b []api.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Key != y.Key || x.Value != y.Value || x.Effect != y.Effect {
			return false
		}
		if (x.TimeAdded == nil) != (y.TimeAdded == nil) ||
			(x.TimeAdded != nil && !x.TimeAdded.Equal(y.TimeAdded.Time)) {
			return false
		}
	}
	return true
}
