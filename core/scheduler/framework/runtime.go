package framework

import (
	"fmt"
	"maps"
	"slices"

	"kubeplay/core/api"
)

// Framework runs a profile's plugins at each extension point, in the order
// they were given (upstream's default MultiPoint order), with score weights.
type Framework struct {
	plugins   []Plugin
	preFilter []PreFilterPlugin
	filter    []FilterPlugin
	preScore  []PreScorePlugin
	score     []ScorePlugin
	weights   map[string]int64
	// scoreList is RunScorePlugins' scratch list, reused across cycles.
	scoreList NodeScoreList
	// spare is a table handed back by RecycleScores.
	spare *NodeScores
	// activeScore is RunScorePlugins' list of the plugins not skipped.
	activeScore []ScorePlugin
	// localCols, eachCols and batchCols are the columns of the active
	// plugins that are node-local, the others asked node by node, and
	// those that score all nodes in one call (NodesScorer) after the
	// node-by-node pass, into the scratch column batchScores.
	localCols, eachCols, batchCols []int
	batchScores                    []int64
	// local keeps each node's node-local answers (NodeLocalPlugin).
	local NodeMemo[nodeLocalAnswers]
}

// NewFramework sorts plugins into extension points by the interfaces they
// implement. weights gives each Score plugin's weight (1 when missing).
func NewFramework(plugins []Plugin, weights map[string]int64) *Framework {
	f := &Framework{plugins: plugins, weights: map[string]int64{}}
	for _, p := range plugins {
		if pl, ok := p.(PreFilterPlugin); ok {
			f.preFilter = append(f.preFilter, pl)
		}
		if pl, ok := p.(FilterPlugin); ok {
			f.filter = append(f.filter, pl)
		}
		if pl, ok := p.(PreScorePlugin); ok {
			f.preScore = append(f.preScore, pl)
		}
		if pl, ok := p.(ScorePlugin); ok {
			f.score = append(f.score, pl)
			w := weights[p.Name()]
			if w == 0 {
				w = 1
			}
			f.weights[p.Name()] = w
		}
	}
	return f
}

// Plugins lists the plugins in order.
func (f *Framework) Plugins() []Plugin { return f.plugins }

// HasFilterPlugins reports whether any plugin filters.
func (f *Framework) HasFilterPlugins() bool { return len(f.filter) > 0 }

// HasScorePlugins reports whether any plugin scores.
func (f *Framework) HasScorePlugins() bool { return len(f.score) > 0 }

// Weight is a score plugin's weight.
func (f *Framework) Weight(name string) int64 { return f.weights[name] }

// RunPreFilterPlugins runs every PreFilter plugin. An UnschedulableAndUnresolvable
// status stops at once; a plain Unschedulable one lets the rest run, since
// preemption will need their state. It also returns the plugins whose
// results narrowed the nodes.
func (f *Framework) RunPreFilterPlugins(state *CycleState, pod *api.Pod) (*PreFilterResult, *Status, map[string]bool) {
	var result *PreFilterResult
	var rejected *Status
	narrowed := map[string]bool{}
	skip := map[string]bool{}
	for _, pl := range f.preFilter {
		r, s := pl.PreFilter(state, pod)
		if s.IsSkip() {
			skip[pl.Name()] = true
			continue
		}
		if !s.IsSuccess() {
			s.WithPlugin(pl.Name())
			switch s.Code() {
			case UnschedulableAndUnresolvable:
				return nil, s, nil
			case Unschedulable:
				rejected = s
				continue
			}
			return nil, AsStatus(fmt.Errorf("running PreFilter plugin %q: %w", pl.Name(), s.AsError())).WithPlugin(pl.Name()), nil
		}
		if !r.AllNodes() {
			narrowed[pl.Name()] = true
		}
		result = result.Merge(r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			names := slices.Sorted(maps.Keys(narrowed))
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", names)
			if len(names) == 1 {
				msg = "node(s) didn't satisfy plugin " + names[0]
			}
			return result, NewStatus(UnschedulableAndUnresolvable, msg), narrowed
		}
	}
	state.SkipFilterPlugins = skip
	state.filters, state.filtersKnown = nil, true
	for _, pl := range f.filter {
		if !skip[pl.Name()] {
			state.filters = append(state.filters, pl)
		}
	}
	state.localFilters = localMask(f.filter, state.filters)
	state.otherFilters = nil
	if state.localFilters != 0 {
		for _, pl := range state.filters {
			if _, local := pl.(NodeLocalPlugin); !local {
				state.otherFilters = append(state.otherFilters, pl)
			}
		}
	}
	return result, rejected, narrowed
}

