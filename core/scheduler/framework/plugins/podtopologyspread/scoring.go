package podtopologyspread

import (
	"fmt"
	"math"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

const preScoreStateKey = "PreScore" + names.PodTopologySpread

// invalidScore marks nodes that do not take part in the spreading.
const invalidScore = -1

type preScoreState struct {
	Constraints []topologySpreadConstraint
	// IgnoredNodes lack a required topology key and score 0.
	IgnoredNodes map[string]bool
	// TopologyValueToPodCounts counts matching pods per domain (not per
	// hostname: those are counted on the node itself in Score), one map
	// of topology values per constraint, as upstream keeps them (two
	// constraints on one key count their own pods). Keyed by the value
	// alone, a lookup in Score for every scored node hashes one short
	// string, or none in a small map.
	TopologyValueToPodCounts []map[string]int64
	// TopologyNormalizingWeight keeps small topologies from being drowned
	// by big ones: log(domains + 2).
	TopologyNormalizingWeight []float64
	// valuesKeysID is the plugin's topology values' keysID once PreScore
	// set them to the constraints' keys.
	valuesKeysID int64
	// lastValue and lastCount are each constraint's domain Score last
	// looked up, and its count: the scheduler scores one node after
	// another, and neighbours mostly share a domain.
	lastValue []string
	lastCount []int64
}

// PreScore counts matching pods per domain of every soft constraint.
func (pl *PodTopologySpread) PreScore(state *framework.CycleState, pod *api.Pod, filtered []*framework.NodeInfo) *framework.Status {
	all := pl.handle.NodeInfos().List()
	if len(filtered) == 0 || len(all) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	var cs []topologySpreadConstraint
	var err error
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		cs, err = filterConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, api.ScheduleAnyway)
	} else {
		cs, err = pl.buildDefaultConstraints(pod, api.ScheduleAnyway)
	}
	if err != nil {
		return framework.AsStatus(fmt.Errorf("calculating preScoreState: %w", err))
	}
	if len(cs) == 0 {
		return framework.NewStatus(framework.Skip)
	}
	pl.counts.startCycle(len(all))
	for i := range cs {
		cs[i].countKey = pl.counts.countKey(cs[i].Selector, pod.Namespace)
	}
	// The built-in defaults do not exclude nodes lacking the zone label.
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0 || !pl.systemDefaulted
	s := &preScoreState{
		Constraints:               cs,
		IgnoredNodes:              map[string]bool{},
		TopologyValueToPodCounts:  make([]map[string]int64, len(cs)),
		TopologyNormalizingWeight: make([]float64, len(cs)),
		lastValue:                 make([]string, len(cs)),
		lastCount:                 make([]int64, len(cs)),
	}
	for i, c := range cs {
		if !c.byHostname { // counted per node in Score
			s.TopologyValueToPodCounts[i] = map[string]int64{}
		}
		s.lastCount[i] = -1 // nothing looked up yet
	}
	topoSize := make([]int, len(cs))
	pl.values.setKeys(cs, len(all))
	s.valuesKeysID = pl.values.keysID
	// Neighbouring nodes mostly share their domains (all of them, where
	// nodes have no zone): a value just seen is not looked up again.
	last := make([]string, len(cs))
	seen := make([]bool, len(cs))
	for _, ni := range filtered {
		v := pl.values.of(ni)
		if requireAll && !v.hasAll() {
			s.IgnoredNodes[ni.Node().Name] = true
			continue
		}
		for i, c := range cs {
			if c.byHostname || seen[i] && v.values[i] == last[i] {
				continue
			}
			last[i], seen[i] = v.values[i], true
			counts := s.TopologyValueToPodCounts[i]
			if _, ok := counts[v.values[i]]; !ok {
				counts[v.values[i]] = 0
				topoSize[i]++
			}
		}
	}
	for i, c := range cs {
		size := topoSize[i]
		if c.byHostname {
			size = len(filtered) - len(s.IgnoredNodes)
		}
		s.TopologyNormalizingWeight[i] = math.Log(float64(size + 2))
	}
	req := helper.GetRequiredNodeAffinity(pod)
	// Per-node counts are taken in Score; each other constraint adds its
	// domains' sums over every node, kept between cycles where they can be.
	var recount []int
	for i := range cs {
		c := &cs[i]
		if c.byHostname {
			continue
		}
		d := pl.domainCountsFor(cs, c, requireAll, req)
		if d == nil {
			recount = append(recount, i)
			continue
		}
		d.refresh(pl.handle.NodeInfos(), func(ni *framework.NodeInfo) (string, int64, bool) {
			node := ni.Node()
			if node == nil || requireAll && !nodeLabelsMatchSpreadConstraints(node.Labels, cs) {
				return "", 0, false
			}
			return node.Labels[c.TopologyKey], int64(pl.counts.count(ni, c.Selector, c.countKey, pod.Namespace)), true
		})
		counts := s.TopologyValueToPodCounts[i]
		for v := range counts {
			counts[v] += d.totals[v]
		}
	}
	if len(recount) > 0 {
		pl.recountDomains(s, pod, cs, recount, requireAll, req)
	}
	state.Write(preScoreStateKey, s)
	return nil
}

