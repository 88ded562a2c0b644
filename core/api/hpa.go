package api

import "kubeplay/core/api/resource"

// HorizontalPodAutoscaler is autoscaling/v2's: it scales a target's replicas
// to keep metrics near their targets. HorizontalPodAutoscalerV1 is the
// autoscaling/v1 shape; ConvertHPAV1ToV2 and ConvertHPAV2ToV1 map between them.
type HorizontalPodAutoscaler struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       HorizontalPodAutoscalerSpec   `json:"spec,omitempty"`
	Status     HorizontalPodAutoscalerStatus `json:"status,omitempty"`
}

// HorizontalPodAutoscalerSpec is the target, bounds, metrics and behavior.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference      `json:"scaleTargetRef"`
	MinReplicas    *int32                           `json:"minReplicas,omitempty"`
	MaxReplicas    int32                            `json:"maxReplicas"`
	Metrics        []MetricSpec                     `json:"metrics,omitempty"`
	Behavior       *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// CrossVersionObjectReference names the scaled object.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// MetricSpec is one metric to scale on; type says which source is set.
type MetricSpec struct {
	Type              MetricSourceType               `json:"type"`
	Object            *ObjectMetricSource            `json:"object,omitempty"`
	Pods              *PodsMetricSource              `json:"pods,omitempty"`
	Resource          *ResourceMetricSource          `json:"resource,omitempty"`
	ContainerResource *ContainerResourceMetricSource `json:"containerResource,omitempty"`
	External          *ExternalMetricSource          `json:"external,omitempty"`
}

// ObjectMetricSource is a metric of another object.
type ObjectMetricSource struct {
	DescribedObject CrossVersionObjectReference `json:"describedObject"`
	Target          MetricTarget                `json:"target"`
	Metric          MetricIdentifier            `json:"metric"`
}

// PodsMetricSource is a per-pod metric averaged over the pods.
type PodsMetricSource struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// ResourceMetricSource is a resource (cpu, memory) of the pods.
type ResourceMetricSource struct {
	Name   ResourceName `json:"name"`
	Target MetricTarget `json:"target"`
}

// ContainerResourceMetricSource is a resource of one container of the pods.
type ContainerResourceMetricSource struct {
	Name      ResourceName `json:"name"`
	Target    MetricTarget `json:"target"`
	Container string       `json:"container"`
}

// ExternalMetricSource is a metric from outside the cluster.
type ExternalMetricSource struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// MetricIdentifier names a metric and optionally narrows it.
type MetricIdentifier struct {
	Name     string         `json:"name"`
	Selector *LabelSelector `json:"selector,omitempty"`
}

// MetricTarget is a target value, average value or average utilization.
type MetricTarget struct {
	Type               MetricTargetType   `json:"type"`
	Value              *resource.Quantity `json:"value,omitempty"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerBehavior tunes scaling up and down.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty"`
}

// HPAScalingRules are the policies and stabilization window of one direction.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32               `json:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *ScalingPolicySelect `json:"selectPolicy,omitempty"`
	Policies                   []HPAScalingPolicy   `json:"policies,omitempty"`
}

// HPAScalingPolicy allows a change of value pods or percent per period.
type HPAScalingPolicy struct {
	Type          HPAScalingPolicyType `json:"type"`
	Value         int32                `json:"value"`
	PeriodSeconds int32                `json:"periodSeconds"`
}

// HorizontalPodAutoscalerStatus is the autoscaler's last observation.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64                             `json:"observedGeneration,omitempty"`
	LastScaleTime      *Time                              `json:"lastScaleTime,omitempty"`
	CurrentReplicas    int32                              `json:"currentReplicas,omitempty"`
	DesiredReplicas    int32                              `json:"desiredReplicas"`
	CurrentMetrics     []MetricStatus                     `json:"currentMetrics"`
	Conditions         []HorizontalPodAutoscalerCondition `json:"conditions,omitempty"`
}

// HorizontalPodAutoscalerCondition is AbleToScale, ScalingActive or ScalingLimited.
type HorizontalPodAutoscalerCondition struct {
	Type               HorizontalPodAutoscalerConditionType `json:"type"`
	Status             ConditionStatus                      `json:"status"`
	LastTransitionTime Time                                 `json:"lastTransitionTime,omitempty"`
	Reason             string                               `json:"reason,omitempty"`
	Message            string                               `json:"message,omitempty"`
}

// MetricStatus is the current value of one metric.
type MetricStatus struct {
	Type              MetricSourceType               `json:"type"`
	Object            *ObjectMetricStatus            `json:"object,omitempty"`
	Pods              *PodsMetricStatus              `json:"pods,omitempty"`
	Resource          *ResourceMetricStatus          `json:"resource,omitempty"`
	ContainerResource *ContainerResourceMetricStatus `json:"containerResource,omitempty"`
	External          *ExternalMetricStatus          `json:"external,omitempty"`
}

// ObjectMetricStatus is the current value of an object metric.
type ObjectMetricStatus struct {
	Metric          MetricIdentifier            `json:"metric"`
	Current         MetricValueStatus           `json:"current"`
	DescribedObject CrossVersionObjectReference `json:"describedObject"`
}

// PodsMetricStatus is the current value of a pods metric.
type PodsMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric"`
	Current MetricValueStatus `json:"current"`
}

// ResourceMetricStatus is the current value of a resource metric.
type ResourceMetricStatus struct {
	Name    ResourceName      `json:"name"`
	Current MetricValueStatus `json:"current"`
}

// ContainerResourceMetricStatus is the current value of a container resource metric.
type ContainerResourceMetricStatus struct {
	Name      ResourceName      `json:"name"`
	Current   MetricValueStatus `json:"current"`
	Container string            `json:"container"`
}

// ExternalMetricStatus is the current value of an external metric.
type ExternalMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric"`
	Current MetricValueStatus `json:"current"`
}

// MetricValueStatus is a current value, average value or average utilization.
type MetricValueStatus struct {
	Value              *resource.Quantity `json:"value,omitempty"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty"`
}

// Metric source and target types, scaling policy values and condition types.
const (
	ObjectMetricSourceType            = "Object"
	PodsMetricSourceType              = "Pods"
	ResourceMetricSourceType          = "Resource"
	ContainerResourceMetricSourceType = "ContainerResource"
	ExternalMetricSourceType          = "External"

	UtilizationMetricType  = "Utilization"
	ValueMetricType        = "Value"
	AverageValueMetricType = "AverageValue"

	MaxChangePolicySelect = "Max"
	MinChangePolicySelect = "Min"
	DisabledPolicySelect  = "Disabled"

	PodsScalingPolicy    = "Pods"
	PercentScalingPolicy = "Percent"

	ScalingActive  = "ScalingActive"
	AbleToScale    = "AbleToScale"
	ScalingLimited = "ScalingLimited"
)
