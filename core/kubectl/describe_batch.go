package kubectl

import (
	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/printers"
)

// intOrStringPtr prints an optional int-or-percent as apimachinery's
// pointer String does ("<nil>" when unset).
func intOrStringPtr(v *intstr.IntOrString) string {
	if v == nil {
		return "<nil>"
	}
	return v.String()
}

// job is describeJob.
func (d *describer) job(job *api.Job) string {
	events := d.objectEvents("Job", &job.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", job.Name)
	w.write(0, "Namespace:\t%s\n", job.Namespace)
	w.write(0, "Selector:\t%s\n", selectorString(job.Spec.Selector))
	w.writeLabels("", "Labels", job.Labels)
	w.writeAnnotations("Annotations", job.Annotations)
	if by := controllerOf(&job.ObjectMeta); by != "" {
		w.write(0, "Controlled By:\t%s\n", by)
	}
	spec, st := &job.Spec, &job.Status
	if spec.Parallelism != nil {
		w.write(0, "Parallelism:\t%d\n", *spec.Parallelism)
	}
	if spec.Completions != nil {
		w.write(0, "Completions:\t%d\n", *spec.Completions)
	} else {
		w.write(0, "Completions:\t<unset>\n")
	}
	if spec.CompletionMode != nil {
		w.write(0, "Completion Mode:\t%s\n", *spec.CompletionMode)
	}
	if spec.Suspend != nil {
		w.write(0, "Suspend:\t%v\n", *spec.Suspend)
	}
	if spec.BackoffLimit != nil {
		w.write(0, "Backoff Limit:\t%v\n", *spec.BackoffLimit)
	}
	if spec.TTLSecondsAfterFinished != nil {
		w.write(0, "TTL Seconds After Finished:\t%v\n", *spec.TTLSecondsAfterFinished)
	}
	if st.StartTime != nil {
		w.write(0, "Start Time:\t%s\n", rfc1123z(*st.StartTime))
	}
	if st.CompletionTime != nil {
		w.write(0, "Completed At:\t%s\n", rfc1123z(*st.CompletionTime))
	}
	if st.StartTime != nil && st.CompletionTime != nil {
		w.write(0, "Duration:\t%s\n", printers.HumanDuration(st.CompletionTime.Sub(st.StartTime.Time)))
	}
	if spec.ActiveDeadlineSeconds != nil {
		w.write(0, "Active Deadline Seconds:\t%ds\n", *spec.ActiveDeadlineSeconds)
	}
	if st.Ready == nil {
		w.write(0, "Pods Statuses:\t%d Active / %d Succeeded / %d Failed\n", st.Active, st.Succeeded, st.Failed)
	} else {
		w.write(0, "Pods Statuses:\t%d Active (%d Ready) / %d Succeeded / %d Failed\n", st.Active, *st.Ready, st.Succeeded, st.Failed)
	}
	if spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion {
		w.write(0, "Completed Indexes:\t%s\n", capIndexes(st.CompletedIndexes, 50))
	}
	writePodTemplate(w, &spec.Template)
	d.writeEvents(w, events)
	return w.String()
}

// capIndexes cuts a long completed-indexes list after the first comma past
// soft characters: "0-3,5,7,...".
func capIndexes(indexes string, soft int) string {
	if indexes == "" {
		return "<none>"
	}
	i := soft
	for ; i < len(indexes); i++ {
		if indexes[i] == ',' {
			break
		}
	}
	if i >= len(indexes) {
		return indexes
	}
	return indexes[:i+1] + "..."
}

// cronJob is describeCronJob with its job template.
func (d *describer) cronJob(cj *api.CronJob) string {
	events := d.objectEvents("CronJob", &cj.ObjectMeta)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", cj.Name)
	w.write(0, "Namespace:\t%s\n", cj.Namespace)
	w.writeLabels("", "Labels", cj.Labels)
	w.writeAnnotations("Annotations", cj.Annotations)
	spec := &cj.Spec
	w.write(0, "Schedule:\t%s\n", spec.Schedule)
	w.write(0, "Concurrency Policy:\t%s\n", spec.ConcurrencyPolicy)
	w.write(0, "Suspend:\t%s\n", printBoolPtr(spec.Suspend))
	writeOptionalInt32(w, "Successful Job History Limit", spec.SuccessfulJobsHistoryLimit)
	writeOptionalInt32(w, "Failed Job History Limit", spec.FailedJobsHistoryLimit)
	if spec.StartingDeadlineSeconds != nil {
		w.write(0, "Starting Deadline Seconds:\t%ds\n", *spec.StartingDeadlineSeconds)
	} else {
		w.write(0, "Starting Deadline Seconds:\t<unset>\n")
	}
	jt := &spec.JobTemplate.Spec
	if jt.Selector != nil {
		w.write(0, "Selector:\t%s\n", selectorString(jt.Selector))
	} else {
		w.write(0, "Selector:\t<unset>\n")
	}
	writeOptionalInt32(w, "Parallelism", jt.Parallelism)
	writeOptionalInt32(w, "Completions", jt.Completions)
	if jt.ActiveDeadlineSeconds != nil {
		w.write(0, "Active Deadline Seconds:\t%ds\n", *jt.ActiveDeadlineSeconds)
	}
	writePodTemplate(w, &jt.Template)
	if t := cj.Status.LastScheduleTime; t != nil {
		w.write(0, "Last Schedule Time:\t%s\n", rfc1123z(*t))
	} else {
		w.write(0, "Last Schedule Time:\t<unset>\n")
	}
	w.write(0, "Active Jobs:\t")
	if len(cj.Status.Active) == 0 {
		w.line("<none>")
	} else {
		for i, j := range cj.Status.Active {
			if i != 0 {
				w.write(0, ", ")
			}
			w.write(0, "%s", j.Name)
		}
		w.line("")
	}
	d.writeEvents(w, events)
	return w.String()
}

// writeOptionalInt32 is "Title:\tN" or "Title:\t<unset>".
func writeOptionalInt32(w *describeWriter, title string, v *int32) {
	if v != nil {
		w.write(0, "%s:\t%d\n", title, *v)
	} else {
		w.write(0, "%s:\t<unset>\n", title)
	}
}
