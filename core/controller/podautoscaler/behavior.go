package podautoscaler

import (
	"time"

	"kubeplay/core/api"
)

// normalizeDesiredReplicas applies the behavior: the stabilization window
// (scale-down looks back 5 minutes and takes the highest recommendation),
// the rate policies, and the min and max.
func (c *HorizontalController) normalizeDesiredReplicas(hpa *api.HorizontalPodAutoscaler, key string, current, proposal, minReplicas int32, conds *conditions, now time.Time) int32 {
	recs := append(c.recommendations[key], timestampedRecommendation{proposal, now})
	upWindow, downWindow := time.Duration(0), downscaleStabilization
	b := hpa.Spec.Behavior
	if b != nil && b.ScaleUp != nil && b.ScaleUp.StabilizationWindowSeconds != nil {
		upWindow = time.Duration(*b.ScaleUp.StabilizationWindowSeconds) * time.Second
	}
	if b != nil && b.ScaleDown != nil && b.ScaleDown.StabilizationWindowSeconds != nil {
		downWindow = time.Duration(*b.ScaleDown.StabilizationWindowSeconds) * time.Second
	}
	upRec, downRec := proposal, proposal
	keep := recs[:0]
	longest := upWindow
	if downWindow > longest {
		longest = downWindow
	}
	for _, r := range recs {
		if now.Sub(r.at) > longest {
			continue
		}
		keep = append(keep, r)
		if now.Sub(r.at) <= upWindow && r.replicas < upRec {
			upRec = r.replicas
		}
		if now.Sub(r.at) <= downWindow && r.replicas > downRec {
			downRec = r.replicas
		}
	}
	c.recommendations[key] = keep
	stabilized := current
	if upRec > current {
		stabilized = upRec
	}
	if downRec < current {
		stabilized = downRec
	}
	if stabilized != proposal {
		conds.set("AbleToScale", api.ConditionTrue, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation")
	}
	// Rate limits: by default 4 pods or 100% more per 15 s up, 100% per 15 s down.
	limited := stabilized
	if stabilized > current {
		limit := max(current*2, current+4)
		if b != nil && b.ScaleUp != nil && len(b.ScaleUp.Policies) > 0 {
			limit = c.policyLimit(key, b.ScaleUp, current, now, true)
		}
		if limited > limit {
			limited = limit
			conds.set("ScalingLimited", api.ConditionTrue, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate")
		}
	}
	desired := limited
	switch {
	case desired > hpa.Spec.MaxReplicas:
		desired = hpa.Spec.MaxReplicas
		conds.set("ScalingLimited", api.ConditionTrue, "TooManyReplicas", "the desired replica count is more than the maximum replica count")
	case desired < minReplicas:
		desired = minReplicas
		conds.set("ScalingLimited", api.ConditionTrue, "TooFewReplicas", "the desired replica count is less than the minimum replica count")
	case limited == stabilized:
		conds.set("ScalingLimited", api.ConditionFalse, "DesiredWithinRange", "the desired count is within the acceptable range")
	}
	return desired
}

// policyLimit is the most (scaling up) the policies allow now.
func (c *HorizontalController) policyLimit(key string, rules *api.HPAScalingRules, current int32, now time.Time, up bool) int32 {
	events := c.scaleUpEvents[key]
	best := int32(-1)
	for _, p := range rules.Policies {
		var changed int32
		for _, e := range events {
			if now.Sub(e.at) < time.Duration(p.PeriodSeconds)*time.Second {
				changed += e.change
			}
		}
		start := current - changed
		var limit int32
		if p.Type == api.PodsScalingPolicy {
			limit = start + p.Value
		} else {
			limit = int32(float64(start)*(1+float64(p.Value)/100) + 0.999999)
		}
		if rules.SelectPolicy != nil && *rules.SelectPolicy == api.MinChangePolicySelect {
			if best < 0 || limit < best {
				best = limit
			}
		} else if limit > best {
			best = limit
		}
	}
	if best < 0 {
		return current
	}
	return best
}

func (c *HorizontalController) recordScaleEvent(key string, from, to int32, now time.Time) {
	if to > from {
		c.scaleUpEvents[key] = append(c.scaleUpEvents[key], timestampedScaleEvent{to - from, now})
	} else {
		c.scaleDownEvents[key] = append(c.scaleDownEvents[key], timestampedScaleEvent{from - to, now})
	}
}

// conditions edits an HPA's conditions, keeping transition times.
type conditions struct {
	list []api.HorizontalPodAutoscalerCondition
	now  api.Time
}

func (cs *conditions) set(typ string, status api.ConditionStatus, reason, msg string) {
	for i := range cs.list {
		if string(cs.list[i].Type) == typ {
			if cs.list[i].Status != status {
				cs.list[i].LastTransitionTime = cs.now
			}
			cs.list[i].Status, cs.list[i].Reason, cs.list[i].Message = status, reason, msg
			return
		}
	}
	cs.list = append(cs.list, api.HorizontalPodAutoscalerCondition{Type: api.HorizontalPodAutoscalerConditionType(typ), Status: status,
		Reason: reason, Message: msg, LastTransitionTime: cs.now})
}

func (cs *conditions) get(typ string) string {
	for _, c := range cs.list {
		if string(c.Type) == typ {
			return c.Reason
		}
	}
	return ""
}
