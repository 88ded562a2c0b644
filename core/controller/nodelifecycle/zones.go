package nodelifecycle

import (
	"maps"
	"slices"

	"kubeplay/core/api"
)

// ZoneState is how healthy a zone's nodes are, which sets how fast its
// unhealthy nodes get NoExecute taints.
type ZoneState string

// Zone states, upstream's words.
const (
	StateInitial           = ZoneState("Initial")
	StateNormal            = ZoneState("Normal")
	StateFullDisruption    = ZoneState("FullDisruption")
	StatePartialDisruption = ZoneState("PartialDisruption")
)

// Topology labels a node's zone key is read from (GA first, then beta).
const (
	LabelTopologyZone            = "topology.kubernetes.io/zone"
	LabelTopologyRegion          = "topology.kubernetes.io/region"
	LabelFailureDomainBetaZone   = "failure-domain.beta.kubernetes.io/zone"
	LabelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region"
)

// labelNodeDisruptionExclusion keeps a node out of the zone arithmetic.
const labelNodeDisruptionExclusion = "node.kubernetes.io/exclude-disruption"

// GetZoneKey is the key of a node's region and zone: "" for a node without
// either label, otherwise "region:\x00:zone" (the NUL keeps a colon inside a
// name from making two keys collide).
func GetZoneKey(node *api.Node) string {
	l := node.Labels
	if l == nil {
		return ""
	}
	zone, ok := l[LabelTopologyZone]
	if !ok {
		zone = l[LabelFailureDomainBetaZone]
	}
	region, ok := l[LabelTopologyRegion]
	if !ok {
		region = l[LabelFailureDomainBetaRegion]
	}
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

func isNodeExcludedFromDisruptionChecks(node *api.Node) bool {
	_, ok := node.Labels[labelNodeDisruptionExclusion]
	return ok
}

// ComputeZoneState counts the zone's nodes that are not Ready and names the
// zone's state: FullDisruption when none is Ready, PartialDisruption when
// more than two are not Ready and they make at least unhealthyZoneThreshold
// of the zone, Normal otherwise.
func (nc *Controller) ComputeZoneState(nodeReadyConditions []*api.NodeCondition) (int, ZoneState) {
	ready, notReady := 0, 0
	for _, c := range nodeReadyConditions {
		if c != nil && c.Status == api.ConditionTrue {
			ready++
		} else {
			notReady++
		}
	}
	switch {
	case ready == 0 && notReady > 0:
		return notReady, StateFullDisruption
	case notReady > 2 && float32(notReady)/float32(notReady+ready) >= nc.cfg.UnhealthyZoneThreshold:
		return notReady, StatePartialDisruption
	default:
		return notReady, StateNormal
	}
}

// HealthyQPSFunc is the rate of a zone that is fully disrupted while others
// are not: the normal rate.
func (nc *Controller) HealthyQPSFunc(nodeNum int) float32 { return nc.cfg.EvictionLimiterQPS }

// ReducedQPSFunc is the rate of a partially disrupted zone: the secondary
// rate in a large zone, none at all in a small one.
func (nc *Controller) ReducedQPSFunc(nodeNum int) float32 {
	if int32(nodeNum) > nc.cfg.LargeClusterSizeThreshold {
		return nc.cfg.SecondaryEvictionLimiterQPS
	}
	return 0
}

// setLimiterInZone sets a zone's tainting rate for its new state.
func (nc *Controller) setLimiterInZone(zone string, zoneSize int, state ZoneState) {
	q := nc.zoneNoExecuteTainter[zone]
	if q == nil {
		return
	}
	now := nc.clock.Now()
	switch state {
	case StateNormal:
		q.SwapLimiter(float64(nc.cfg.EvictionLimiterQPS), now)
	case StatePartialDisruption:
		q.SwapLimiter(float64(nc.ReducedQPSFunc(zoneSize)), now)
	case StateFullDisruption:
		q.SwapLimiter(float64(nc.HealthyQPSFunc(zoneSize)), now)
	}
}

// addPodEvictorForNewZone gives a zone seen for the first time its state
// and tainting queue.
func (nc *Controller) addPodEvictorForNewZone(node *api.Node) {
	zone := GetZoneKey(node)
	if _, ok := nc.zoneStates[zone]; ok {
		return
	}
	nc.zoneStates[zone] = StateInitial
	nc.zoneNoExecuteTainter[zone] = NewRateLimitedTimedQueue(float64(nc.cfg.EvictionLimiterQPS), nc.clock.Now())
}

// handleDisruption moves each zone to its new state and sets its rate. When
// every zone is fully disrupted the problem is more likely the control
// plane's view than the nodes, so upstream enters "master disruption mode":
// it removes the NoExecute taints and stops tainting until a node is back.
func (nc *Controller) handleDisruption(zoneToNodeConditions map[string][]*api.NodeCondition, nodes []*api.Node) {
	newZoneStates := map[string]ZoneState{}
	allAreFullyDisrupted := true
	for _, zone := range slices.Sorted(maps.Keys(zoneToNodeConditions)) {
		_, state := nc.ComputeZoneState(zoneToNodeConditions[zone])
		if state != StateFullDisruption {
			allAreFullyDisrupted = false
		}
		newZoneStates[zone] = state
		if _, had := nc.zoneStates[zone]; !had {
			nc.zoneStates[zone] = StateInitial
		}
	}

	allWasFullyDisrupted := true
	for _, zone := range slices.Sorted(maps.Keys(nc.zoneStates)) {
		if _, have := zoneToNodeConditions[zone]; !have {
			delete(nc.zoneStates, zone)
			continue
		}
		if nc.zoneStates[zone] != StateFullDisruption {
			allWasFullyDisrupted = false
			break
		}
	}

	if allAreFullyDisrupted && allWasFullyDisrupted {
		return
	}
	now := nc.clock.Now()
	switch {
	case allAreFullyDisrupted:
		// Entering master disruption mode.
		for _, n := range nodes {
			nc.markNodeAsReachable(n)
		}
		for _, zone := range slices.Sorted(maps.Keys(nc.zoneStates)) {
			if q := nc.zoneNoExecuteTainter[zone]; q != nil {
				q.SwapLimiter(0, now)
			}
			nc.zoneStates[zone] = StateFullDisruption
		}
	case allWasFullyDisrupted:
		// Leaving it: every node gets a fresh grace period, as the silence
		// may have been ours.
		for _, n := range nodes {
			if h := nc.nodeHealthMap[n.Name]; h != nil {
				h.probeTimestamp = now
				h.readyTransitionTimestamp = now
			}
		}
		for _, zone := range slices.Sorted(maps.Keys(nc.zoneStates)) {
			nc.setLimiterInZone(zone, len(zoneToNodeConditions[zone]), newZoneStates[zone])
			nc.zoneStates[zone] = newZoneStates[zone]
		}
	default:
		for _, zone := range slices.Sorted(maps.Keys(nc.zoneStates)) {
			if nc.zoneStates[zone] == newZoneStates[zone] {
				continue
			}
			nc.setLimiterInZone(zone, len(zoneToNodeConditions[zone]), newZoneStates[zone])
			nc.zoneStates[zone] = newZoneStates[zone]
		}
	}
}

// ZoneStatus is one zone as the controller sees it, for the cluster view.
type ZoneStatus struct {
	// Zone is the zone key ("" for nodes without topology labels).
	Zone  string
	State ZoneState
	// QPS is the rate at which the zone's unhealthy nodes get NoExecute taints.
	QPS float64
	// Waiting are the nodes queued for a NoExecute taint.
	Waiting []string
}

// Zones lists the zones the controller knows, sorted by key.
func (nc *Controller) Zones() []ZoneStatus {
	var out []ZoneStatus
	for _, zone := range slices.Sorted(maps.Keys(nc.zoneStates)) {
		zs := ZoneStatus{Zone: zone, State: nc.zoneStates[zone]}
		if q := nc.zoneNoExecuteTainter[zone]; q != nil {
			zs.QPS = q.QPS()
			for _, v := range q.Waiting() {
				zs.Waiting = append(zs.Waiting, v.Value)
			}
		}
		out = append(out, zs)
	}
	return out
}
