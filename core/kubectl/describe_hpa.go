package kubectl

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// quantityPtr prints an optional quantity as apimachinery's pointer
// String does ("<nil>" when unset).
func quantityPtr(q *resource.Quantity) string {
	if q == nil {
		return "<nil>"
	}
	return q.String()
}

// horizontalPodAutoscaler is describeHorizontalPodAutoscalerV2: each metric
// as "( current / target )", replica bounds, behavior, conditions.
func (d *describer) horizontalPodAutoscaler(hpa *api.HorizontalPodAutoscaler) string {
	events := d.objectEvents("HorizontalPodAutoscaler", &hpa.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", hpa.Name)
	w.write(0, "Namespace:\t%s\n", hpa.Namespace)
	w.writeLabels("", "Labels", hpa.Labels)
	w.writeAnnotations("Annotations", hpa.Annotations)
	w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(hpa.CreationTimestamp))
	ref := hpa.Spec.ScaleTargetRef
	w.write(0, "Reference:\t%s/%s\n", ref.Kind, ref.Name)
	w.write(0, "Metrics:\t( current / target )\n")
	current := func(i int) *api.MetricStatus {
		if i < len(hpa.Status.CurrentMetrics) {
			return &hpa.Status.CurrentMetrics[i]
		}
		return nil
	}
	for i, m := range hpa.Spec.Metrics {
		cur := current(i)
		now := "<unknown>"
		switch {
		case m.Type == api.ExternalMetricSourceType && m.External != nil:
			if m.External.Target.AverageValue != nil {
				if cur != nil && cur.External != nil && cur.External.Current.AverageValue != nil {
					now = cur.External.Current.AverageValue.String()
				}
				w.write(1, "%q (target average value):\t%s / %s\n", m.External.Metric.Name, now, m.External.Target.AverageValue.String())
			} else {
				if cur != nil && cur.External != nil {
					now = quantityPtr(cur.External.Current.Value)
				}
				w.write(1, "%q (target value):\t%s / %s\n", m.External.Metric.Name, now, quantityPtr(m.External.Target.Value))
			}
		case m.Type == api.PodsMetricSourceType && m.Pods != nil:
			if cur != nil && cur.Pods != nil {
				now = quantityPtr(cur.Pods.Current.AverageValue)
			}
			w.write(1, "%q on pods:\t%s / %s\n", m.Pods.Metric.Name, now, quantityPtr(m.Pods.Target.AverageValue))
		case m.Type == api.ObjectMetricSourceType && m.Object != nil:
			w.write(1, "\"%s\" on %s/%s ", m.Object.Metric.Name, m.Object.DescribedObject.Kind, m.Object.DescribedObject.Name)
			if m.Object.Target.Type == api.AverageValueMetricType {
				if cur != nil && cur.Object != nil {
					now = quantityPtr(cur.Object.Current.AverageValue)
				}
				w.write(0, "(target average value):\t%s / %s\n", now, quantityPtr(m.Object.Target.AverageValue))
			} else {
				if cur != nil && cur.Object != nil {
					now = quantityPtr(cur.Object.Current.Value)
				}
				w.write(0, "(target value):\t%s / %s\n", now, quantityPtr(m.Object.Target.Value))
			}
		case m.Type == api.ResourceMetricSourceType && m.Resource != nil:
			w.write(1, "resource %s on pods", m.Resource.Name)
			var status *api.MetricValueStatus
			if cur != nil && cur.Resource != nil {
				status = &cur.Resource.Current
			}
			writeResourceMetric(w, m.Resource.Target, status)
		case m.Type == api.ContainerResourceMetricSourceType && m.ContainerResource != nil:
			w.write(1, "resource %s of container \"%s\" on pods", m.ContainerResource.Name, m.ContainerResource.Container)
			var status *api.MetricValueStatus
			if cur != nil && cur.ContainerResource != nil {
				status = &cur.ContainerResource.Current
			}
			writeResourceMetric(w, m.ContainerResource.Target, status)
		default:
			w.write(1, "<unknown metric type %q>\n", m.Type)
		}
	}
	min := "<unset>"
	if hpa.Spec.MinReplicas != nil {
		min = fmt.Sprintf("%d", *hpa.Spec.MinReplicas)
	}
	w.write(0, "Min replicas:\t%s\n", min)
	w.write(0, "Max replicas:\t%d\n", hpa.Spec.MaxReplicas)
	if b := hpa.Spec.Behavior; b != nil {
		w.write(0, "Behavior:\n")
		writeScalingRules(w, "Scale Up", b.ScaleUp)
		writeScalingRules(w, "Scale Down", b.ScaleDown)
	}
	w.write(0, "%s pods:\t", ref.Kind)
	w.write(0, "%d current / %d desired\n", hpa.Status.CurrentReplicas, hpa.Status.DesiredReplicas)
	if len(hpa.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n")
		w.write(1, "Type\tStatus\tReason\tMessage\n")
		w.write(1, "----\t------\t------\t-------\n")
		for _, c := range hpa.Status.Conditions {
			w.write(1, "%v\t%v\t%v\t%v\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	d.writeEvents(w, events)
	return w.String()
}

// writeResourceMetric ends a resource metric's line: an average value
// target, or utilization "(as a percentage of request)" on its own line.
func writeResourceMetric(w *describeWriter, target api.MetricTarget, cur *api.MetricValueStatus) {
	now := "<unknown>"
	if target.AverageValue != nil {
		if cur != nil {
			now = quantityPtr(cur.AverageValue)
		}
		w.write(0, ":\t%s / %s\n", now, target.AverageValue.String())
		return
	}
	if cur != nil && cur.AverageUtilization != nil {
		now = fmt.Sprintf("%d%% (%s)", *cur.AverageUtilization, quantityPtr(cur.AverageValue))
	}
	want := "<auto>"
	if target.AverageUtilization != nil {
		want = fmt.Sprintf("%d%%", *target.AverageUtilization)
	}
	w.write(1, "(as a percentage of request):\t%s / %s\n", now, want)
}

func writeScalingRules(w *describeWriter, direction string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	w.write(1, "%s:\n", direction)
	if r.StabilizationWindowSeconds != nil {
		w.write(2, "Stabilization Window: %d seconds\n", *r.StabilizationWindowSeconds)
	}
	if len(r.Policies) > 0 {
		sel := api.MaxChangePolicySelect
		if r.SelectPolicy != nil {
			sel = *r.SelectPolicy
		}
		w.write(2, "Select Policy: %s\n", sel)
		w.write(2, "Policies:\n")
		for _, p := range r.Policies {
			w.write(3, "- Type: %s\tValue: %d\tPeriod: %d seconds\n", p.Type, p.Value, p.PeriodSeconds)
		}
	}
}
