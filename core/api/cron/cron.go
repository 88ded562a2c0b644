// Package cron parses the standard five-field cron schedules CronJobs use
// and computes their next run, with the grammar and error messages of
// robfig/cron v3's ParseStandard, which the API server and the CronJob
// controller use upstream.
//
//	minute hour day-of-month month day-of-week
//
// Fields take *, ?, numbers, names (jan-dec, sun-sat), ranges (1-5),
// steps (*/15, 1-30/2, 5/10) and lists (1,15); the descriptors @yearly,
// @annually, @monthly, @weekly, @daily, @midnight, @hourly and
// "@every <duration>" are accepted, as is a "TZ=Zone " or
// "CRON_TZ=Zone " prefix.
package cron

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule gives the next activation strictly after t.
type Schedule interface {
	Next(t time.Time) time.Time
}

type bounds struct {
	min, max uint
	names    map[string]uint
}

var (
	minutes = bounds{0, 59, nil}
	hours   = bounds{0, 23, nil}
	doms    = bounds{1, 31, nil}
	months  = bounds{1, 12, map[string]uint{
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	}}
	dows = bounds{0, 6, map[string]uint{
		"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
	}}
)

// starBit marks a field written as * or ?, which changes how day-of-month
// and day-of-week combine.
const starBit = 1 << 63

// SpecSchedule is a parsed five-field schedule. Seconds are always 0.
type SpecSchedule struct {
	Minute, Hour, Dom, Month, Dow uint64
	// Location is the TZ= zone, or nil to use the zone of the time given
	// to Next.
	Location *time.Location
}

// ConstantDelaySchedule is "@every <duration>".
type ConstantDelaySchedule struct {
	Delay time.Duration
}

// Next is t plus the delay, rounded down to the second.
func (s ConstantDelaySchedule) Next(t time.Time) time.Time {
	return t.Add(s.Delay - time.Duration(t.Nanosecond())*time.Nanosecond)
}

// Parse reads a schedule; errors are worded as robfig/cron v3's.
func Parse(spec string) (Schedule, error) {
	if len(spec) == 0 {
		return nil, fmt.Errorf("empty spec string")
	}
	var loc *time.Location
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		eq := strings.Index(spec, "=")
		i := strings.Index(spec, " ")
		if i < 0 {
			// robfig/cron panics here; a clear error is kinder.
			return nil, fmt.Errorf("provided bad location %s: %v", spec[eq+1:], "missing schedule after time zone")
		}
		name := spec[eq+1 : i]
		l, err := LoadLocation(name)
		if err != nil {
			return nil, fmt.Errorf("provided bad location %s: %v", name, err)
		}
		loc = l
		spec = strings.TrimSpace(spec[i:])
	}
	if strings.HasPrefix(spec, "@") {
		return parseDescriptor(spec, loc)
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %s", len(fields), fields)
	}
	s := &SpecSchedule{Location: loc}
	var err error
	for i, f := range []struct {
		dst *uint64
		b   bounds
	}{{&s.Minute, minutes}, {&s.Hour, hours}, {&s.Dom, doms}, {&s.Month, months}, {&s.Dow, dows}} {
		if *f.dst, err = getField(fields[i], f.b); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func getField(field string, r bounds) (uint64, error) {
	var bits uint64
	for _, expr := range strings.FieldsFunc(field, func(c rune) bool { return c == ',' }) {
		b, err := getRange(expr, r)
		if err != nil {
			return bits, err
		}
		bits |= b
	}
	return bits, nil
}

func getRange(expr string, r bounds) (uint64, error) {
	var start, end, step uint
	rangeAndStep := strings.Split(expr, "/")
	lowAndHigh := strings.Split(rangeAndStep[0], "-")
	single := len(lowAndHigh) == 1
	var extra uint64
	var err error
	if lowAndHigh[0] == "*" || lowAndHigh[0] == "?" {
		start, end, extra = r.min, r.max, starBit
	} else {
		if start, err = parseIntOrName(lowAndHigh[0], r.names); err != nil {
			return 0, err
		}
		switch len(lowAndHigh) {
		case 1:
			end = start
		case 2:
			if end, err = parseIntOrName(lowAndHigh[1], r.names); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("too many hyphens: %s", expr)
		}
	}
	switch len(rangeAndStep) {
	case 1:
		step = 1
	case 2:
		if step, err = parseInt(rangeAndStep[1]); err != nil {
			return 0, err
		}
		// "N/step" means "N-max/step".
		if single {
			end = r.max
		}
		if step > 1 {
			extra = 0
		}
	default:
		return 0, fmt.Errorf("too many slashes: %s", expr)
	}
	if start < r.min {
		return 0, fmt.Errorf("beginning of range (%d) below minimum (%d): %s", start, r.min, expr)
	}
	if end > r.max {
		return 0, fmt.Errorf("end of range (%d) above maximum (%d): %s", end, r.max, expr)
	}
	if start > end {
		return 0, fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	}
	if step == 0 {
		return 0, fmt.Errorf("step of range should be a positive number: %s", expr)
	}
	var bits uint64
	for i := start; i <= end; i += step {
		bits |= 1 << i
	}
	return bits | extra, nil
}

func parseIntOrName(expr string, names map[string]uint) (uint, error) {
	if n, ok := names[strings.ToLower(expr)]; ok {
		return n, nil
	}
	return parseInt(expr)
}

func parseInt(expr string) (uint, error) {
	n, err := strconv.Atoi(expr)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s: %s", expr, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative number (%d) not allowed: %s", n, expr)
	}
	return uint(n), nil
}

