package api

import "kubeplay/core/api/intstr"

// StatefulSet runs pods with stable names, ordinals and storage.
type StatefulSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       StatefulSetSpec   `json:"spec,omitempty"`
	Status     StatefulSetStatus `json:"status,omitempty"`
}

// StatefulSetSpec is the desired pods, their claims and update strategy.
type StatefulSetSpec struct {
	Replicas                             *int32                                           `json:"replicas,omitempty"`
	Selector                             *LabelSelector                                   `json:"selector"`
	Template                             PodTemplateSpec                                  `json:"template"`
	VolumeClaimTemplates                 []PersistentVolumeClaim                          `json:"volumeClaimTemplates,omitempty"`
	ServiceName                          string                                           `json:"serviceName"`
	PodManagementPolicy                  PodManagementPolicyType                          `json:"podManagementPolicy,omitempty"`
	UpdateStrategy                       StatefulSetUpdateStrategy                        `json:"updateStrategy,omitempty"`
	RevisionHistoryLimit                 *int32                                           `json:"revisionHistoryLimit,omitempty"`
	MinReadySeconds                      int32                                            `json:"minReadySeconds,omitempty"`
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	Ordinals                             *StatefulSetOrdinals                             `json:"ordinals,omitempty"`
}

// StatefulSetUpdateStrategy is RollingUpdate or OnDelete.
type StatefulSetUpdateStrategy struct {
	Type          StatefulSetUpdateStrategyType     `json:"type,omitempty"`
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy: only ordinals >= partition are updated.
type RollingUpdateStatefulSetStrategy struct {
	Partition      *int32              `json:"partition,omitempty"`
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to
// claims when the set is deleted or scaled down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty"`
	WhenScaled  PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty"`
}

// StatefulSetOrdinals sets the first ordinal.
type StatefulSetOrdinals struct {
	Start int32 `json:"start"`
}

// StatefulSetStatus counts pods by revision.
type StatefulSetStatus struct {
	ObservedGeneration int64                  `json:"observedGeneration,omitempty"`
	Replicas           int32                  `json:"replicas"`
	ReadyReplicas      int32                  `json:"readyReplicas,omitempty"`
	CurrentReplicas    int32                  `json:"currentReplicas,omitempty"`
	UpdatedReplicas    int32                  `json:"updatedReplicas,omitempty"`
	CurrentRevision    string                 `json:"currentRevision,omitempty"`
	UpdateRevision     string                 `json:"updateRevision,omitempty"`
	CollisionCount     *int32                 `json:"collisionCount,omitempty"`
	Conditions         []StatefulSetCondition `json:"conditions,omitempty"`
	AvailableReplicas  int32                  `json:"availableReplicas"`
}

// StatefulSetCondition is a condition of a StatefulSet.
type StatefulSetCondition struct {
	Type               StatefulSetConditionType `json:"type"`
	Status             ConditionStatus          `json:"status"`
	LastTransitionTime Time                     `json:"lastTransitionTime,omitempty"`
	Reason             string                   `json:"reason,omitempty"`
	Message            string                   `json:"message,omitempty"`
}

// Pod management and update policies, claim retention and the labels the
// StatefulSet controller puts on its pods.
const (
	OrderedReadyPodManagement = "OrderedReady"
	ParallelPodManagement     = "Parallel"

	RollingUpdateStatefulSetStrategyType = "RollingUpdate"
	OnDeleteStatefulSetStrategyType      = "OnDelete"

	RetainPersistentVolumeClaimRetentionPolicyType = "Retain"
	DeletePersistentVolumeClaimRetentionPolicyType = "Delete"

	ControllerRevisionHashLabelKey = "controller-revision-hash"
	StatefulSetRevisionLabel       = ControllerRevisionHashLabelKey
	StatefulSetPodNameLabel        = "statefulset.kubernetes.io/pod-name"
	PodIndexLabel                  = "apps.kubernetes.io/pod-index"
)
