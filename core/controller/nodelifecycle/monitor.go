package nodelifecycle

import (
	"kubeplay/core/api"
	"kubeplay/core/client"
	"maps"
	"slices"
)

// nodeConditionTypesToMarkUnknown are the conditions a silent node's
// kubelet owns; NetworkUnavailable belongs to the control plane and stays.
func nodeConditionTypesToMarkUnknown() [4]string {
	return [4]string{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}
}

// monitorNodeHealth checks every node's heartbeats: a node silent for its
// grace period gets Unknown conditions; an unhealthy node is queued for a
// NoExecute taint (or has its taint swapped), a healthy one loses it; pods
// on a node that just stopped being Ready are marked not ready; and the
// zones' states and tainting rates follow.
func (nc *Controller) monitorNodeHealth() {
	nodes := nc.listNodes()
	added, deleted, newZoneRepresentatives := nc.classifyNodes(nodes)
	for _, n := range newZoneRepresentatives {
		nc.addPodEvictorForNewZone(n)
	}
	for _, n := range added {
		nc.recordNodeEvent(n.Name, n.UID, "Normal", "RegisteredNode", "Registered Node "+n.Name+" in Controller")
		nc.knownNodeSet[n.Name] = n
		nc.addPodEvictorForNewZone(n)
		nc.markNodeAsReachable(n)
	}
	for _, n := range deleted {
		nc.recordNodeEvent(n.Name, n.UID, "Normal", "RemovingNode", "Removing Node "+n.Name+" from Controller")
		delete(nc.knownNodeSet, n.Name)
	}

	zoneToNodeConditions := map[string][]*api.NodeCondition{}
	for _, cached := range nodes {
		// The cached node is shared: tryUpdateNodeHealth copies it before
		// it changes anything (most passes change nothing).
		node, observed, current, ok := nc.updateNodeHealth(cached)
		if !ok {
			// Could not record the node's health: no pods will be evicted for it this pass.
			continue
		}
		if !isNodeExcludedFromDisruptionChecks(node) {
			zone := GetZoneKey(node)
			zoneToNodeConditions[zone] = append(zoneToNodeConditions[zone], current)
		}
		if current != nil {
			nc.processTaintBaseEviction(node, &observed)
			needsRetry := nc.nodesToRetry[node.Name]
			becameNotReady := current.Status != api.ConditionTrue && observed.Status == api.ConditionTrue
			if becameNotReady {
				nc.recordNodeStatusChange(node, "NodeNotReady")
			}
			if becameNotReady || (needsRetry && observed.Status != api.ConditionTrue) {
				if err := nc.markPodsNotReady(nc.getPodsAssignedToNode(node.Name), node.Name); err != nil {
					nc.nodesToRetry[node.Name] = true
					continue
				}
			}
		}
		delete(nc.nodesToRetry, node.Name)
	}
	nc.handleDisruption(zoneToNodeConditions, nodes)
}

// listNodes is the cached nodes, by name.
func (nc *Controller) listNodes() []*api.Node {
	objs := nc.nodeInf.List("")
	nodes := make([]*api.Node, 0, len(objs))
	for _, o := range objs {
		nodes = append(nodes, o.(*api.Node))
	}
	return nodes
}

