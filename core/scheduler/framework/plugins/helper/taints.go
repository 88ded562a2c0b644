package helper

import "kubeplay/core/api"

// DoNotScheduleTaints keeps the taints that stop scheduling: NoSchedule and NoExecute.
func DoNotScheduleTaints(t *api.Taint) bool {
	return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
}

// FindMatchingUntoleratedTaint returns the first taint (in the node's
// order) that inclusionFilter keeps and no toleration tolerates.
func FindMatchingUntoleratedTaint(taints []api.Taint, tolerations []api.Toleration, inclusionFilter func(*api.Taint) bool) (api.Taint, bool) {
	for i := range taints {
		t := &taints[i]
		if inclusionFilter != nil && !inclusionFilter(t) {
			continue
		}
		if !api.TolerationsTolerateTaint(tolerations, t) {
			return *t, true
		}
	}
	return api.Taint{}, false
}
