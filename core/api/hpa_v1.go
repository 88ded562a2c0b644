package api

import (
	"encoding/json"
	"fmt"
)

// HorizontalPodAutoscalerV1 is the autoscaling/v1 HorizontalPodAutoscaler:
// one CPU utilization target. The store keeps v2 objects; v1 is a view made by
// ConvertHPAV2ToV1 and read back by ConvertHPAV1ToV2.
type HorizontalPodAutoscalerV1 struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       HorizontalPodAutoscalerSpecV1   `json:"spec,omitempty"`
	Status     HorizontalPodAutoscalerStatusV1 `json:"status,omitempty"`
}

// HorizontalPodAutoscalerSpecV1 is autoscaling/v1's spec.
type HorizontalPodAutoscalerSpecV1 struct {
	ScaleTargetRef                 CrossVersionObjectReference `json:"scaleTargetRef"`
	MinReplicas                    *int32                      `json:"minReplicas,omitempty"`
	MaxReplicas                    int32                       `json:"maxReplicas"`
	TargetCPUUtilizationPercentage *int32                      `json:"targetCPUUtilizationPercentage,omitempty"`
}

// HorizontalPodAutoscalerStatusV1 is autoscaling/v1's status.
type HorizontalPodAutoscalerStatusV1 struct {
	ObservedGeneration              *int64 `json:"observedGeneration,omitempty"`
	LastScaleTime                   *Time  `json:"lastScaleTime,omitempty"`
	CurrentReplicas                 int32  `json:"currentReplicas"`
	DesiredReplicas                 int32  `json:"desiredReplicas"`
	CurrentCPUUtilizationPercentage *int32 `json:"currentCPUUtilizationPercentage,omitempty"`
}

// Annotations that carry v2-only fields through a v1 object, and the CPU
// target a v1 autoscaler without one gets.
const (
	HPAMetricSpecsAnnotation    = "autoscaling.alpha.kubernetes.io/metrics"
	HPAMetricStatusesAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	HPAConditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	HPABehaviorSpecsAnnotation  = "autoscaling.alpha.kubernetes.io/behavior"

	DefaultCPUUtilization int32 = 80
)

// hpaRoundTripAnnotations are written by v2→v1 and consumed by v1→v2.
var hpaRoundTripAnnotations = []string{
	HPAMetricSpecsAnnotation, HPAMetricStatusesAnnotation,
	HPAConditionsAnnotation, HPABehaviorSpecsAnnotation,
}

// The behavior annotation holds upstream's internal type, which has no JSON
// tags: its keys are Go field names ("ScaleUp", "StabilizationWindowSeconds").
type hpaBehaviorAnnotation struct {
	ScaleUp   *hpaScalingRulesAnnotation
	ScaleDown *hpaScalingRulesAnnotation
}

type hpaScalingRulesAnnotation struct {
	StabilizationWindowSeconds *int32
	SelectPolicy               *string
	Policies                   []hpaScalingPolicyAnnotation
}

type hpaScalingPolicyAnnotation struct {
	Type          string
	Value         int32
	PeriodSeconds int32
}

// ConvertHPAV2ToV1 renders a v2 autoscaler as autoscaling/v1: the first CPU
// utilization metric becomes targetCPUUtilizationPercentage, conditions and
// behavior ride in annotations. The input is not modified.
func ConvertHPAV2ToV1(in *HorizontalPodAutoscaler) (*HorizontalPodAutoscalerV1, error) {
	out := &HorizontalPodAutoscalerV1{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v1", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: *in.ObjectMeta.DeepCopy(),
	}
	out.Spec.ScaleTargetRef = in.Spec.ScaleTargetRef
	out.Spec.MinReplicas = copyInt32Ptr(in.Spec.MinReplicas)
	out.Spec.MaxReplicas = in.Spec.MaxReplicas
	for _, m := range in.Spec.Metrics {
		if m.Type == ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == ResourceCPU {
			out.Spec.TargetCPUUtilizationPercentage = copyInt32Ptr(m.Resource.Target.AverageUtilization)
			break
		}
	}

	out.Status.ObservedGeneration = copyInt64Ptr(in.Status.ObservedGeneration)
	if in.Status.LastScaleTime != nil {
		t := *in.Status.LastScaleTime
		out.Status.LastScaleTime = &t
	}
	out.Status.CurrentReplicas = in.Status.CurrentReplicas
	out.Status.DesiredReplicas = in.Status.DesiredReplicas
	for _, m := range in.Status.CurrentMetrics {
		if m.Type == ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == ResourceCPU &&
			m.Resource.Current.AverageUtilization != nil {
			out.Status.CurrentCPUUtilizationPercentage = copyInt32Ptr(m.Resource.Current.AverageUtilization)
		}
	}

	// Stale round-trip annotations from an earlier v1 write must not win
	// over the fields they were made from.
	for _, k := range hpaRoundTripAnnotations {
		delete(out.Annotations, k)
	}
	set := func(k string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if out.Annotations == nil {
			out.Annotations = map[string]string{}
		}
		out.Annotations[k] = string(b)
		return nil
	}
	if len(in.Status.Conditions) > 0 {
		if err := set(HPAConditionsAnnotation, in.Status.Conditions); err != nil {
			return nil, err
		}
	}
	if b := in.Spec.Behavior; b != nil {
		if err := set(HPABehaviorSpecsAnnotation, hpaBehaviorAnnotation{
			ScaleUp:   rulesToAnnotation(b.ScaleUp),
			ScaleDown: rulesToAnnotation(b.ScaleDown),
		}); err != nil {
			return nil, err
		}
	}
	if len(out.Annotations) == 0 {
		out.Annotations = nil
	}
	return out, nil
}

