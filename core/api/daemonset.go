package api

import "kubeplay/core/api/intstr"

// DaemonSet runs one pod on each eligible node.
type DaemonSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DaemonSetSpec   `json:"spec,omitempty"`
	Status     DaemonSetStatus `json:"status,omitempty"`
}

// DaemonSetSpec is the pod template and update strategy.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector"`
	Template             PodTemplateSpec         `json:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy,omitempty"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategy is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a daemon set's rolling update.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus counts nodes by what runs on them.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32                `json:"currentNumberScheduled"`
	NumberMisscheduled     int32                `json:"numberMisscheduled"`
	DesiredNumberScheduled int32                `json:"desiredNumberScheduled"`
	NumberReady            int32                `json:"numberReady"`
	ObservedGeneration     int64                `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32                `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32                `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32                `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32               `json:"collisionCount,omitempty"`
	Conditions             []DaemonSetCondition `json:"conditions,omitempty"`
}

// DaemonSetCondition is a condition of a DaemonSet.
type DaemonSetCondition struct {
	Type               DaemonSetConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime Time                   `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// DaemonSet update strategy types and its revision label.
const (
	RollingUpdateDaemonSetStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      = "OnDelete"

	DefaultDaemonSetUniqueLabelKey = ControllerRevisionHashLabelKey
)