// RunFilterPlugins runs the Filter plugins on one node and returns the
// first rejection, tagged with its plugin.
func (f *Framework) RunFilterPlugins(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status {
	filters := f.filter
	var kept *nodeLocalAnswers
	if state.filtersKnown {
		filters = state.filters
		if state.localFilters != 0 {
			a, known := f.localAnswers(state, nodeInfo)
			if known && a.filterKnown && a.filterMask == state.localFilters {
				// The node passed the node-local filters: ask only the others.
				filters = state.otherFilters
			} else {
				kept = a
			}
		}
	}
	for _, pl := range filters {
		if !state.filtersKnown && state.SkipFilterPlugins[pl.Name()] {
			continue
		}
		s := pl.Filter(state, pod, nodeInfo)
		if s.IsSuccess() {
			continue
		}
		if !s.IsRejected() {
			return AsStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), s.AsError())).WithPlugin(pl.Name())
		}
		return s.WithPlugin(pl.Name())
	}
	if kept != nil {
		// Only a pass is kept: a rejection's status is made afresh.
		kept.filterKnown, kept.filterMask = true, state.localFilters
	}
	return nil
}

// RunPreScorePlugins runs PreScore; plugins answering Skip will not score.
func (f *Framework) RunPreScorePlugins(state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status {
	var skip map[string]bool
	for _, pl := range f.preScore {
		s := pl.PreScore(state, pod, nodes)
		if s.IsSkip() {
			if skip == nil {
				skip = map[string]bool{}
			}
			skip[pl.Name()] = true
			continue
		}
		if !s.IsSuccess() {
			return AsStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), s.AsError()))
		}
	}
	state.SkipScorePlugins = skip
	return nil
}

// PluginScore is one plugin's score for a node: as the plugin computed it,
// after normalizing, and after its weight (what counts in the total).
type PluginScore struct {
	Name       string
	Raw        int64
	Normalized int64
	Weight     int64
	Score      int64
}

// NodeScores are one cycle's scores: row i is node Names[i], column j is
// plugin Plugins[j] with weight Weights[j], the normalized scores (0 to
// MaxNodeScore) in a byte. Kept flat, one table serves cycle after cycle
// (RecycleScores); the scheduler keeps a packed copy for the playground.
type NodeScores struct {
	Names      []string
	Plugins    []string
	Weights    []int64
	Raw        []int64
	Normalized []uint8
	// Totals are each node's weighted sum.
	Totals []int64
}

// Len is the number of nodes scored.
func (t *NodeScores) Len() int { return len(t.Names) }

// PluginScores lists node i's score from each plugin.
func (t *NodeScores) PluginScores(i int) []PluginScore {
	k := len(t.Plugins)
	if k == 0 {
		return nil
	}
	out := make([]PluginScore, k)
	for j := range out {
		n := int64(t.Normalized[i*k+j])
		out[j] = PluginScore{Name: t.Plugins[j], Raw: t.Raw[i*k+j], Normalized: n, Weight: t.Weights[j], Score: n * t.Weights[j]}
	}
	return out
}