// recountDomains adds the counts of the constraints recount indexes over
// every node, node by node: their sums depend on the pod and are not kept.
func (pl *PodTopologySpread) recountDomains(s *preScoreState, pod *api.Pod, cs []topologySpreadConstraint, recount []int, requireAll bool, req helper.RequiredNodeAffinity) {
	for _, ni := range pl.handle.NodeInfos().List() {
		node := ni.Node()
		if node == nil {
			continue
		}
		if requireAll && !nodeLabelsMatchSpreadConstraints(node.Labels, cs) {
			continue
		}
		for _, i := range recount {
			c := &cs[i]
			if !c.matchNodeInclusionPolicies(pod, node, req) {
				continue
			}
			counts, value := s.TopologyValueToPodCounts[i], node.Labels[c.TopologyKey]
			if _, ok := counts[value]; !ok {
				// No candidate node is in this domain.
				continue
			}
			counts[value] += int64(pl.counts.count(ni, c.Selector, c.countKey, pod.Namespace))
		}
	}
}

// Score sums, over the constraints whose key the node has, the domain's
// weighted count plus maxSkew-1; fewer matching pods score lower here and
// higher after NormalizeScore.
func (pl *PodTopologySpread) Score(state *framework.CycleState, pod *api.Pod, nodeInfo *framework.NodeInfo) (int64, *framework.Status) {
	s, st := pl.scoreState(state)
	if st != nil {
		return 0, st
	}
	return pl.score(s, pod, nodeInfo), nil
}

// ScoreNodes is Score for each of nodes, with the cycle's state read once.
func (pl *PodTopologySpread) ScoreNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo, scores []int64) *framework.Status {
	s, st := pl.scoreState(state)
	if st != nil {
		return st
	}
	for i, ni := range nodes {
		scores[i] = pl.score(s, pod, ni)
	}
	return nil
}

// scoreState is the cycle's PreScore state, with the plugin's topology
// values set to its constraints' keys.
func (pl *PodTopologySpread) scoreState(state *framework.CycleState) (*preScoreState, *framework.Status) {
	v, ok := state.Read(preScoreStateKey)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("reading %q from cycleState: not found", preScoreStateKey))
	}
	s := v.(*preScoreState)
	if pl.values.keysID != s.valuesKeysID {
		pl.values.setKeys(s.Constraints, len(pl.handle.NodeInfos().List()))
		s.valuesKeysID = pl.values.keysID
	}
	return s, nil
}

func (pl *PodTopologySpread) score(s *preScoreState, pod *api.Pod, nodeInfo *framework.NodeInfo) int64 {
	if len(s.IgnoredNodes) > 0 && s.IgnoredNodes[nodeInfo.NodeName()] {
		return 0
	}
	values := pl.values.of(nodeInfo)
	var score float64
	for i, c := range s.Constraints {
		tv, ok := values.values[i], values.has[i]
		if !ok {
			continue
		}
		var cnt int64
		if c.byHostname {
			cnt = int64(pl.counts.count(nodeInfo, c.Selector, c.countKey, pod.Namespace))
		} else if tv == s.lastValue[i] && s.lastCount[i] >= 0 {
			cnt = s.lastCount[i]
		} else {
			cnt = s.TopologyValueToPodCounts[i][tv]
			s.lastValue[i], s.lastCount[i] = tv, cnt
		}
		score += float64(cnt)*s.TopologyNormalizingWeight[i] + float64(c.MaxSkew-1)
	}
	return int64(math.Round(score))
}

// NormalizeScore inverts the sums onto 0-100: the least crowded node gets
// the most; ignored nodes get 0.
func (pl *PodTopologySpread) NormalizeScore(state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	v, ok := state.Read(preScoreStateKey)
	if !ok {
		return nil
	}
	s := v.(*preScoreState)
	var minScore int64 = math.MaxInt64
	var maxScore int64
	for i := range scores {
		if s.IgnoredNodes[scores[i].Name] {
			scores[i].Score = invalidScore
			continue
		}
		if scores[i].Score < minScore {
			minScore = scores[i].Score
		}
		if scores[i].Score > maxScore {
			maxScore = scores[i].Score
		}
	}
	for i := range scores {
		if scores[i].Score == invalidScore {
			scores[i].Score = 0
			continue
		}
		if maxScore == 0 {
			scores[i].Score = framework.MaxNodeScore
			continue
		}
		scores[i].Score = framework.MaxNodeScore * (maxScore + minScore - scores[i].Score) / maxScore
	}
	return nil
}
