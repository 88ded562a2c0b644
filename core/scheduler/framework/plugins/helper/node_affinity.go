// Package helper holds what several plugins share: node selector matching
// as component-helpers does it, score normalizing, taint matching and the
// default spreading selector.
package helper

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
)

// requirements is a parsed list of label requirements, all of which must hold.
type requirements []*labels.Requirement

func (r requirements) matches(ls labels.Set) bool {
	for _, req := range r {
		if !req.Matches(ls) {
			return false
		}
	}
	return true
}

// nodeSelectorTerm is a parsed NodeSelectorTerm. A term that failed to
// parse matches nothing.
type nodeSelectorTerm struct {
	matchLabels requirements
	hasLabels   bool
	// matchFields: metadata.name must (In) or must not (NotIn) equal a value.
	fieldIn    []string
	fieldNotIn []string
	hasFields  bool
	parseErr   error
}

func isEmptyTerm(t *api.NodeSelectorTerm) bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

func newNodeSelectorTerm(t *api.NodeSelectorTerm) nodeSelectorTerm {
	var out nodeSelectorTerm
	if len(t.MatchExpressions) > 0 {
		out.hasLabels = true
		for _, e := range t.MatchExpressions {
			var op labels.Operator
			switch e.Operator {
			case api.NodeSelectorOpIn:
				op = labels.In
			case api.NodeSelectorOpNotIn:
				op = labels.NotIn
			case api.NodeSelectorOpExists:
				op = labels.Exists
			case api.NodeSelectorOpDoesNotExist:
				op = labels.DoesNotExist
			case api.NodeSelectorOpGt:
				op = labels.GreaterThan
			case api.NodeSelectorOpLt:
				op = labels.LessThan
			default:
				out.parseErr = fmt.Errorf("%q is not a valid node selector operator", e.Operator)
				return out
			}
			r, err := labels.NewRequirement(e.Key, op, e.Values)
			if err != nil {
				out.parseErr = err
				return out
			}
			out.matchLabels = append(out.matchLabels, r)
		}
	}
	if len(t.MatchFields) > 0 {
		out.hasFields = true
		for _, e := range t.MatchFields {
			if e.Key != "metadata.name" {
				out.parseErr = fmt.Errorf("%q is not a valid field selector key", e.Key)
				return out
			}
			if len(e.Values) != 1 {
				out.parseErr = fmt.Errorf("unexpected number of value (%d) for node field selector operator %q", len(e.Values), e.Operator)
				return out
			}
			switch e.Operator {
			case api.NodeSelectorOpIn:
				out.fieldIn = append(out.fieldIn, e.Values[0])
			case api.NodeSelectorOpNotIn:
				out.fieldNotIn = append(out.fieldNotIn, e.Values[0])
			default:
				out.parseErr = fmt.Errorf("%q is not a valid node field selector operator", e.Operator)
				return out
			}
		}
	}
	return out
}

func (t *nodeSelectorTerm) match(node *api.Node) bool {
	if t.parseErr != nil {
		return false
	}
	if t.hasLabels && !t.matchLabels.matches(labels.Set(node.Labels)) {
		return false
	}
	if t.hasFields && node.Name != "" {
		for _, v := range t.fieldIn {
			if node.Name != v {
				return false
			}
		}
		for _, v := range t.fieldNotIn {
			if node.Name == v {
				return false
			}
		}
	}
	return true
}

// NodeSelector is a parsed NodeSelector: it matches a node when any
// non-empty term matches.
type NodeSelector struct {
	terms []nodeSelectorTerm
}

// NewNodeSelector parses ns; terms that fail to parse match nothing.
func NewNodeSelector(ns *api.NodeSelector) *NodeSelector {
	out := &NodeSelector{}
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if isEmptyTerm(t) {
			continue
		}
		out.terms = append(out.terms, newNodeSelectorTerm(t))
	}
	return out
}

// Match reports whether node matches.
func (s *NodeSelector) Match(node *api.Node) bool {
	if node == nil {
		return false
	}
	for i := range s.terms {
		if s.terms[i].match(node) {
			return true
		}
	}
	return false
}

// RequiredNodeAffinity is a pod's hard node constraints: its nodeSelector
// and its required node affinity, both of which must match.
type RequiredNodeAffinity struct {
	nodeSelector map[string]string
	affinity     *NodeSelector
}

// GetRequiredNodeAffinity reads pod's hard node constraints.
func GetRequiredNodeAffinity(pod *api.Pod) RequiredNodeAffinity {
	r := RequiredNodeAffinity{nodeSelector: pod.Spec.NodeSelector}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.affinity = NewNodeSelector(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return r
}

// MatchesAll reports whether the pod has no hard node constraints, so
// Match holds for every node.
func (r RequiredNodeAffinity) MatchesAll() bool { return len(r.nodeSelector) == 0 && r.affinity == nil }

// Match reports whether node satisfies both.
func (r RequiredNodeAffinity) Match(node *api.Node) bool {
	if node == nil {
		return false
	}
	for k, v := range r.nodeSelector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	if r.affinity != nil {
		return r.affinity.Match(node)
	}
	return true
}

// PreferredSchedulingTerms are parsed preferred node affinity terms.
type PreferredSchedulingTerms struct {
	terms   []nodeSelectorTerm
	weights []int64
}

// NewPreferredSchedulingTerms parses terms; zero weights and empty terms
// are dropped, and a term that fails to parse is an error.
func NewPreferredSchedulingTerms(terms []api.PreferredSchedulingTerm) (*PreferredSchedulingTerms, error) {
	out := &PreferredSchedulingTerms{}
	for i := range terms {
		t := &terms[i]
		if t.Weight == 0 || isEmptyTerm(&t.Preference) {
			continue
		}
		parsed := newNodeSelectorTerm(&t.Preference)
		if parsed.parseErr != nil {
			return nil, parsed.parseErr
		}
		out.terms = append(out.terms, parsed)
		out.weights = append(out.weights, int64(t.Weight))
	}
	return out, nil
}

// Score sums the weights of the terms node matches.
func (p *PreferredSchedulingTerms) Score(node *api.Node) int64 {
	var s int64
	for i := range p.terms {
		if p.terms[i].match(node) {
			s += p.weights[i]
		}
	}
	return s
}
