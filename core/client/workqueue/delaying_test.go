package workqueue

import (
	"slices"
	"testing"
	"time"

	"kubeplay/core/clock"
)

// advance moves clk on by d and fires what is due, as the simulation loop does.
func advance(clk *clock.Clock, d time.Duration) {
	clk.Step(clk.Now().Add(d))
	clk.Fire()
}

// drain takes every waiting item, calling Done on each.
func drain(q *Queue[string]) []string {
	var out []string
	for {
		item, ok := q.Get()
		if !ok {
			return out
		}
		out = append(out, item)
		q.Done(item)
	}
}

func TestAddAfter(t *testing.T) {
	type delay struct {
		item string
		d    time.Duration
	}
	type check struct {
		at   time.Duration // since start
		want []string      // what became ready by then, in order
	}
	tests := []struct {
		name   string
		adds   []delay
		checks []check
	}{
		{
			name: "ready in time order, not call order",
			adds: []delay{{"c", 3 * time.Second}, {"a", time.Second}, {"b", 2 * time.Second}},
			checks: []check{
				{999 * time.Millisecond, nil},
				{time.Second, []string{"a"}},
				{3 * time.Second, []string{"b", "c"}},
			},
		},
		{
			name:   "same instant keeps call order",
			adds:   []delay{{"b", time.Second}, {"a", time.Second}},
			checks: []check{{time.Second, []string{"b", "a"}}},
		},
		{
			name:   "zero or negative delay adds at once",
			adds:   []delay{{"a", 0}, {"b", -time.Second}},
			checks: []check{{0, []string{"a", "b"}}},
		},
		{
			name: "a shorter delay moves the item earlier",
			adds: []delay{{"a", 5 * time.Second}, {"a", 2 * time.Second}},
			checks: []check{
				{2 * time.Second, []string{"a"}},
				{10 * time.Second, nil},
			},
		},
		{
			name: "a longer delay does not push the item back",
			adds: []delay{{"a", 2 * time.Second}, {"a", 5 * time.Second}},
			checks: []check{
				{2 * time.Second, []string{"a"}},
				{10 * time.Second, nil},
			},
		},
		{
			name: "an immediate add leaves a pending delay in place",
			adds: []delay{{"a", 5 * time.Second}, {"a", 0}},
			checks: []check{
				{0, []string{"a"}},
				{5 * time.Second, []string{"a"}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := clock.New(epoch)
			q := New[string]("test", clk, nil)
			for _, a := range tc.adds {
				q.AddAfter(a.item, a.d)
			}
			var at time.Duration
			for _, c := range tc.checks {
				advance(clk, c.at-at)
				at = c.at
				if got := drain(q); !slices.Equal(got, c.want) {
					t.Errorf("at +%v: ready %q, want %q", c.at, got, c.want)
				}
			}
			if q.Delayed() != 0 {
				t.Errorf("Delayed = %d after all checks, want 0", q.Delayed())
			}
			if got := q.Metrics().Retries; got != uint64(len(tc.adds)) {
				t.Errorf("Retries = %d, want %d", got, len(tc.adds))
			}
		})
	}
}

func TestAddAfterWhileProcessing(t *testing.T) {
	clk := clock.New(epoch)
	q := New[string]("test", clk, nil)
	q.Add("a")
	if _, ok := q.Get(); !ok {
		t.Fatal("Get found nothing")
	}
	q.AddAfter("a", time.Second)
	advance(clk, time.Second)
	if item, ok := q.Get(); ok {
		t.Fatalf("Get = %q while a is processing, want nothing", item)
	}
	q.Done("a")
	if got := drain(q); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after Done: ready %q, want [a]", got)
	}
}

func TestAddAfterOnReadyAndShutDown(t *testing.T) {
	clk := clock.New(epoch)
	q := New[string]("test", clk, nil)
	n := 0
	q.SetOnReady(func() { n++ })
	q.AddAfter("a", time.Second)
	q.AddAfter("b", 2*time.Second)
	if n != 0 {
		t.Fatalf("onReady ran %d times before any delay passed", n)
	}
	advance(clk, time.Second)
	if n != 1 {
		t.Fatalf("onReady ran %d times after a's delay, want 1", n)
	}
	q.ShutDown()
	if clk.Pending() != 0 || q.Delayed() != 0 {
		t.Fatalf("ShutDown left %d timers, %d delayed items", clk.Pending(), q.Delayed())
	}
	q.AddAfter("c", time.Second)
	advance(clk, 5*time.Second)
	if got := drain(q); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after ShutDown: ready %q, want only [a]", got)
	}
}
