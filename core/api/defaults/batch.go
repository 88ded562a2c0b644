package defaults

import (
	"math"

	"kubeplay/core/api"
)

func defaultJob(job *api.Job) {
	spec := &job.Spec
	// A non-parallel job may leave both unset: both become 1.
	if spec.Completions == nil && spec.Parallelism == nil {
		spec.Completions = ptr[int32](1)
	}
	if spec.Parallelism == nil {
		spec.Parallelism = ptr[int32](1)
	}
	if spec.BackoffLimit == nil {
		if spec.BackoffLimitPerIndex != nil {
			// Per-index limits replace the global one.
			spec.BackoffLimit = ptr[int32](math.MaxInt32)
		} else {
			spec.BackoffLimit = ptr[int32](6)
		}
	}
	if len(job.Labels) == 0 && spec.Template.Labels != nil {
		job.Labels = copyLabels(spec.Template.Labels)
	}
	if spec.CompletionMode == nil {
		spec.CompletionMode = ptr(api.NonIndexedCompletion)
	}
	if spec.Suspend == nil {
		spec.Suspend = ptr(false)
	}
	if pfp := spec.PodFailurePolicy; pfp != nil {
		for i := range pfp.Rules {
			for j := range pfp.Rules[i].OnPodConditions {
				if c := &pfp.Rules[i].OnPodConditions[j]; c.Status == "" {
					c.Status = api.ConditionTrue
				}
			}
		}
	}
	if spec.PodReplacementPolicy == nil {
		// With a pod failure policy, a pod is replaced only once it has
		// failed, so the policy sees its final state.
		if spec.PodFailurePolicy != nil {
			spec.PodReplacementPolicy = ptr(api.PodReplacementPolicyFailed)
		} else {
			spec.PodReplacementPolicy = ptr(api.PodReplacementPolicyTerminatingOrFailed)
		}
	}
	// The template gets the pod spec defaults, restartPolicy Always
	// included; Job validation then asks for OnFailure or Never.
	defaultPodTemplateSpec(&spec.Template)
}

// copyLabels copies a label map so the object and its template do not share it.
func copyLabels(in map[string]string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// defaultCronJob: the job template gets only pod template defaults; Job
// defaults come when the controller creates each Job.
func defaultCronJob(cj *api.CronJob) {
	spec := &cj.Spec
	if spec.ConcurrencyPolicy == "" {
		spec.ConcurrencyPolicy = api.AllowConcurrent
	}
	if spec.Suspend == nil {
		spec.Suspend = ptr(false)
	}
	if spec.SuccessfulJobsHistoryLimit == nil {
		spec.SuccessfulJobsHistoryLimit = ptr[int32](3)
	}
	if spec.FailedJobsHistoryLimit == nil {
		spec.FailedJobsHistoryLimit = ptr[int32](1)
	}
	defaultPodTemplateSpec(&spec.JobTemplate.Spec.Template)
}