// classifyNodes splits nodes into those not seen before, those gone since,
// and known nodes whose zone has no state yet.
func (nc *Controller) classifyNodes(all []*api.Node) (added, deleted, newZoneRepresentatives []*api.Node) {
	present := map[string]bool{}
	for _, n := range all {
		present[n.Name] = true
		if _, known := nc.knownNodeSet[n.Name]; !known {
			added = append(added, n)
		} else if _, ok := nc.zoneStates[GetZoneKey(n)]; !ok {
			newZoneRepresentatives = append(newZoneRepresentatives, n)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(nc.knownNodeSet)) {
		if !present[name] {
			deleted = append(deleted, nc.knownNodeSet[name])
		}
	}
	return added, deleted, newZoneRepresentatives
}

// updateNodeHealth runs tryUpdateNodeHealth, reading the node again after a
// failed write, a few times; ok is false if it never succeeded. It returns
// the node as it is after the pass: node itself, which it never changes,
// unless the pass wrote or read it anew.
func (nc *Controller) updateNodeHealth(node *api.Node) (_ *api.Node, observed api.NodeCondition, current *api.NodeCondition, ok bool) {
	for i := 0; i < NodeHealthUpdateRetry; i++ {
		var err error
		node, observed, current, err = nc.tryUpdateNodeHealth(node)
		if err == nil {
			return node, observed, current, true
		}
		fresh, err := client.Get[*api.Node](nc.client, "", node.Name)
		if err != nil {
			return node, observed, current, false
		}
		// The health kept for the node follows it to the fresh read.
		if h := nc.nodeHealthMap[node.Name]; h != nil && h.status == &node.Status {
			h.status = &fresh.Status
		}
		node = fresh
	}
	return node, observed, current, false
}

// tryUpdateNodeHealth compares the node's Ready condition and Lease with
// what was last seen. A new heartbeat (condition or lease renewal) moves
// the probe time to now; once now is past probe time + grace period the
// kubelet-owned conditions become Unknown and the status is written. It
// returns the node (a copy if it had to change it), and the Ready condition
// as observed before and as it is now. node itself is never changed: it may
// be the informer's.
func (nc *Controller) tryUpdateNodeHealth(node *api.Node) (*api.Node, api.NodeCondition, *api.NodeCondition, error) {
	now := nc.clock.Now()
	health := nc.nodeHealthMap[node.Name]
	if health != nil {
		cp := *health
		health = &cp
	}
	defer func() { nc.nodeHealthMap[node.Name] = health }()

	var gracePeriod = nc.cfg.NodeMonitorGracePeriod
	var observed api.NodeCondition
	_, current := api.GetNodeCondition(&node.Status, api.NodeReady)
	if current == nil {
		// The kubelet never posted a Ready condition: pretend one was
		// posted when the node was created, and give it the startup grace.
		observed = api.NodeCondition{
			Type: api.NodeReady, Status: api.ConditionUnknown,
			LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: node.CreationTimestamp,
		}
		gracePeriod = nc.cfg.NodeStartupGracePeriod
		if health != nil {
			health.status = &node.Status
		} else {
			health = &nodeHealthData{
				status:                   &node.Status,
				probeTimestamp:           node.CreationTimestamp.Time,
				readyTransitionTimestamp: node.CreationTimestamp.Time,
			}
		}
	} else {
		observed = *current
	}

	var savedCondition *api.NodeCondition
	var savedLease *api.Lease
	if health != nil {
		_, savedCondition = api.GetNodeCondition(health.status, api.NodeReady)
		savedLease = health.lease
	}
	switch {
	case health == nil,
		savedCondition == nil && current != nil,
		savedCondition != nil && current == nil:
		// First sight of the node (or of its Ready condition), or the
		// condition vanished: start counting from now.
		health = &nodeHealthData{status: &node.Status, probeTimestamp: now, readyTransitionTimestamp: now}
	case savedCondition != nil && current != nil && !savedCondition.LastHeartbeatTime.Equal(current.LastHeartbeatTime.Time):
		transition := health.readyTransitionTimestamp
		if !savedCondition.LastTransitionTime.Equal(current.LastTransitionTime.Time) {
			transition = now
		}
		health = &nodeHealthData{status: &node.Status, probeTimestamp: now, readyTransitionTimestamp: transition}
	}

	// A renewed Lease is a heartbeat too (the kubelet renews it every 10 s
	// and writes its status only when it changes, or every 5 minutes).
	var observedLease *api.Lease
	if o, ok := nc.leaseInf.Get(nodeLeaseNS, node.Name); ok {
		observedLease = o.(*api.Lease)
	}
	if observedLease != nil && (savedLease == nil || renewedAfter(observedLease, savedLease)) {
		health.lease = observedLease
		health.probeTimestamp = now
	}

	if !now.After(health.probeTimestamp.Add(gracePeriod)) {
		return node, observed, current, nil
	}
	cp := node.DeepCopy()
	if health.status == &node.Status {
		health.status = &cp.Status
	}
	node = cp
	nowT := api.NewTime(now)
	for _, t := range nodeConditionTypesToMarkUnknown() {
		_, c := api.GetNodeCondition(&node.Status, t)
		switch {
		case c == nil:
			node.Status.Conditions = append(node.Status.Conditions, api.NodeCondition{
				Type: t, Status: api.ConditionUnknown,
				Reason: "NodeStatusNeverUpdated", Message: "Kubelet never posted node status.",
				LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: nowT,
			})
		case c.Status != api.ConditionUnknown:
			c.Status = api.ConditionUnknown
			c.Reason = "NodeStatusUnknown"
			c.Message = "Kubelet stopped posting node status."
			c.LastTransitionTime = nowT
		}
	}
	_, current = api.GetNodeCondition(&node.Status, api.NodeReady)
	if sameNodeCondition(current, &observed) {
		return node, observed, current, nil
	}
	updated, err := client.UpdateStatus(nc.client, node)
	if err != nil {
		return node, observed, current, err
	}
	node = updated
	_, current = api.GetNodeCondition(&node.Status, api.NodeReady)
	health = &nodeHealthData{
		status:                   &node.Status,
		probeTimestamp:           health.probeTimestamp,
		readyTransitionTimestamp: now,
		lease:                    observedLease,
	}
	return node, observed, current, nil
}

// renewedAfter says whether lease a was renewed after lease b.
func renewedAfter(a, b *api.Lease) bool {
	if a.Spec.RenewTime == nil || b.Spec.RenewTime == nil {
		return false
	}
	return b.Spec.RenewTime.Before(a.Spec.RenewTime.Time)
}

func sameNodeCondition(a, b *api.NodeCondition) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(b.LastHeartbeatTime.Time) && a.LastTransitionTime.Equal(b.LastTransitionTime.Time)
}

// processTaintBaseEviction acts on the Ready condition as it was observed
// before this pass: a not-ready or unreachable node is queued for its
// NoExecute taint, or has the opposite taint swapped at once; a Ready node
// loses both.
func (nc *Controller) processTaintBaseEviction(node *api.Node, observed *api.NodeCondition) {
	switch observed.Status {
	case api.ConditionFalse:
		if taintExists(node.Spec.Taints, unreachableTaint()) {
			nc.swapNodeControllerTaint([]*api.Taint{notReadyTaint()}, []*api.Taint{unreachableTaint()}, node)
		} else {
			nc.markNodeForTainting(node, api.ConditionFalse)
		}
	case api.ConditionUnknown:
		if taintExists(node.Spec.Taints, notReadyTaint()) {
			nc.swapNodeControllerTaint([]*api.Taint{unreachableTaint()}, []*api.Taint{notReadyTaint()}, node)
		} else {
			nc.markNodeForTainting(node, api.ConditionUnknown)
		}
	case api.ConditionTrue:
		nc.markNodeAsReachable(node)
	}
}