// ConvertHPAV1ToV2 reads an autoscaling/v1 autoscaler as v2: the CPU target
// becomes a Resource metric (80% when unset, as v1's controller implied),
// and annotations written by ConvertHPAV2ToV1 are lifted back into fields.
func ConvertHPAV1ToV2(in *HorizontalPodAutoscalerV1) (*HorizontalPodAutoscaler, error) {
	out := &HorizontalPodAutoscaler{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: *in.ObjectMeta.DeepCopy(),
	}
	out.Spec.ScaleTargetRef = in.Spec.ScaleTargetRef
	out.Spec.MinReplicas = copyInt32Ptr(in.Spec.MinReplicas)
	out.Spec.MaxReplicas = in.Spec.MaxReplicas
	target := DefaultCPUUtilization
	if in.Spec.TargetCPUUtilizationPercentage != nil {
		target = *in.Spec.TargetCPUUtilizationPercentage
	}
	out.Spec.Metrics = []MetricSpec{cpuUtilizationMetric(target)}

	out.Status.ObservedGeneration = copyInt64Ptr(in.Status.ObservedGeneration)
	if in.Status.LastScaleTime != nil {
		t := *in.Status.LastScaleTime
		out.Status.LastScaleTime = &t
	}
	out.Status.CurrentReplicas = in.Status.CurrentReplicas
	out.Status.DesiredReplicas = in.Status.DesiredReplicas
	if in.Status.CurrentCPUUtilizationPercentage != nil {
		out.Status.CurrentMetrics = []MetricStatus{{
			Type: ResourceMetricSourceType,
			Resource: &ResourceMetricStatus{
				Name:    ResourceCPU,
				Current: MetricValueStatus{AverageUtilization: copyInt32Ptr(in.Status.CurrentCPUUtilizationPercentage)},
			},
		}}
	}

	if s, ok := out.Annotations[HPAConditionsAnnotation]; ok {
		var conds []HorizontalPodAutoscalerCondition
		if err := json.Unmarshal([]byte(s), &conds); err != nil {
			return nil, fmt.Errorf("annotation %s: %v", HPAConditionsAnnotation, err)
		}
		out.Status.Conditions = conds
	}
	if s, ok := out.Annotations[HPABehaviorSpecsAnnotation]; ok {
		var b hpaBehaviorAnnotation
		if err := json.Unmarshal([]byte(s), &b); err != nil {
			return nil, fmt.Errorf("annotation %s: %v", HPABehaviorSpecsAnnotation, err)
		}
		out.Spec.Behavior = &HorizontalPodAutoscalerBehavior{
			ScaleUp:   rulesFromAnnotation(b.ScaleUp),
			ScaleDown: rulesFromAnnotation(b.ScaleDown),
		}
	}
	for _, k := range hpaRoundTripAnnotations {
		delete(out.Annotations, k)
	}
	if len(out.Annotations) == 0 {
		out.Annotations = nil
	}
	return out, nil
}

func cpuUtilizationMetric(percent int32) MetricSpec {
	return MetricSpec{
		Type: ResourceMetricSourceType,
		Resource: &ResourceMetricSource{
			Name:   ResourceCPU,
			Target: MetricTarget{Type: UtilizationMetricType, AverageUtilization: &percent},
		},
	}
}

func rulesToAnnotation(r *HPAScalingRules) *hpaScalingRulesAnnotation {
	if r == nil {
		return nil
	}
	out := &hpaScalingRulesAnnotation{
		StabilizationWindowSeconds: copyInt32Ptr(r.StabilizationWindowSeconds),
		SelectPolicy:               copyStringPtr(r.SelectPolicy),
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, hpaScalingPolicyAnnotation(p))
	}
	return out
}

func rulesFromAnnotation(r *hpaScalingRulesAnnotation) *HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &HPAScalingRules{
		StabilizationWindowSeconds: r.StabilizationWindowSeconds,
		SelectPolicy:               r.SelectPolicy,
	}
	for _, p := range r.Policies {
		out.Policies = append(out.Policies, HPAScalingPolicy(p))
	}
	return out
}

func copyInt32Ptr(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyInt64Ptr(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyStringPtr(p *string) *string {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
