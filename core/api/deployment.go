package api

import "kubeplay/core/api/intstr"

// Deployment rolls a pod template out through ReplicaSets.
type Deployment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DeploymentSpec   `json:"spec,omitempty"`
	Status     DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec is the desired pods and how to roll out changes.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector"`
	Template                PodTemplateSpec    `json:"template"`
	Strategy                DeploymentStrategy `json:"strategy,omitempty"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategy is Recreate or RollingUpdate.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update (counts or percentages).
type RollingUpdateDeployment struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is the deployment controller's view of the rollout.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty"`
}

// DeploymentCondition is Available, Progressing or ReplicaFailure.
type DeploymentCondition struct {
	Type               DeploymentConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastUpdateTime     Time                    `json:"lastUpdateTime,omitempty"`
	LastTransitionTime Time                    `json:"lastTransitionTime,omitempty"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// Strategy types, condition types, the pod-template-hash label and the
// annotations the deployment controller keeps on deployments and ReplicaSets.
const (
	RecreateDeploymentStrategyType      = "Recreate"
	RollingUpdateDeploymentStrategyType = "RollingUpdate"

	DeploymentAvailable      = "Available"
	DeploymentProgressing    = "Progressing"
	DeploymentReplicaFailure = "ReplicaFailure"

	DefaultDeploymentUniqueLabelKey = "pod-template-hash"

	RevisionAnnotation           = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation    = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation    = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation        = "deployment.kubernetes.io/max-replicas"
	DeprecatedRollbackTo         = "deprecated.deployment.rollback.to"
	DeprecatedTemplateGeneration = "deprecated.daemonset.template.generation"
)

// GetDeploymentCondition returns the condition of type t, or nil.
func GetDeploymentCondition(status DeploymentStatus, t string) *DeploymentCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// NewDeploymentCondition builds a condition stamped at now.
func NewDeploymentCondition(t, status, reason, message string, now Time) *DeploymentCondition {
	return &DeploymentCondition{
		Type:               t,
		Status:             status,
		LastUpdateTime:     now,
		LastTransitionTime: now,
		Reason:             reason,
		Message:            message,
	}
}

// SetDeploymentCondition puts condition into status, replacing one of the
// same type. When status and reason are unchanged nothing happens; when only
// the reason changes the old lastTransitionTime is kept.
func SetDeploymentCondition(status *DeploymentStatus, condition DeploymentCondition) {
	current := GetDeploymentCondition(*status, condition.Type)
	if current != nil && current.Status == condition.Status && current.Reason == condition.Reason {
		return
	}
	if current != nil && current.Status == condition.Status {
		condition.LastTransitionTime = current.LastTransitionTime
	}
	out := filterOutDeploymentCondition(status.Conditions, condition.Type)
	status.Conditions = append(out, condition)
}

// RemoveDeploymentCondition drops the condition of type t.
func RemoveDeploymentCondition(status *DeploymentStatus, t string) {
	status.Conditions = filterOutDeploymentCondition(status.Conditions, t)
}

func filterOutDeploymentCondition(conditions []DeploymentCondition, t string) []DeploymentCondition {
	var out []DeploymentCondition
	for _, c := range conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}
