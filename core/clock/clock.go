// Package clock is the simulation's sense of time: a virtual clock that moves
// only when its driver advances it, and a heap of timers due at virtual times.
package clock

import (
	"container/heap"
	"time"
)

// Clock is a virtual clock. Nothing reads the wall clock: Now moves only by
// Step, and timers fire only from Fire, so the same inputs replay exactly.
type Clock struct {
	now    time.Time
	timers timerHeap
	seq    uint64
}

// New returns a clock that reads start.
func New(start time.Time) *Clock {
	return &Clock{now: start.UTC()}
}

// Now is the current virtual time.
func (c *Clock) Now() time.Time { return c.now }

// Since is Now minus t.
func (c *Clock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

// Timer is a pending callback; Stop cancels it.
type Timer struct {
	when  time.Time
	seq   uint64
	f     func()
	index int // position in the heap, -1 once fired or stopped
}

// When is the virtual time the timer fires at.
func (t *Timer) When() time.Time { return t.when }

// AfterFunc schedules f to run d from now (at once on the next Fire when d <= 0).
func (c *Clock) AfterFunc(d time.Duration, f func()) *Timer {
	if d < 0 {
		d = 0
	}
	return c.At(c.now.Add(d), f)
}

// At schedules f at virtual time t. Timers due at the same instant fire in
// the order they were scheduled.
func (c *Clock) At(t time.Time, f func()) *Timer {
	c.seq++
	tm := &Timer{when: t, seq: c.seq, f: f}
	heap.Push(&c.timers, tm)
	return tm
}

// Stop cancels the timer; it reports whether the timer was still pending.
func (c *Clock) Stop(t *Timer) bool {
	if t == nil || t.index < 0 {
		return false
	}
	heap.Remove(&c.timers, t.index)
	return true
}

// Next is the time of the earliest pending timer.
func (c *Clock) Next() (time.Time, bool) {
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return c.timers[0].when, true
}

// Pending is the number of timers not yet fired.
func (c *Clock) Pending() int { return len(c.timers) }

// Step moves the clock to t; it never moves backwards.
func (c *Clock) Step(t time.Time) {
	if t.After(c.now) {
		c.now = t
	}
}

// Fire runs every timer due at or before now, earliest first, and returns
// how many ran. Timers a callback schedules for now run in the same call.
func (c *Clock) Fire() int {
	n := 0
	for c.FireNext() {
		n++
	}
	return n
}

// FireNext runs the earliest timer due at or before now, if there is one:
// Fire one timer at a time, for a driver that pauses between them.
func (c *Clock) FireNext() bool {
	if len(c.timers) == 0 || c.timers[0].when.After(c.now) {
		return false
	}
	tm := heap.Pop(&c.timers).(*Timer)
	tm.f()
	return true
}

type timerHeap []*Timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}
