package api

// CronJob creates Jobs on a schedule.
type CronJob struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       CronJobSpec   `json:"spec,omitempty"`
	Status     CronJobStatus `json:"status,omitempty"`
}

// CronJobSpec is the schedule, concurrency rules and job template.
type CronJobSpec struct {
	Schedule                   string            `json:"schedule"`
	TimeZone                   *string           `json:"timeZone,omitempty"`
	StartingDeadlineSeconds    *int64            `json:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy          ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	Suspend                    *bool             `json:"suspend,omitempty"`
	JobTemplate                JobTemplateSpec   `json:"jobTemplate"`
	SuccessfulJobsHistoryLimit *int32            `json:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32            `json:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplateSpec is the job a CronJob creates.
type JobTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       JobSpec `json:"spec,omitempty"`
}

// CronJobStatus lists running jobs and the last schedule times.
type CronJobStatus struct {
	Active             []ObjectReference `json:"active,omitempty"`
	LastScheduleTime   *Time             `json:"lastScheduleTime,omitempty"`
	LastSuccessfulTime *Time             `json:"lastSuccessfulTime,omitempty"`
}

// Concurrency policies.
const (
	AllowConcurrent   = "Allow"
	ForbidConcurrent  = "Forbid"
	ReplaceConcurrent = "Replace"
)
