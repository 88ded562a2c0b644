// Package podtopologyspread is the PodTopologySpread plugin: DoNotSchedule
// constraints filter nodes whose domain would exceed maxSkew, and
// ScheduleAnyway constraints (or the cluster defaults, for pods that set
// none) score nodes in less crowded domains higher.
package podtopologyspread

import (
	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// PodTopologySpread implements the plugin.
type PodTopologySpread struct {
	handle framework.Handle
	// defaultConstraints apply to pods without constraints of their own;
	// systemDefaulted says they are the built-in ones.
	defaultConstraints []api.TopologySpreadConstraint
	systemDefaulted    bool
	counts             *matchCounts
	// domains are the kept per-domain sums PreScore reads, by workload
	// and constraint (domains.go).
	domains map[string]*domainCounts
	// values are the nodes' values of the last pod's topology keys, for
	// PreScore and Score (values.go).
	values topologyValues
}

// systemDefaultConstraints are the built-in cluster defaults: spread a
// workload's pods over hostnames (skew 3) and zones (skew 5), softly.
var systemDefaultConstraints = []api.TopologySpreadConstraint{
	{TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
}

// New returns the plugin with the system default constraints.
func New(h framework.Handle) *PodTopologySpread {
	return &PodTopologySpread{handle: h, defaultConstraints: systemDefaultConstraints, systemDefaulted: true, counts: newMatchCounts(), domains: map[string]*domainCounts{}}
}

// Name implements framework.Plugin.
func (*PodTopologySpread) Name() string { return names.PodTopologySpread }

// topologySpreadConstraint is a parsed constraint.
type topologySpreadConstraint struct {
	MaxSkew            int32
	TopologyKey        string
	Selector           labels.Selector
	MinDomains         int32
	NodeAffinityPolicy string
	NodeTaintsPolicy   string
	// countKey is countKey(Selector, the pod's namespace), once per cycle.
	countKey string
	// byHostname says TopologyKey is the hostname label, whose domains
	// (one per node) scoring counts node by node.
	byHostname bool
}

func (c *topologySpreadConstraint) matchNodeInclusionPolicies(pod *api.Pod, node *api.Node, req helper.RequiredNodeAffinity) bool {
	if c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor && !req.Match(node) {
		return false
	}
	if c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
		if _, untolerated := helper.FindMatchingUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, helper.DoNotScheduleTaints); untolerated {
			return false
		}
	}
	return true
}

// filterConstraints parses the constraints with the given action;
// matchLabelKeys add the pod's own values of those labels to the selector.
func filterConstraints(cs []api.TopologySpreadConstraint, podLabels map[string]string, action string) ([]topologySpreadConstraint, error) {
	var out []topologySpreadConstraint
	for i := range cs {
		c := &cs[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := labels.SelectorFromLabelSelector(c.LabelSelector)
		if err != nil {
			return nil, err
		}
		if len(c.MatchLabelKeys) > 0 {
			extra := labels.Set{}
			for _, k := range c.MatchLabelKeys {
				if v, ok := podLabels[k]; ok {
					extra[k] = v
				}
			}
			sel = helper.AndSelector{sel, labels.SelectorFromSet(extra)}
		}
		tsc := topologySpreadConstraint{
			MaxSkew:            c.MaxSkew,
			TopologyKey:        c.TopologyKey,
			Selector:           sel,
			MinDomains:         1,
			NodeAffinityPolicy: api.NodeInclusionPolicyHonor,
			NodeTaintsPolicy:   api.NodeInclusionPolicyIgnore,
			byHostname:         c.TopologyKey == api.LabelHostname,
		}
		if c.MinDomains != nil {
			tsc.MinDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			tsc.NodeAffinityPolicy = *c.NodeAffinityPolicy
		}
		if c.NodeTaintsPolicy != nil {
			tsc.NodeTaintsPolicy = *c.NodeTaintsPolicy
		}
		out = append(out, tsc)
	}
	return out, nil
}

// buildDefaultConstraints applies the default constraints with the given
// action, selecting the pods of the pod's services and controller.
func (pl *PodTopologySpread) buildDefaultConstraints(pod *api.Pod, action string) ([]topologySpreadConstraint, error) {
	cs, err := filterConstraints(pl.defaultConstraints, pod.Labels, action)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	sel := helper.DefaultSelector(pod, pl.handle)
	if sel.Empty() {
		return nil, nil
	}
	for i := range cs {
		cs[i].Selector = sel
	}
	return cs, nil
}

// getConstraints are the pod's constraints with action, or the defaults.
func (pl *PodTopologySpread) getConstraints(pod *api.Pod, action string) ([]topologySpreadConstraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return filterConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, action)
	}
	return pl.buildDefaultConstraints(pod, action)
}

func nodeLabelsMatchSpreadConstraints(nodeLabels map[string]string, cs []topologySpreadConstraint) bool {
	for _, c := range cs {
		if _, ok := nodeLabels[c.TopologyKey]; !ok {
			return false
		}
	}
	return true
}

// countPodsMatchSelector counts the live pods of a namespace a selector selects.
func countPodsMatchSelector(pods []*framework.PodInfo, sel labels.Selector, ns string) int {
	if sel.Empty() {
		return 0
	}
	n := 0
	for _, p := range pods {
		if p.Pod.DeletionTimestamp != nil || p.Pod.Namespace != ns {
			continue
		}
		if sel.Matches(labels.Set(p.Pod.Labels)) {
			n++
		}
	}
	return n
}
