package nodelifecycle

import (
	"maps"
	"slices"
	"time"

	"kubeplay/core/api"
)

// doNoScheduleTaintingPass makes a node's NoSchedule taints mirror its
// conditions (not-ready, unreachable, memory/disk/pid pressure, network
// unavailable) and spec.unschedulable.
func (nc *Controller) doNoScheduleTaintingPass(nodeName string) error {
	o, ok := nc.nodeInf.Get("", nodeName)
	if !ok {
		return nil
	}
	node := o.(*api.Node)
	var want []api.Taint
	for _, c := range node.Status.Conditions {
		if key, ok := taintKeyForCondition(c.Type, c.Status); ok {
			want = append(want, api.Taint{Key: key, Effect: api.TaintEffectNoSchedule})
		}
	}
	if node.Spec.Unschedulable {
		want = append(want, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule})
	}
	var have []api.Taint
	for _, t := range node.Spec.Taints {
		if t.Effect == api.TaintEffectNoSchedule && (t.Key == api.TaintNodeUnschedulable || isConditionTaintKey(t.Key)) {
			have = append(have, t)
		}
	}
	toAdd, toRemove := taintSetDiff(want, have)
	if len(toAdd) == 0 && len(toRemove) == 0 {
		return nil
	}
	if !nc.swapNodeControllerTaint(toAdd, toRemove, node) {
		return errSwapFailed(nodeName)
	}
	return nil
}

type errSwapFailed string

func (e errSwapFailed) Error() string { return "failed to swap taints of node " + string(e) }

// markNodeForTainting queues the node in its zone for the NoExecute taint
// that matches status, forgetting an earlier turn if that taint is missing.
func (nc *Controller) markNodeForTainting(node *api.Node, status string) bool {
	q := nc.zoneNoExecuteTainter[GetZoneKey(node)]
	if q == nil {
		return false
	}
	if status == api.ConditionFalse && !taintExists(node.Spec.Taints, notReadyTaint()) {
		q.Remove(node.Name)
	}
	if status == api.ConditionUnknown && !taintExists(node.Spec.Taints, unreachableTaint()) {
		q.Remove(node.Name)
	}
	return q.Add(node.Name, node.UID, nc.clock.Now())
}

// markNodeAsReachable removes both NoExecute taints and the node's place in
// the tainting queue; it reports whether the node was queued.
func (nc *Controller) markNodeAsReachable(node *api.Node) (bool, error) {
	if err := nc.removeTaintOffNode(node.Name, node, unreachableTaint()); err != nil {
		return false, err
	}
	if err := nc.removeTaintOffNode(node.Name, node, notReadyTaint()); err != nil {
		return false, err
	}
	q := nc.zoneNoExecuteTainter[GetZoneKey(node)]
	if q == nil {
		return false, nil
	}
	return q.Remove(node.Name), nil
}

// doNoExecuteTaintingPass gives the queued nodes their NoExecute taint, as
// fast as each zone's limiter allows: unreachable for Ready Unknown,
// not-ready for Ready False (the two exclude each other, as the Ready
// condition's values do). Upstream polls every 100 ms; here the pass runs
// after each health check and again when a zone's limiter next allows one.
func (nc *Controller) doNoExecuteTaintingPass() {
	now := nc.clock.Now()
	for _, zone := range slices.Sorted(maps.Keys(nc.zoneNoExecuteTainter)) {
		nc.zoneNoExecuteTainter[zone].Try(now, func(v TimedValue) (bool, time.Duration) {
			o, ok := nc.nodeInf.Get("", v.Value)
			if !ok {
				return true, 0 // the node is gone
			}
			node := o.(*api.Node)
			_, cond := api.GetNodeCondition(&node.Status, api.NodeReady)
			if cond == nil {
				return false, 50 * time.Millisecond
			}
			var add, opposite *api.Taint
			switch cond.Status {
			case api.ConditionFalse:
				add, opposite = notReadyTaint(), unreachableTaint()
			case api.ConditionUnknown:
				add, opposite = unreachableTaint(), notReadyTaint()
			default:
				return true, 0 // Ready again: no taint needed
			}
			return nc.swapNodeControllerTaint([]*api.Taint{add}, []*api.Taint{opposite}, node), 0
		})
	}
	nc.scheduleNoExecuteTaintingPass(now)
}

// scheduleNoExecuteTaintingPass sets the next pass for when some zone's
// queue can move again; nothing is set when no queue can (the next health
// pass or a limiter change will look again).
func (nc *Controller) scheduleNoExecuteTaintingPass(now time.Time) {
	var next time.Time
	found := false
	for _, zone := range slices.Sorted(maps.Keys(nc.zoneNoExecuteTainter)) {
		at, ok := nc.zoneNoExecuteTainter[zone].nextTry(now)
		if ok && (!found || at.Before(next)) {
			next, found = at, true
		}
	}
	if !found {
		return
	}
	d := next.Sub(now)
	if d < NodeEvictionPeriod {
		d = NodeEvictionPeriod
	}
	nc.loops.AddAfter(loopNoExec, d)
}

// labelReconcileInfo lists the beta OS and arch labels kept equal to (and
// created from) their GA labels.
func labelReconcileInfo() [2]struct{ primaryKey, secondaryKey string } {
	return [2]struct{ primaryKey, secondaryKey string }{
		{"kubernetes.io/os", "beta.kubernetes.io/os"},
		{"kubernetes.io/arch", "beta.kubernetes.io/arch"},
	}
}

// reconcileNodeLabels copies the GA os and arch labels to their beta keys.
func (nc *Controller) reconcileNodeLabels(nodeName string) error {
	o, ok := nc.nodeInf.Get("", nodeName)
	if !ok {
		return nil
	}
	node := o.(*api.Node)
	if node.Labels == nil {
		return nil
	}
	update := map[string]string{}
	for _, r := range labelReconcileInfo() {
		primary, ok := node.Labels[r.primaryKey]
		if !ok {
			continue
		}
		if secondary, ok := node.Labels[r.secondaryKey]; !ok || secondary != primary {
			update[r.secondaryKey] = primary
		}
	}
	if len(update) == 0 {
		return nil
	}
	return nc.updateNode(nodeName, func(n *api.Node) bool {
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		changed := false
		for _, k := range slices.Sorted(maps.Keys(update)) {
			if n.Labels[k] != update[k] {
				n.Labels[k] = update[k]
				changed = true
			}
		}
		return changed
	})
}