func all(r bounds) uint64 {
	var bits uint64
	for i := r.min; i <= r.max; i++ {
		bits |= 1 << i
	}
	return bits | starBit
}

func parseDescriptor(d string, loc *time.Location) (Schedule, error) {
	switch d {
	case "@yearly", "@annually":
		return &SpecSchedule{Minute: 1, Hour: 1, Dom: 1 << 1, Month: 1 << 1, Dow: all(dows), Location: loc}, nil
	case "@monthly":
		return &SpecSchedule{Minute: 1, Hour: 1, Dom: 1 << 1, Month: all(months), Dow: all(dows), Location: loc}, nil
	case "@weekly":
		return &SpecSchedule{Minute: 1, Hour: 1, Dom: all(doms), Month: all(months), Dow: 1, Location: loc}, nil
	case "@daily", "@midnight":
		return &SpecSchedule{Minute: 1, Hour: 1, Dom: all(doms), Month: all(months), Dow: all(dows), Location: loc}, nil
	case "@hourly":
		return &SpecSchedule{Minute: 1, Hour: all(hours), Dom: all(doms), Month: all(months), Dow: all(dows), Location: loc}, nil
	}
	const every = "@every "
	if strings.HasPrefix(d, every) {
		dur, err := time.ParseDuration(d[len(every):])
		if err != nil {
			return nil, fmt.Errorf("failed to parse duration %s: %s", d, err)
		}
		if dur < time.Second {
			dur = time.Second
		}
		return ConstantDelaySchedule{Delay: dur - dur%time.Second}, nil
	}
	return nil, fmt.Errorf("unrecognized descriptor: %s", d)
}

// Next returns the first matching minute strictly after t, or the zero
// time if none exists within five years (e.g. "0 0 30 2 *").
func (s *SpecSchedule) Next(t time.Time) time.Time {
	orig := t.Location()
	loc := orig
	if s.Location != nil {
		loc = s.Location
		t = t.In(loc)
	}
	// Start at the next whole second; seconds always match 0 only.
	t = t.Add(time.Second - time.Duration(t.Nanosecond())*time.Nanosecond)
	added := false
	yearLimit := t.Year() + 5
wrap:
	if t.Year() > yearLimit {
		return time.Time{}
	}
	for 1<<uint(t.Month())&s.Month == 0 {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 1, 0)
		if t.Month() == time.January {
			goto wrap
		}
	}
	for !s.dayMatches(t) {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 0, 1)
		// Daylight saving can leave the day starting at 1am or 11pm.
		if t.Hour() != 0 {
			if t.Hour() > 12 {
				t = t.Add(time.Duration(24-t.Hour()) * time.Hour)
			} else {
				t = t.Add(time.Duration(-t.Hour()) * time.Hour)
			}
		}
		if t.Day() == 1 {
			goto wrap
		}
	}
	for 1<<uint(t.Hour())&s.Hour == 0 {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
		}
		t = t.Add(time.Hour)
		if t.Hour() == 0 {
			goto wrap
		}
	}
	for 1<<uint(t.Minute())&s.Minute == 0 {
		if !added {
			added = true
			t = t.Truncate(time.Minute)
		}
		t = t.Add(time.Minute)
		if t.Minute() == 0 {
			goto wrap
		}
	}
	for t.Second() != 0 {
		if !added {
			added = true
			t = t.Truncate(time.Second)
		}
		t = t.Add(time.Second)
		if t.Second() == 0 {
			goto wrap
		}
	}
	return t.In(orig)
}

func (s *SpecSchedule) dayMatches(t time.Time) bool {
	domMatch := 1<<uint(t.Day())&s.Dom > 0
	dowMatch := 1<<uint(t.Weekday())&s.Dow > 0
	if s.Dom&starBit > 0 || s.Dow&starBit > 0 {
		return domMatch && dowMatch
	}
	return domMatch || dowMatch
}
