package nodelifecycle

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
)

// updateTaintRetries is upstream's UpdateTaintBackoff step count.
const updateTaintRetries = 5

// unreachableTaint is the NoExecute taint of a node whose kubelet stopped
// reporting (Ready Unknown); a fresh value each time, so no caller can
// change another's template.
func unreachableTaint() *api.Taint {
	return &api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
}

// notReadyTaint is the NoExecute taint of a node whose kubelet reports it
// not ready (Ready False).
func notReadyTaint() *api.Taint {
	return &api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}
}

// taintKeyForCondition maps a node condition and its status to the taint
// (with NoSchedule) the node gets while the condition holds.
func taintKeyForCondition(conditionType, status string) (string, bool) {
	switch conditionType {
	case api.NodeReady:
		switch status {
		case api.ConditionFalse:
			return api.TaintNodeNotReady, true
		case api.ConditionUnknown:
			return api.TaintNodeUnreachable, true
		}
	case api.NodeMemoryPressure:
		if status == api.ConditionTrue {
			return api.TaintNodeMemoryPressure, true
		}
	case api.NodeDiskPressure:
		if status == api.ConditionTrue {
			return api.TaintNodeDiskPressure, true
		}
	case api.NodeNetworkUnavailable:
		if status == api.ConditionTrue {
			return api.TaintNodeNetworkUnavailable, true
		}
	case api.NodePIDPressure:
		if status == api.ConditionTrue {
			return api.TaintNodePIDPressure, true
		}
	}
	return "", false
}

// isConditionTaintKey says whether the controller owns a taint key because
// it mirrors a node condition.
func isConditionTaintKey(key string) bool {
	switch key {
	case api.TaintNodeNotReady, api.TaintNodeUnreachable, api.TaintNodeNetworkUnavailable,
		api.TaintNodeMemoryPressure, api.TaintNodeDiskPressure, api.TaintNodePIDPressure:
		return true
	}
	return false
}

// taintExists reports whether taints hold one with t's key and effect.
func taintExists(taints []api.Taint, t *api.Taint) bool {
	for i := range taints {
		if taints[i].MatchTaint(t) {
			return true
		}
	}
	return false
}

// taintSetDiff returns the taints of want missing from have, and those of
// have missing from want (compared by key and effect).
func taintSetDiff(want, have []api.Taint) (toAdd, toRemove []*api.Taint) {
	for i := range want {
		if !taintExists(have, &want[i]) {
			t := want[i]
			toAdd = append(toAdd, &t)
		}
	}
	for i := range have {
		if !taintExists(want, &have[i]) {
			t := have[i]
			toRemove = append(toRemove, &t)
		}
	}
	return toAdd, toRemove
}

// addOrUpdateTaint puts t on the node (replacing the taint with its key and
// effect) and reports whether anything changed.
func addOrUpdateTaint(node *api.Node, t *api.Taint) bool {
	var out []api.Taint
	replaced := false
	for i := range node.Spec.Taints {
		cur := node.Spec.Taints[i]
		if cur.MatchTaint(t) {
			if sameTaint(cur, *t) {
				return false
			}
			out = append(out, *t)
			replaced = true
			continue
		}
		out = append(out, cur)
	}
	if !replaced {
		out = append(out, *t)
	}
	node.Spec.Taints = out
	return true
}

func sameTaint(a, b api.Taint) bool {
	if a.Key != b.Key || a.Value != b.Value || a.Effect != b.Effect {
		return false
	}
	if a.TimeAdded == nil || b.TimeAdded == nil {
		return a.TimeAdded == nil && b.TimeAdded == nil
	}
	return a.TimeAdded.Equal(b.TimeAdded.Time)
}

// removeTaint drops every taint with t's key and effect and reports whether
// there was one.
func removeTaint(node *api.Node, t *api.Taint) bool {
	var out []api.Taint
	removed := false
	for _, cur := range node.Spec.Taints {
		if cur.MatchTaint(t) {
			removed = true
			continue
		}
		out = append(out, cur)
	}
	node.Spec.Taints = out
	return removed
}

// updateNode reads the node fresh, lets change edit it, and
// writes it if change reports a difference; a conflict reads it again.
func (nc *Controller) updateNode(nodeName string, change func(*api.Node) bool) error {
	var err error
	for i := 0; i < updateTaintRetries; i++ {
		var node *api.Node
		node, err = client.Get[*api.Node](nc.client, "", nodeName)
		if err != nil {
			return err
		}
		node = node.DeepCopy()
		if !change(node) {
			return nil
		}
		if _, err = client.Update(nc.client, node); err == nil || !apierrors.IsConflict(err) {
			return err
		}
	}
	return err
}

// addOrUpdateTaintOnNode puts the taints on the node.
func (nc *Controller) addOrUpdateTaintOnNode(nodeName string, taints ...*api.Taint) error {
	if len(taints) == 0 {
		return nil
	}
	return nc.updateNode(nodeName, func(n *api.Node) bool {
		changed := false
		for _, t := range taints {
			if addOrUpdateTaint(n, t) {
				changed = true
			}
		}
		return changed
	})
}

// removeTaintOffNode takes the taints off the node; node, when given, is a
// cached copy that spares the API a read when none of them is there.
func (nc *Controller) removeTaintOffNode(nodeName string, node *api.Node, taints ...*api.Taint) error {
	if len(taints) == 0 {
		return nil
	}
	if node != nil {
		found := false
		for _, t := range taints {
			if taintExists(node.Spec.Taints, t) {
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return nc.updateNode(nodeName, func(n *api.Node) bool {
		changed := false
		for _, t := range taints {
			if removeTaint(n, t) {
				changed = true
			}
		}
		return changed
	})
}

// swapNodeControllerTaint adds taintsToAdd (stamped with the time they are
// added) and removes taintsToRemove; it reports success.
func (nc *Controller) swapNodeControllerTaint(taintsToAdd, taintsToRemove []*api.Taint, node *api.Node) bool {
	now := api.NewTime(nc.clock.Now())
	for _, t := range taintsToAdd {
		t.TimeAdded = &now
	}
	if err := nc.addOrUpdateTaintOnNode(node.Name, taintsToAdd...); err != nil {
		return false
	}
	if err := nc.removeTaintOffNode(node.Name, node, taintsToRemove...); err != nil {
		return false
	}
	return true
}
