package workqueue

import (
	"slices"
	"testing"
	"time"

	"kubeplay/core/clock"
)

// crashLoop is the kubelet's CrashLoopBackOff: 10s doubling to 5m.
func crashLoop(clk *clock.Clock) *Backoff { return NewBackOff(10*time.Second, 300*time.Second, clk) }

func TestBackoffSequence(t *testing.T) {
	clk := clock.New(epoch)
	b := crashLoop(clk)
	if d := b.Get("pod_c"); d != 0 {
		t.Fatalf("unknown key: Get = %v, want 0", d)
	}
	// Each restart happens once the previous window has passed.
	var got []time.Duration
	for range 8 {
		b.Next("pod_c", clk.Now())
		got = append(got, b.Get("pod_c"))
		advance(clk, b.Get("pod_c"))
	}
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second,
		160 * time.Second, 300 * time.Second, 300 * time.Second, 300 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("windows = %v, want %v", got, want)
	}
	b.Reset("pod_c")
	if d := b.Get("pod_c"); d != 0 {
		t.Fatalf("after Reset: Get = %v, want 0", d)
	}
	b.Next("pod_c", clk.Now())
	if d := b.Get("pod_c"); d != 10*time.Second {
		t.Fatalf("first window after Reset = %v, want 10s", d)
	}
}

func TestBackoffResetsAfterIdle(t *testing.T) {
	tests := []struct {
		idle time.Duration
		want time.Duration
	}{
		{600 * time.Second, 40 * time.Second},                 // exactly twice max: still backing off
		{600*time.Second + time.Nanosecond, 10 * time.Second}, // longer: starts over
	}
	for _, tc := range tests {
		clk := clock.New(epoch)
		b := crashLoop(clk)
		b.Next("k", clk.Now())
		b.Next("k", clk.Now()) // 20s
		advance(clk, tc.idle)
		b.Next("k", clk.Now())
		if d := b.Get("k"); d != tc.want {
			t.Errorf("after %v idle: window %v, want %v", tc.idle, d, tc.want)
		}
	}
}

func TestBackoffIsInBackOffSince(t *testing.T) {
	clk := clock.New(epoch)
	b := crashLoop(clk)
	exited := clk.Now()
	if b.IsInBackOffSince("k", exited) {
		t.Fatal("unknown key is in backoff")
	}
	b.Next("k", exited) // 10s window
	tests := []struct {
		after time.Duration
		want  bool
	}{
		{0, true},
		{9 * time.Second, true},
		{10 * time.Second, false},
		{11 * time.Second, false},
	}
	at := time.Duration(0)
	for _, tc := range tests {
		advance(clk, tc.after-at)
		at = tc.after
		if got := b.IsInBackOffSince("k", exited); got != tc.want {
			t.Errorf("%v after exit: IsInBackOffSince = %v, want %v", tc.after, got, tc.want)
		}
	}
	if !b.IsInBackOffSinceUpdate("k", epoch.Add(9*time.Second)) || b.IsInBackOffSinceUpdate("k", epoch.Add(10*time.Second)) {
		t.Error("IsInBackOffSinceUpdate should count the window from the last Next")
	}
}

func TestBackoffGC(t *testing.T) {
	clk := clock.New(epoch)
	b := crashLoop(clk)
	b.Next("old", clk.Now())
	advance(clk, 400*time.Second)
	b.Next("new", clk.Now())
	advance(clk, 201*time.Second)
	b.GC()
	if b.Get("old") != 0 || b.Get("new") != 10*time.Second {
		t.Fatalf("GC kept old=%v new=%v, want only new", b.Get("old"), b.Get("new"))
	}
}
