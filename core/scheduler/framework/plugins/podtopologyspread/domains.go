package podtopologyspread

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/helper"
)

// nodeShare is what one node of the snapshot added to a constraint's
// domain counts, as the node was at one generation.
type nodeShare struct {
	ni         *framework.NodeInfo
	generation int64
	counted    bool
	value      string
	count      int64
}

// domainCounts is one constraint's matching pods per domain (topology
// value) summed over every node of the snapshot. PreScore needs those sums
// over all nodes, not only the scored ones; between two pods of a workload
// only a few nodes change, so the sums are kept with each node's share and
// only the shares of changed nodes are taken again.
type domainCounts struct {
	byNode []nodeShare
	totals map[string]int64
	// When the nodes came from a NodeChangeLog, log is it, as it was at
	// refresh time (listChanges, generation), and pos is each NodeInfo's
	// position in byNode: the next refresh then looks only at the nodes
	// the log says changed.
	log                     framework.NodeChangeLog
	listChanges, generation int64
	pos                     map[*framework.NodeInfo]int
}

type shareFunc func(*framework.NodeInfo) (value string, count int64, counted bool)

// refresh brings the sums up to the lister's nodes.
func (d *domainCounts) refresh(nodes framework.NodeInfoLister, share shareFunc) {
	log, _ := nodes.(framework.NodeChangeLog)
	if log != nil && log == d.log && log.ListChanges() == d.listChanges {
		if changed, ok := log.ChangedSince(d.generation); ok && d.known(changed) {
			for _, ni := range changed {
				d.retake(d.pos[ni], ni, share)
			}
			d.generation = log.Generation()
			return
		}
	}
	d.refreshAll(nodes.List(), share)
	d.log = log
	if log != nil {
		d.listChanges, d.generation = log.ListChanges(), log.Generation()
		if d.pos == nil {
			d.pos = map[*framework.NodeInfo]int{}
		}
		clear(d.pos)
		for i, e := range d.byNode {
			d.pos[e.ni] = i
		}
	}
}

// known says whether every node of changed has a position.
func (d *domainCounts) known(changed []*framework.NodeInfo) bool {
	for _, ni := range changed {
		if _, ok := d.pos[ni]; !ok {
			return false
		}
	}
	return true
}

// refreshAll brings the sums up to the nodes of all, position by position:
// a position holding another NodeInfo or a newer generation than before
// gives back its old share and adds its new one.
func (d *domainCounts) refreshAll(all []*framework.NodeInfo, share shareFunc) {
	for i, ni := range all {
		if i >= len(d.byNode) {
			d.byNode = append(d.byNode, nodeShare{})
		}
		d.retake(i, ni, share)
	}
	for _, e := range d.byNode[len(all):] {
		if e.counted {
			d.totals[e.value] -= e.count
		}
	}
	clear(d.byNode[len(all):])
	d.byNode = d.byNode[:len(all)]
}

// retake replaces position i's share with ni's, unless it already is ni's
// at its current generation.
func (d *domainCounts) retake(i int, ni *framework.NodeInfo, share shareFunc) {
	e := &d.byNode[i]
	if e.ni == ni && e.generation == ni.Generation {
		return
	}
	if e.counted {
		d.totals[e.value] -= e.count
	}
	v, n, counted := share(ni)
	*e = nodeShare{ni: ni, generation: ni.Generation, counted: counted, value: v, count: n}
	if counted {
		d.totals[v] += n
	}
}

// maxDomainCounts bounds how many workloads' sums are kept at once.
const maxDomainCounts = 64

// domainCountsFor returns the kept sums of constraint c of the pod's
// constraints cs (nil when they cannot be kept), creating them empty.
// They can be kept when whether a node takes part does not depend on the
// pod itself: no node affinity to honour and taints ignored.
func (pl *PodTopologySpread) domainCountsFor(cs []topologySpreadConstraint, c *topologySpreadConstraint, requireAll bool, req helper.RequiredNodeAffinity) *domainCounts {
	if c.countKey == "" || c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor ||
		(c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor && !req.MatchesAll()) {
		return nil
	}
	var k strings.Builder
	k.WriteString(c.countKey)
	k.WriteString("\x00")
	k.WriteString(c.TopologyKey)
	if requireAll {
		// Nodes lacking any constraint's key are left out: the keys are
		// part of what was summed.
		for _, o := range cs {
			k.WriteString("\x00")
			k.WriteString(o.TopologyKey)
		}
	}
	key := k.String()
	d, ok := pl.domains[key]
	if !ok {
		if len(pl.domains) >= maxDomainCounts {
			clear(pl.domains)
		}
		d = &domainCounts{totals: map[string]int64{}}
		pl.domains[key] = d
	}
	return d
}
