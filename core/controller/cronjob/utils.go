package cronjob

import (
	"fmt"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/cron"
	"kubeplay/core/client"
	"kubeplay/core/controller"
)

// nextScheduleDelta pads every requeue past the schedule time, so the sync
// lands after the minute has begun, as upstream allows for clock skew.
const nextScheduleDelta = 100 * time.Millisecond

// tooManyMissed is upstream's arbitrary bound: more missed start times
// than this means a wrong clock or a controller long down.
const tooManyMissed = 100

type missedSchedulesType int

const (
	noneMissed missedSchedulesType = iota
	fewMissed
	manyMissed
)

func inActiveList(cj *api.CronJob, uid string) bool {
	for _, r := range cj.Status.Active {
		if r.UID == uid {
			return true
		}
	}
	return false
}

func inActiveListByName(cj *api.CronJob, namespace, name string) bool {
	for _, r := range cj.Status.Active {
		if r.Name == name && r.Namespace == namespace {
			return true
		}
	}
	return false
}

func deleteFromActiveList(cj *api.CronJob, uid string) {
	kept := []api.ObjectReference{}
	for _, r := range cj.Status.Active {
		if r.UID != uid {
			kept = append(kept, r)
		}
	}
	cj.Status.Active = kept
}

// mostRecentScheduleTime returns the time schedules are counted from (the
// last schedule time, else the CronJob's creation, moved up to now minus
// startingDeadlineSeconds when asked), the latest schedule time at or
// before now (nil if none), and roughly how many were missed. A schedule
// that never fires twice in a row (Feb 31) is an error.
func mostRecentScheduleTime(cj *api.CronJob, now time.Time, sched cron.Schedule, includeStartingDeadlineSeconds bool) (time.Time, *time.Time, missedSchedulesType, error) {
	earliest := cj.CreationTimestamp.Time
	if cj.Status.LastScheduleTime != nil {
		earliest = cj.Status.LastScheduleTime.Time
	}
	if includeStartingDeadlineSeconds && cj.Spec.StartingDeadlineSeconds != nil {
		if deadline := now.Add(-time.Duration(*cj.Spec.StartingDeadlineSeconds) * time.Second); deadline.After(earliest) {
			earliest = deadline
		}
	}
	errNever := fmt.Errorf("time difference between two schedules is less than 1 second")
	t1 := sched.Next(earliest)
	if t1.IsZero() {
		// No such date (Feb 31): upstream's arithmetic ends in this error.
		return earliest, nil, noneMissed, errNever
	}
	if now.Before(t1) {
		return earliest, nil, noneMissed, nil
	}
	t2 := sched.Next(t1)
	if !t2.IsZero() && now.Before(t2) {
		return earliest, &t1, noneMissed, nil
	}
	// Estimate the missed count from the gap between two schedules, then
	// walk only the last stretch (from two gaps before the estimate).
	gap := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if t2.IsZero() || gap < 1 {
		return earliest, nil, noneMissed, errNever
	}
	missed := int64(now.Sub(t1).Seconds())/gap + 1
	var recent time.Time
	from := t1.Add(time.Duration((missed-2)*gap) * time.Second)
	for t := sched.Next(from); !t.IsZero() && !t.After(now); t = sched.Next(t) {
		recent = t
	}
	kind := fewMissed
	if missed > tooManyMissed {
		kind = manyMissed
	}
	if recent.IsZero() {
		return earliest, nil, kind, nil
	}
	return earliest, &recent, kind, nil
}

// nextScheduleTimeDuration is how long until the sync after the next
// schedule time.
func nextScheduleTimeDuration(cj *api.CronJob, now time.Time, sched cron.Schedule) time.Duration {
	earliest, recent, missed, err := mostRecentScheduleTime(cj, now, sched, false)
	from := now
	switch {
	case err != nil:
	case recent != nil:
		from = *recent
	case missed == noneMissed:
		from = earliest
	}
	next := sched.Next(from)
	if next.IsZero() {
		// A schedule that never fires again: look again in a year rather
		// than spin.
		next = now.AddDate(1, 0, 0)
	}
	return next.Add(nextScheduleDelta).Sub(now)
}

// nextScheduleTime returns the schedule time a job is due for now, or nil;
// it warns when very many start times were missed.
func (jm *Controller) nextScheduleTime(cj *api.CronJob, now time.Time, sched cron.Schedule) (*time.Time, error) {
	_, recent, missed, err := mostRecentScheduleTime(cj, now, sched, true)
	if recent == nil || recent.After(now) {
		return nil, err
	}
	if missed == manyMissed {
		jm.recorder.Event(cj, api.EventTypeWarning, "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	return recent, err
}

// formatSchedule adds the CronJob's timeZone to its schedule as a TZ=
// prefix; a TZ written into the schedule itself is honoured but warned
// about (record false skips the warning).
func (jm *Controller) formatSchedule(cj *api.CronJob, record bool) string {
	if strings.Contains(cj.Spec.Schedule, "TZ") {
		if record {
			jm.recorder.Eventf(cj, api.EventTypeWarning, "UnsupportedSchedule", "CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", cj.Spec.Schedule)
		}
		return cj.Spec.Schedule
	}
	if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := cron.LoadLocation(*tz); err != nil {
			return cj.Spec.Schedule
		}
		return "TZ=" + *tz + " " + cj.Spec.Schedule
	}
	return cj.Spec.Schedule
}

// getJobName is "<cronjob>-<scheduled time in minutes since the epoch>":
// deterministic, so one schedule time can create only one Job.
func getJobName(cj *api.CronJob, scheduled time.Time) string {
	return fmt.Sprintf("%s-%d", cj.Name, scheduled.Unix()/60)
}

// getJobFromTemplate2 is the Job a CronJob creates for a schedule time: the
// template's labels, annotations and spec, the scheduled-timestamp
// annotation (in the CronJob's time zone) and the controller reference.
func getJobFromTemplate2(cj *api.CronJob, scheduled time.Time) (*api.Job, error) {
	tz := ""
	if cj.Spec.TimeZone != nil {
		tz = *cj.Spec.TimeZone
	}
	loc, err := cron.LoadLocation(tz)
	if err != nil {
		return nil, err
	}
	t := cj.Spec.JobTemplate.DeepCopy()
	lbls := map[string]string{}
	for k, v := range t.Labels {
		lbls[k] = v
	}
	annotations := map[string]string{}
	for k, v := range t.Annotations {
		annotations[k] = v
	}
	annotations[api.CronJobScheduledTimestampAnnotation] = scheduled.In(loc).Format(time.RFC3339)
	return &api.Job{
		TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: api.ObjectMeta{
			Name:            getJobName(cj, scheduled),
			Namespace:       cj.Namespace,
			Labels:          lbls,
			Annotations:     annotations,
			OwnerReferences: []api.OwnerReference{*controller.NewControllerRef(cj)},
		},
		Spec: t.Spec,
	}, nil
}

// byJobStartTime orders jobs oldest start first, unstarted last, names
// breaking ties.
func byJobStartTime(a, b *api.Job) bool {
	sa, sb := a.Status.StartTime, b.Status.StartTime
	switch {
	case sa == nil && sb != nil:
		return false
	case sa != nil && sb == nil:
		return true
	case sa == nil || sa.Equal(sb.Time):
		return a.Name < b.Name
	}
	return sa.Before(sb.Time)
}

// getRef is the status.active entry for a job.
func getRef(j *api.Job) api.ObjectReference { return client.ReferenceTo(j) }
