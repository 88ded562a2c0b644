package framework

import (
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// Score bounds every Score plugin works within (before its weight).
const (
	MaxNodeScore int64 = 100
	MinNodeScore int64 = 0
)

// CycleState is what plugins share within one scheduling cycle.
type CycleState struct {
	// data is a short list, not a map: a cycle holds about ten entries,
	// read for every node, and the plugins' keys are constants, so a scan
	// that compares lengths and then (usually identical) string pointers
	// beats hashing the key each time.
	data []cycleStateEntry
	// SkipFilterPlugins are plugins whose PreFilter returned Skip (nil
	// when none did: read only).
	SkipFilterPlugins map[string]bool
	// SkipScorePlugins are plugins whose PreScore returned Skip (nil
	// when none did: read only).
	SkipScorePlugins map[string]bool
	// filters are the Filter plugins not skipped, worked out once by
	// RunPreFilterPlugins rather than looked up again for every node.
	filters      []FilterPlugin
	filtersKnown bool
	// podShape numbers the pod's shape for the node-local answers kept
	// between cycles (SetPodShape); localFilters is the set of node-local
	// plugins among filters (a localMask), and otherFilters the rest.
	podShape     int64
	localFilters uint64
	otherFilters []FilterPlugin
}

type cycleStateEntry struct {
	key   string
	value any
}

// NewCycleState starts an empty cycle state.
func NewCycleState() *CycleState {
	return &CycleState{}
}

// Write stores a plugin's state under key.
func (c *CycleState) Write(key string, v any) {
	for i := range c.data {
		if c.data[i].key == key {
			c.data[i].value = v
			return
		}
	}
	c.data = append(c.data, cycleStateEntry{key: key, value: v})
}

// Read returns the state stored under key.
func (c *CycleState) Read(key string) (any, bool) {
	for i := range c.data {
		if c.data[i].key == key {
			return c.data[i].value, true
		}
	}
	return nil, false
}

// Plugin is anything the framework runs.
type Plugin interface {
	Name() string
}

// PreFilterResult narrows the nodes to filter; nil NodeNames means all.
type PreFilterResult struct {
	NodeNames map[string]bool
}

// AllNodes reports whether the result keeps every node.
func (r *PreFilterResult) AllNodes() bool { return r == nil || r.NodeNames == nil }

// Merge intersects two results.
func (r *PreFilterResult) Merge(o *PreFilterResult) *PreFilterResult {
	if r.AllNodes() && o.AllNodes() {
		return nil
	}
	if r.AllNodes() {
		return o
	}
	if o.AllNodes() {
		return r
	}
	out := map[string]bool{}
	for n := range r.NodeNames {
		if o.NodeNames[n] {
			out[n] = true
		}
	}
	return &PreFilterResult{NodeNames: out}
}

// SortedNames lists the result's node names in order.
func (r *PreFilterResult) SortedNames() []string {
	out := make([]string, 0, len(r.NodeNames))
	for n := range r.NodeNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PreFilterPlugin computes per-pod state before filtering, or rejects the
// pod outright.
type PreFilterPlugin interface {
	Plugin
	PreFilter(state *CycleState, pod *api.Pod) (*PreFilterResult, *Status)
}

// FilterPlugin decides whether a pod may run on a node.
type FilterPlugin interface {
	Plugin
	Filter(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) *Status
}

// PreScorePlugin computes per-pod state before scoring.
type PreScorePlugin interface {
	Plugin
	PreScore(state *CycleState, pod *api.Pod, nodes []*NodeInfo) *Status
}

// ScorePlugin ranks a feasible node from MinNodeScore to MaxNodeScore
// (after NormalizeScore, when it has one).
type ScorePlugin interface {
	Plugin
	Score(state *CycleState, pod *api.Pod, nodeInfo *NodeInfo) (int64, *Status)
}

// NodesScorer is a score plugin that scores a cycle's nodes in one call,
// each as Score would: scores[i] is nodes[i]'s. A plugin whose score
// reads the cycle's state and the pod's details once, not per node, saves
// that work and a call per node (dearer in wasm than natively). The
// framework uses it for plugins that are not node-local.
type NodesScorer interface {
	ScoreNodes(state *CycleState, pod *api.Pod, nodes []*NodeInfo, scores []int64) *Status
}

// ScoreNormalizer rescales a score plugin's raw scores over all nodes.
type ScoreNormalizer interface {
	NormalizeScore(state *CycleState, pod *api.Pod, scores NodeScoreList) *Status
}

// NodeScore is one node's score from one plugin.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList is a plugin's scores, one per node.
type NodeScoreList []NodeScore

// EnqueueExtensions says which cluster events may make a pod the plugin
// rejected schedulable, and how to tell (the queueing hint).
type EnqueueExtensions interface {
	EventsToRegister() []ClusterEventWithHint
}

// Handle is what plugins may read besides the pod and node: the snapshot
// of nodes taken for this cycle and the objects some rules refer to.
type Handle interface {
	// NodeInfos is the cycle's snapshot of every node.
	NodeInfos() NodeInfoLister
	// NamespaceLabels are the labels of a namespace (nil if unknown).
	NamespaceLabels(namespace string) labels.Set
	// NamespacesMatching lists the namespaces a selector selects, by name.
	NamespacesMatching(sel labels.Selector) []string
	// Services lists a namespace's services.
	Services(namespace string) []*api.Service
	// ReplicaSet and StatefulSet find a pod's owner.
	ReplicaSet(namespace, name string) (*api.ReplicaSet, bool)
	StatefulSet(namespace, name string) (*api.StatefulSet, bool)
}

// NodeInfoLister reads a snapshot of nodes, in the scheduler's node order.
type NodeInfoLister interface {
	List() []*NodeInfo
	HavePodsWithAffinityList() []*NodeInfo
	HavePodsWithRequiredAntiAffinityList() []*NodeInfo
	Get(name string) (*NodeInfo, bool)
}

// NodeChangeLog is what a NodeInfoLister updated in place (the
// scheduler's snapshot) can also tell, so that a plugin keeping sums over
// every node re-takes only the nodes that changed: ListChanges changes
// whenever List's order or members may have; ChangedSince lists the
// NodeInfos updated after the lister was at generation (possibly more than
// once), or says false when it no longer remembers that far back.
type NodeChangeLog interface {
	ListChanges() int64
	Generation() int64
	ChangedSince(generation int64) ([]*NodeInfo, bool)
}

// NodeInfoList is a NodeInfoLister over a plain list (tests, dry runs).
type NodeInfoList []*NodeInfo

func (l NodeInfoList) List() []*NodeInfo { return l }

func (l NodeInfoList) HavePodsWithAffinityList() []*NodeInfo {
	var out []*NodeInfo
	for _, n := range l {
		if len(n.PodsWithAffinity) > 0 {
			out = append(out, n)
		}
	}
	return out
}

func (l NodeInfoList) HavePodsWithRequiredAntiAffinityList() []*NodeInfo {
	var out []*NodeInfo
	for _, n := range l {
		if len(n.PodsWithRequiredAntiAffinity) > 0 {
			out = append(out, n)
		}
	}
	return out
}

func (l NodeInfoList) Get(name string) (*NodeInfo, bool) {
	for _, n := range l {
		if n.Node() != nil && n.Node().Name == name {
			return n, true
		}
	}
	return nil, false
}
