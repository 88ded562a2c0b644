package printers

import (
	"testing"
	"time"

	"kubeplay/core/api"
)

func TestHumanDuration(t *testing.T) {
	const day = 24 * time.Hour
	const year = 365 * day
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-3 * time.Second, "<invalid>"},
		{-2 * time.Second, "<invalid>"},
		{-1500 * time.Millisecond, "0s"}, // within the clock-skew tolerance
		{-time.Second, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{5 * time.Second, "5s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{2*time.Minute + 30*time.Second, "2m30s"},
		{4*time.Minute + 10*time.Second, "4m10s"},
		{9*time.Minute + 59*time.Second, "9m59s"},
		{10 * time.Minute, "10m"},
		{10*time.Minute + 30*time.Second, "10m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 5*time.Minute, "3h5m"},
		{7*time.Hour + 59*time.Minute, "7h59m"},
		{8*time.Hour + 30*time.Minute, "8h"},
		{47 * time.Hour, "47h"},
		{2 * day, "2d"},
		{2*day + 5*time.Hour, "2d5h"},
		{7*day + 23*time.Hour, "7d23h"},
		{8 * day, "8d"},
		{15*day + 5*time.Hour, "15d"},
		{2*year - day, "729d"},
		{2 * year, "2y"},
		{3*year + 45*day, "3y45d"},
		{8 * year, "8y"},
		{10*year + 100*day, "10y"},
	} {
		if got := HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestShortHumanDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-5 * time.Second, "<invalid>"},
		{-time.Second, "0s"},
		{59 * time.Second, "59s"},
		{90 * time.Second, "1m"},
		{59 * time.Minute, "59m"},
		{23 * time.Hour, "23h"},
		{50 * time.Hour, "2d"},
		{400 * 24 * time.Hour, "1y"},
	} {
		if got := ShortHumanDuration(tc.d); got != tc.want {
			t.Errorf("ShortHumanDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestAge(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    api.Time
		want string
	}{
		{"unset", api.Time{}, "<unknown>"},
		{"past", ago(90 * time.Second), "90s"},
		{"just now", ago(0), "0s"},
		{"a second ahead", ago(-time.Second), "0s"},
		{"the future", ago(-time.Minute), "<invalid>"},
	} {
		if got := Age(tc.t, now); got != tc.want {
			t.Errorf("%s: Age = %q, want %q", tc.name, got, tc.want)
		}
	}
}
