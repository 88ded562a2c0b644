package printers

import (
	"fmt"
	"time"

	"kubeplay/core/api"
)

// Columns of Jobs and CronJobs.

var jobHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Status"},
		{Name: "Completions"},
		{Name: "Duration"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		j, ok := obj.(*api.Job)
		if !ok {
			return nil, false
		}
		names, images := containerCells(j.Spec.Template.Spec.Containers)
		return []string{
			j.Name,
			jobStatus(j),
			jobCompletions(j),
			jobDuration(j, now),
			Age(j.CreationTimestamp, now),
			names, images, formatSelector(j.Spec.Selector),
		}, true
	},
}

// jobCompletions is succeeded/completions; a job without completions needs
// one success, and with parallelism > 1 says so ("0/1 of 3").
func jobCompletions(j *api.Job) string {
	if j.Spec.Completions != nil {
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	}
	if p := int32Or(j.Spec.Parallelism, 0); p > 1 {
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, p)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}

// jobDuration is start to completion, or start to now while running, and
// empty before the job starts.
func jobDuration(j *api.Job, now time.Time) string {
	switch {
	case j.Status.StartTime == nil:
		return ""
	case j.Status.CompletionTime == nil:
		return HumanDuration(now.Sub(j.Status.StartTime.Time))
	}
	return HumanDuration(j.Status.CompletionTime.Sub(j.Status.StartTime.Time))
}

// jobStatus ranks the job's conditions as upstream does: finished states
// first, then deletion, suspension and a pending failure.
func jobStatus(j *api.Job) string {
	switch {
	case jobCondition(j, api.JobComplete):
		return "Complete"
	case jobCondition(j, api.JobFailed):
		return "Failed"
	case j.DeletionTimestamp != nil:
		return "Terminating"
	case jobCondition(j, api.JobSuspended):
		return "Suspended"
	case jobCondition(j, api.JobFailureTarget):
		return "FailureTarget"
	}
	return "Running"
}

// jobCondition reads the first condition of the type.
func jobCondition(j *api.Job, t string) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == t {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

var cronJobHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Schedule"},
		{Name: "Timezone"},
		{Name: "Suspend"},
		{Name: "Active"},
		{Name: "Last Schedule"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		cj, ok := obj.(*api.CronJob)
		if !ok {
			return nil, false
		}
		last := "<none>"
		if cj.Status.LastScheduleTime != nil {
			last = Age(*cj.Status.LastScheduleTime, now)
		}
		tz := "<none>"
		if cj.Spec.TimeZone != nil {
			tz = *cj.Spec.TimeZone
		}
		spec := cj.Spec.JobTemplate.Spec
		names, images := containerCells(spec.Template.Spec.Containers)
		return []string{
			cj.Name,
			cj.Spec.Schedule,
			tz,
			boolPtr(cj.Spec.Suspend),
			fmt.Sprint(len(cj.Status.Active)),
			last,
			Age(cj.CreationTimestamp, now),
			names, images, formatSelector(spec.Selector),
		}, true
	},
}
