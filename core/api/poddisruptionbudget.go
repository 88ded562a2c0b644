package api

import "kubeplay/core/api/intstr"

// PodDisruptionBudget is policy/v1 PodDisruptionBudget: how many pods of a
// set evictions may take down at once.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodDisruptionBudgetSpec   `json:"spec,omitempty"`
	Status     PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// PodDisruptionBudgetSpec is minAvailable or maxUnavailable over a selector.
type PodDisruptionBudgetSpec struct {
	MinAvailable               *intstr.IntOrString             `json:"minAvailable,omitempty"`
	Selector                   *LabelSelector                  `json:"selector,omitempty"`
	MaxUnavailable             *intstr.IntOrString             `json:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *UnhealthyPodEvictionPolicyType `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// PodDisruptionBudgetStatus is the disruption controller's count.
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty"`
}

// PDB condition, reasons and unhealthy pod eviction policies.
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SyncFailedReason           = "SyncFailed"
	SufficientPodsReason       = "SufficientPods"
	InsufficientPodsReason     = "InsufficientPods"

	IfHealthyBudget = "IfHealthyBudget"
	AlwaysAllow     = "AlwaysAllow"
)
