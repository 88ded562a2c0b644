package printers

import (
	"fmt"
	"strings"
	"time"

	"kubeplay/core/api"
)

// HorizontalPodAutoscalers print the same in both served versions: the
// server renders its internal (v2-shaped) object, so a v1 object is read
// through the v2 conversion first.
var hpaHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Reference"},
		{Name: "Targets"},
		{Name: "MinPods"},
		{Name: "MaxPods"},
		{Name: "Replicas"},
		{Name: "Age"},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		var h *api.HorizontalPodAutoscaler
		switch o := obj.(type) {
		case *api.HorizontalPodAutoscaler:
			h = o
		case *api.HorizontalPodAutoscalerV1:
			h = hpaV1AsV2(o)
		default:
			return nil, false
		}
		minPods := "<unset>"
		if h.Spec.MinReplicas != nil {
			minPods = itoa32(*h.Spec.MinReplicas)
		}
		ref := h.Spec.ScaleTargetRef
		return []string{
			h.Name,
			ref.Kind + "/" + ref.Name,
			hpaTargets(h.Spec.Metrics, h.Status.CurrentMetrics),
			minPods,
			itoa32(h.Spec.MaxReplicas),
			itoa32(h.Status.CurrentReplicas),
			Age(h.CreationTimestamp, now),
		}, true
	},
}

// hpaV1AsV2 converts for printing; a malformed round-trip annotation only
// loses what it carried, as the CPU target and status come from fields.
func hpaV1AsV2(in *api.HorizontalPodAutoscalerV1) *api.HorizontalPodAutoscaler {
	if out, err := api.ConvertHPAV1ToV2(in); err == nil {
		return out
	}
	stripped := *in
	stripped.Annotations = nil
	out, err := api.ConvertHPAV1ToV2(&stripped)
	if err != nil {
		return &api.HorizontalPodAutoscaler{ObjectMeta: in.ObjectMeta}
	}
	out.ObjectMeta = in.ObjectMeta
	return out
}

// maxTargets is how many metrics TARGETS lists before "+ N more...".
const maxTargets = 2

// hpaTargets is formatHPAMetrics: "cpu: 50%/80%" for utilization,
// "cpu: 100m/200m" for average values, "current/target" for pods, object
// and external metrics ("(avg)" when averaged), "<unknown>" before the
// first measurement; statuses pair with specs by position.
func hpaTargets(specs []api.MetricSpec, statuses []api.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	status := func(i int) *api.MetricStatus {
		if i < len(statuses) {
			return &statuses[i]
		}
		return nil
	}
	var list []string
	for i, spec := range specs {
		st := status(i)
		list = append(list, hpaTarget(spec, st))
	}
	if len(list) > maxTargets {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:maxTargets], ", "), len(list)-maxTargets)
	}
	return strings.Join(list, ", ")
}

func hpaTarget(spec api.MetricSpec, st *api.MetricStatus) string {
	const unknown = "<unknown>"
	switch spec.Type {
	case api.ExternalMetricSourceType:
		if spec.External == nil {
			break
		}
		t := spec.External.Target
		if t.AverageValue != nil {
			cur := unknown
			if st != nil && st.External != nil && st.External.Current.AverageValue != nil {
				cur = quantityPtr(st.External.Current.AverageValue)
			}
			return fmt.Sprintf("%s/%s (avg)", cur, quantityPtr(t.AverageValue))
		}
		cur := unknown
		if st != nil && st.External != nil {
			cur = quantityPtr(st.External.Current.Value)
		}
		return fmt.Sprintf("%s/%s", cur, quantityPtr(t.Value))
	case api.PodsMetricSourceType:
		if spec.Pods == nil {
			break
		}
		cur := unknown
		if st != nil && st.Pods != nil {
			cur = quantityPtr(st.Pods.Current.AverageValue)
		}
		return fmt.Sprintf("%s/%s", cur, quantityPtr(spec.Pods.Target.AverageValue))
	case api.ObjectMetricSourceType:
		if spec.Object == nil {
			break
		}
		t := spec.Object.Target
		if t.AverageValue != nil {
			cur := unknown
			if st != nil && st.Object != nil && st.Object.Current.AverageValue != nil {
				cur = quantityPtr(st.Object.Current.AverageValue)
			}
			return fmt.Sprintf("%s/%s (avg)", cur, quantityPtr(t.AverageValue))
		}
		cur := unknown
		if st != nil && st.Object != nil {
			cur = quantityPtr(st.Object.Current.Value)
		}
		return fmt.Sprintf("%s/%s", cur, quantityPtr(t.Value))
	case api.ResourceMetricSourceType:
		if spec.Resource == nil {
			break
		}
		var cur *api.MetricValueStatus
		if st != nil && st.Resource != nil {
			cur = &st.Resource.Current
		}
		return resourceTarget(spec.Resource.Name, spec.Resource.Target, cur)
	case api.ContainerResourceMetricSourceType:
		if spec.ContainerResource == nil {
			break
		}
		var cur *api.MetricValueStatus
		if st != nil && st.ContainerResource != nil {
			cur = &st.ContainerResource.Current
		}
		return resourceTarget(spec.ContainerResource.Name, spec.ContainerResource.Target, cur)
	}
	return "<unknown type>"
}

// resourceTarget prints "name: current/target" for a (container) resource
// metric, in average values or in utilization percent.
func resourceTarget(name string, t api.MetricTarget, cur *api.MetricValueStatus) string {
	current := "<unknown>"
	if t.AverageValue != nil {
		if cur != nil {
			current = quantityPtr(cur.AverageValue)
		}
		return fmt.Sprintf("%s: %s/%s", name, current, quantityPtr(t.AverageValue))
	}
	if cur != nil && cur.AverageUtilization != nil {
		current = fmt.Sprintf("%d%%", *cur.AverageUtilization)
	}
	target := "<auto>"
	if t.AverageUtilization != nil {
		target = fmt.Sprintf("%d%%", *t.AverageUtilization)
	}
	return fmt.Sprintf("%s: %s/%s", name, current, target)
}
