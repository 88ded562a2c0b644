package api

// Job runs pods until a number of them succeed.
type Job struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       JobSpec   `json:"spec,omitempty"`
	Status     JobStatus `json:"status,omitempty"`
}

// JobSpec is the work: completions, parallelism, limits and pod template.
type JobSpec struct {
	Parallelism             *int32                `json:"parallelism,omitempty"`
	Completions             *int32                `json:"completions,omitempty"`
	ActiveDeadlineSeconds   *int64                `json:"activeDeadlineSeconds,omitempty"`
	PodFailurePolicy        *PodFailurePolicy     `json:"podFailurePolicy,omitempty"`
	SuccessPolicy           *SuccessPolicy        `json:"successPolicy,omitempty"`
	BackoffLimit            *int32                `json:"backoffLimit,omitempty"`
	BackoffLimitPerIndex    *int32                `json:"backoffLimitPerIndex,omitempty"`
	MaxFailedIndexes        *int32                `json:"maxFailedIndexes,omitempty"`
	Selector                *LabelSelector        `json:"selector,omitempty"`
	ManualSelector          *bool                 `json:"manualSelector,omitempty"`
	Template                PodTemplateSpec       `json:"template"`
	TTLSecondsAfterFinished *int32                `json:"ttlSecondsAfterFinished,omitempty"`
	CompletionMode          *CompletionMode       `json:"completionMode,omitempty"`
	Suspend                 *bool                 `json:"suspend,omitempty"`
	PodReplacementPolicy    *PodReplacementPolicy `json:"podReplacementPolicy,omitempty"`
	ManagedBy               *string               `json:"managedBy,omitempty"`
}

// PodFailurePolicy decides what a failed pod means for the job.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule matches failed pods by exit codes or conditions.
type PodFailurePolicyRule struct {
	Action          PodFailurePolicyAction                   `json:"action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty"`
}

// PodFailurePolicyOnExitCodesRequirement matches container exit codes.
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string                             `json:"containerName,omitempty"`
	Operator      PodFailurePolicyOnExitCodesOperator `json:"operator"`
	Values        []int32                             `json:"values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   PodConditionType `json:"type"`
	Status ConditionStatus  `json:"status"`
}

// SuccessPolicy declares an indexed job succeeded early.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules"`
}

// SuccessPolicyRule is one success criterion.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty"`
	SucceededCount   *int32  `json:"succeededCount,omitempty"`
}

// JobStatus counts the job's pods and reports completion.
type JobStatus struct {
	Conditions              []JobCondition           `json:"conditions,omitempty"`
	StartTime               *Time                    `json:"startTime,omitempty"`
	CompletionTime          *Time                    `json:"completionTime,omitempty"`
	Active                  int32                    `json:"active,omitempty"`
	Succeeded               int32                    `json:"succeeded,omitempty"`
	Failed                  int32                    `json:"failed,omitempty"`
	Terminating             *int32                   `json:"terminating,omitempty"`
	CompletedIndexes        string                   `json:"completedIndexes,omitempty"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty"`
	Ready                   *int32                   `json:"ready,omitempty"`
}

// UncountedTerminatedPods lists finished pods (by UID) not yet counted.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty"`
}

// JobCondition is Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.
type JobCondition struct {
	Type               JobConditionType `json:"type"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitempty"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// Job completion modes, policy values, condition types and reasons, and the
// labels and annotations the job controller sets.
const (
	NonIndexedCompletion = "NonIndexed"
	IndexedCompletion    = "Indexed"

	PodFailurePolicyActionFailJob   = "FailJob"
	PodFailurePolicyActionFailIndex = "FailIndex"
	PodFailurePolicyActionIgnore    = "Ignore"
	PodFailurePolicyActionCount     = "Count"

	PodFailurePolicyOnExitCodesOpIn    = "In"
	PodFailurePolicyOnExitCodesOpNotIn = "NotIn"

	PodReplacementPolicyTerminatingOrFailed = "TerminatingOrFailed"
	PodReplacementPolicyFailed              = "Failed"

	JobSuspended          = "Suspended"
	JobComplete           = "Complete"
	JobFailed             = "Failed"
	JobFailureTarget      = "FailureTarget"
	JobSuccessCriteriaMet = "SuccessCriteriaMet"

	JobReasonPodFailurePolicy         = "PodFailurePolicy"
	JobReasonBackoffLimitExceeded     = "BackoffLimitExceeded"
	JobReasonDeadlineExceeded         = "DeadlineExceeded"
	JobReasonMaxFailedIndexesExceeded = "MaxFailedIndexesExceeded"
	JobReasonFailedIndexes            = "FailedIndexes"
	JobReasonSuccessPolicy            = "SuccessPolicy"
	JobReasonCompletionsReached       = "CompletionsReached"

	CronJobScheduledTimestampAnnotation   = "batch.kubernetes.io/cronjob-scheduled-timestamp"
	JobCompletionIndexAnnotation          = "batch.kubernetes.io/job-completion-index"
	JobTrackingFinalizer                  = "batch.kubernetes.io/job-tracking"
	JobNameLabel                          = "batch.kubernetes.io/job-name"
	ControllerUidLabel                    = "batch.kubernetes.io/controller-uid"
	JobIndexFailureCountAnnotation        = "batch.kubernetes.io/job-index-failure-count"
	JobIndexIgnoredFailureCountAnnotation = "batch.kubernetes.io/job-index-ignored-failure-count"
	JobControllerName                     = "kubernetes.io/job-controller"

	// LegacyJobNameLabel and LegacyControllerUidLabel are set beside the
	// batch.kubernetes.io ones for older clients.
	LegacyJobNameLabel       = "job-name"
	LegacyControllerUidLabel = "controller-uid"
)
