package helper

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/scheduler/framework"
)

// AndSelector matches label sets every part matches.
type AndSelector []labels.Selector

// Matches implements labels.Selector.
func (a AndSelector) Matches(ls labels.Labels) bool {
	for _, s := range a {
		if !s.Matches(ls) {
			return false
		}
	}
	return true
}

// Empty reports a selector with no requirements (it selects everything).
func (a AndSelector) Empty() bool {
	for _, s := range a {
		if !s.Empty() {
			return false
		}
	}
	return true
}

// String joins the parts' requirements.
func (a AndSelector) String() string {
	var parts []string
	for _, s := range a {
		if str := s.String(); str != "" {
			parts = append(parts, str)
		}
	}
	return strings.Join(parts, ",")
}

// Requirements lists all parts' requirements.
func (a AndSelector) Requirements() (labels.Requirements, bool) {
	var out labels.Requirements
	for _, s := range a {
		r, ok := s.Requirements()
		if !ok {
			return nil, false
		}
		out = append(out, r...)
	}
	return out, true
}

// DefaultSelector is the selector of the pods a pod belongs with: those
// selected by the services that select it and by its controlling
// ReplicaSet or StatefulSet. The default spreading counts those pods.
func DefaultSelector(pod *api.Pod, h framework.Handle) labels.Selector {
	set := labels.Set{}
	for _, svc := range h.Services(pod.Namespace) {
		if svc.Spec.Selector == nil {
			continue
		}
		if labels.SelectorFromSet(labels.Set(svc.Spec.Selector)).Matches(labels.Set(pod.Labels)) {
			for k, v := range svc.Spec.Selector {
				set[k] = v
			}
		}
	}
	sel := AndSelector{labels.SelectorFromSet(set)}
	ref := pod.GetControllerOf()
	if ref == nil {
		return sel
	}
	var ls *api.LabelSelector
	switch {
	case ref.Kind == "ReplicaSet" && strings.HasPrefix(ref.APIVersion, "apps/"):
		if rs, ok := h.ReplicaSet(pod.Namespace, ref.Name); ok {
			ls = rs.Spec.Selector
		}
	case ref.Kind == "StatefulSet" && strings.HasPrefix(ref.APIVersion, "apps/"):
		if ss, ok := h.StatefulSet(pod.Namespace, ref.Name); ok {
			ls = ss.Spec.Selector
		}
	}
	if ls != nil {
		if other, err := labels.SelectorFromLabelSelector(ls); err == nil {
			if _, ok := other.Requirements(); ok {
				sel = append(sel, other)
			}
		}
	}
	return sel
}