// RunScorePlugins scores each node with every plugin not skipped,
// normalizes each plugin's scores, applies weights and sums them.
func (f *Framework) RunScorePlugins(state *CycleState, pod *api.Pod, nodes []*NodeInfo) (*NodeScores, *Status) {
	active := f.activeScore[:0]
	for _, pl := range f.score {
		if !state.SkipScorePlugins[pl.Name()] {
			active = append(active, pl)
		}
	}
	f.activeScore = active
	k := len(active)
	localScores := localMask(f.score, active)
	f.localCols, f.eachCols, f.batchCols = f.localCols[:0], f.eachCols[:0], f.batchCols[:0]
	for j, pl := range active {
		_, local := pl.(NodeLocalPlugin)
		_, batch := pl.(NodesScorer)
		switch {
		case local:
			f.localCols = append(f.localCols, j)
		case batch:
			f.batchCols = append(f.batchCols, j)
		default:
			f.eachCols = append(f.eachCols, j)
		}
	}
	out := f.spare
	if out == nil {
		out = &NodeScores{}
	}
	f.spare = nil
	out.Names = resize(out.Names, len(nodes))
	out.Plugins = resize(out.Plugins, k)
	out.Weights = resize(out.Weights, k)
	out.Raw = resize(out.Raw, len(nodes)*k)
	out.Normalized = resize(out.Normalized, len(nodes)*k)
	out.Totals = resize(out.Totals, len(nodes))
	for j, pl := range active {
		out.Plugins[j] = pl.Name()
		out.Weights[j] = f.weights[pl.Name()]
	}
	// Node by node, every plugin in turn, as upstream does: a node's
	// objects are read while they are still in the cache. Plugins that
	// score all nodes at once do so after this pass.
	for i, n := range nodes {
		out.Names[i] = n.NodeName()
		row := out.Raw[i*k : i*k+k]
		var kept *nodeLocalAnswers
		reuse := false
		if localScores != 0 {
			a, known := f.localAnswers(state, n)
			reuse = known && a.scoresKnown && a.scoreMask == localScores
			kept = a
		}
		if reuse {
			for next, j := range f.localCols {
				row[j] = kept.scores[next]
			}
		} else if st := scoreEach(state, pod, n, active, f.localCols, row); st != nil {
			return nil, st
		}
		if st := scoreEach(state, pod, n, active, f.eachCols, row); st != nil {
			return nil, st
		}
		if kept != nil && !reuse {
			kept.scores = kept.scores[:0]
			for _, j := range f.localCols {
				kept.scores = append(kept.scores, row[j])
			}
			kept.scoresKnown, kept.scoreMask = true, localScores
		}
	}
	for _, j := range f.batchCols {
		f.batchScores = resize(f.batchScores, len(nodes))
		if st := active[j].(NodesScorer).ScoreNodes(state, pod, nodes, f.batchScores); !st.IsSuccess() {
			return nil, AsStatus(fmt.Errorf("plugin %q failed with: %w", active[j].Name(), st.AsError()))
		}
		for i, s := range f.batchScores {
			out.Raw[i*k+j] = s
		}
	}
	// One list, its names set once, serves every plugin that normalizes,
	// kept between cycles: NormalizeScore rescales it in place.
	if cap(f.scoreList) < len(nodes) {
		f.scoreList = make(NodeScoreList, len(nodes))
	}
	list := f.scoreList[:len(nodes)]
	for i := range list {
		list[i].Name = out.Names[i]
	}
	for j, pl := range active {
		norm, normalizes := pl.(ScoreNormalizer)
		if normalizes {
			for i := range list {
				list[i].Score = out.Raw[i*k+j]
			}
			if st := norm.NormalizeScore(state, pod, list); !st.IsSuccess() {
				return nil, AsStatus(fmt.Errorf("plugin %q failed with: %w", pl.Name(), st.AsError()))
			}
		}
		w := out.Weights[j]
		for i := range list {
			score := out.Raw[i*k+j]
			if normalizes {
				score = list[i].Score
			}
			if score > MaxNodeScore || score < MinNodeScore {
				return nil, AsStatus(fmt.Errorf("plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing", pl.Name(), score, MinNodeScore, MaxNodeScore))
			}
			out.Normalized[i*k+j] = uint8(score)
			out.Totals[i] += score * w
		}
	}
	return out, nil
}

// scoreEach has the plugins in the given columns of active score node n
// into row.
func scoreEach(state *CycleState, pod *api.Pod, n *NodeInfo, active []ScorePlugin, cols []int, row []int64) *Status {
	for _, j := range cols {
		s, st := active[j].Score(state, pod, n)
		if !st.IsSuccess() {
			return AsStatus(fmt.Errorf("plugin %q failed with: %w", active[j].Name(), st.AsError()))
		}
		row[j] = s
	}
	return nil
}

// RecycleScores hands back a table RunScorePlugins returned that nobody
// reads any more, for the next cycle to fill instead of allocating one.
func (f *Framework) RecycleScores(t *NodeScores) { f.spare = t }

// resize returns s with n zeroed elements, reusing its array when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// EventsToRegister gathers each plugin's registered events, by plugin name.
func (f *Framework) EventsToRegister() map[string][]ClusterEventWithHint {
	out := map[string][]ClusterEventWithHint{}
	for _, p := range f.plugins {
		if ext, ok := p.(EnqueueExtensions); ok {
			out[p.Name()] = ext.EventsToRegister()
		}
	}
	return out
}
