package cronjob

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/cron"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestMostRecentScheduleTime(t *testing.T) {
	for _, tc := range []struct {
		name         string
		schedule     string
		timeZone     string
		created      string
		last         string
		deadline     *int64
		now          string
		want         string // "" for none
		missed       missedSchedulesType
		wantErr      bool
		nextDuration time.Duration
	}{
		{name: "before the first minute", schedule: "*/1 * * * *", created: "2026-11-22T11:32:49Z", now: "2026-11-22T11:32:59Z",
			missed: noneMissed, nextDuration: 1100 * time.Millisecond},
		{name: "the first minute", schedule: "*/1 * * * *", created: "2026-11-22T11:32:49Z", now: "2026-11-22T11:33:00.1Z",
			want: "2026-11-22T11:33:00Z", missed: noneMissed, nextDuration: 60 * time.Second},
		{name: "already scheduled", schedule: "*/1 * * * *", created: "2026-11-22T11:32:49Z", last: "2026-11-22T11:33:00Z", now: "2026-11-22T11:33:30Z",
			missed: noneMissed, nextDuration: 30*time.Second + 100*time.Millisecond},
		{name: "a few missed", schedule: "*/1 * * * *", created: "2026-11-22T11:00:10Z", now: "2026-11-22T11:05:10Z",
			want: "2026-11-22T11:05:00Z", missed: fewMissed, nextDuration: 50*time.Second + 100*time.Millisecond},
		{name: "too many missed", schedule: "*/1 * * * *", created: "2026-11-22T08:00:00Z", now: "2026-11-22T11:00:30Z",
			want: "2026-11-22T11:00:00Z", missed: manyMissed, nextDuration: 30*time.Second + 100*time.Millisecond},
		{name: "starting deadline trims the misses", schedule: "*/1 * * * *", created: "2026-11-22T08:00:00Z", deadline: api.Int64(200), now: "2026-11-22T11:00:30Z",
			want: "2026-11-22T11:00:00Z", missed: fewMissed, nextDuration: 30*time.Second + 100*time.Millisecond},
		{name: "hourly", schedule: "0 * * * *", created: "2026-11-22T09:30:00Z", now: "2026-11-22T12:10:00Z",
			want: "2026-11-22T12:00:00Z", missed: fewMissed, nextDuration: 50*time.Minute + 100*time.Millisecond},
		{name: "time zone", schedule: "0 9 * * *", timeZone: "Asia/Tokyo", created: "2026-11-21T23:00:00Z", now: "2026-11-22T00:30:00Z",
			want: "2026-11-22T00:00:00Z", missed: noneMissed, nextDuration: 23*time.Hour + 30*time.Minute + 100*time.Millisecond},
		{name: "every 90 s", schedule: "@every 90s", created: "2026-11-22T11:00:00Z", now: "2026-11-22T11:04:40Z",
			want: "2026-11-22T11:04:30Z", missed: fewMissed, nextDuration: 80*time.Second + 100*time.Millisecond},
		{name: "no such day", schedule: "59 23 31 2 *", created: "2026-11-22T11:00:00Z", now: "2026-11-22T11:04:40Z", wantErr: true},
	} {
		cj := &api.CronJob{ObjectMeta: api.ObjectMeta{CreationTimestamp: api.Time{Time: at(tc.created)}},
			Spec: api.CronJobSpec{Schedule: tc.schedule, StartingDeadlineSeconds: tc.deadline}}
		if tc.last != "" {
			cj.Status.LastScheduleTime = &api.Time{Time: at(tc.last)}
		}
		if tc.timeZone != "" {
			cj.Spec.TimeZone = api.String(tc.timeZone)
		}
		sched, err := cron.Parse((&Controller{}).formatSchedule(cj, false))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		now := at(tc.now)
		_, recent, missed, err := mostRecentScheduleTime(cj, now, sched, true)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v", tc.name, err)
			continue
		}
		if tc.wantErr {
			continue
		}
		got := ""
		if recent != nil {
			got = recent.UTC().Format(time.RFC3339)
		}
		if got != tc.want || missed != tc.missed {
			t.Errorf("%s: most recent %q missed %d, want %q %d", tc.name, got, missed, tc.want, tc.missed)
		}
		if tc.last == "" && recent != nil {
			// The controller records the schedule it ran before requeueing.
			cj.Status.LastScheduleTime = &api.Time{Time: *recent}
		}
		if d := nextScheduleTimeDuration(cj, now, sched); d != tc.nextDuration {
			t.Errorf("%s: next in %v, want %v", tc.name, d, tc.nextDuration)
		}
	}
}

func TestJobNameAndAnnotation(t *testing.T) {
	for _, tc := range []struct {
		tz, scheduled, name, annotation string
	}{
		{"", "2026-11-22T11:34:00Z", "hello-29922454", "2026-11-22T11:34:00Z"},
		{"Asia/Shanghai", "2026-11-22T11:34:00Z", "hello-29922454", "2026-11-22T19:34:00+08:00"},
	} {
		cj := &api.CronJob{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default", UID: "u"}}
		if tc.tz != "" {
			cj.Spec.TimeZone = api.String(tc.tz)
		}
		j, err := getJobFromTemplate2(cj, at(tc.scheduled))
		if err != nil {
			t.Fatal(err)
		}
		if j.Name != tc.name || j.Annotations[api.CronJobScheduledTimestampAnnotation] != tc.annotation {
			t.Errorf("%s: name %q annotation %q", tc.tz, j.Name, j.Annotations[api.CronJobScheduledTimestampAnnotation])
		}
	}
}
