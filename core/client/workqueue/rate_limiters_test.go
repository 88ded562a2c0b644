package workqueue

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kubeplay/core/clock"
)

const ms = time.Millisecond

// whens calls l.When(item) n times.
func whens(l RateLimiter[string], item string, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = l.When(item)
	}
	return out
}

func TestItemRateLimiters(t *testing.T) {
	tests := []struct {
		name    string
		limiter RateLimiter[string]
		want    []time.Duration
	}{
		{"exponential doubles from base",
			NewItemExponentialFailureRateLimiter[string](5*ms, time.Second),
			[]time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, time.Second, time.Second}},
		{"exponential default reaches 1000s at the 19th failure",
			NewItemExponentialFailureRateLimiter[string](5*ms, 1000*time.Second),
			[]time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, 1280 * ms,
				2560 * ms, 5120 * ms, 10240 * ms, 20480 * ms, 40960 * ms, 81920 * ms, 163840 * ms, 327680 * ms,
				655360 * ms, 1000 * time.Second, 1000 * time.Second}},
		{"exponential never overflows",
			NewItemExponentialFailureRateLimiter[string](time.Hour, 2*time.Hour),
			[]time.Duration{time.Hour, 2 * time.Hour, 2 * time.Hour}},
		{"fast then slow",
			NewItemFastSlowRateLimiter[string](5*ms, 10*time.Second, 3),
			[]time.Duration{5 * ms, 5 * ms, 5 * ms, 10 * time.Second, 10 * time.Second}},
		{"max-of takes the longest",
			NewMaxOfRateLimiter[string](
				NewItemFastSlowRateLimiter[string](50*ms, time.Second, 2),
				NewItemExponentialFailureRateLimiter[string](10*ms, time.Minute)),
			// The exponential overtakes the slow delay at the eighth failure.
			[]time.Duration{50 * ms, 50 * ms, time.Second, time.Second, time.Second, time.Second, time.Second, 1280 * ms}},
		{"max wait caps the wrapped limiter",
			NewWithMaxWaitRateLimiter[string](NewItemExponentialFailureRateLimiter[string](ms, time.Hour), 4*ms),
			[]time.Duration{ms, 2 * ms, 4 * ms, 4 * ms}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := whens(tc.limiter, "ns/a", len(tc.want)); !slices.Equal(got, tc.want) {
				t.Errorf("delays = %v, want %v", got, tc.want)
			}
			if n := tc.limiter.NumRequeues("ns/a"); n != len(tc.want) {
				t.Errorf("NumRequeues = %d, want %d", n, len(tc.want))
			}
			if n := tc.limiter.NumRequeues("ns/b"); n != 0 {
				t.Errorf("another item has NumRequeues %d, want 0", n)
			}
			tc.limiter.Forget("ns/a")
			if n := tc.limiter.NumRequeues("ns/a"); n != 0 {
				t.Errorf("NumRequeues after Forget = %d, want 0", n)
			}
			if d := tc.limiter.When("ns/a"); d != tc.want[0] {
				t.Errorf("first delay after Forget = %v, want %v", d, tc.want[0])
			}
		})
	}
}

func TestBucketRateLimiter(t *testing.T) {
	clk := clock.New(epoch)
	b := NewBucketRateLimiter[string](clk, 10, 100)
	// The bucket starts full: the burst goes through without waiting.
	for i := range 100 {
		if d := b.When("x"); d != 0 {
			t.Fatalf("call %d within the burst waited %v", i+1, d)
		}
	}
	// Then each call is a further tenth of a second in debt.
	if got, want := whens(b, "x", 3), []time.Duration{100 * ms, 200 * ms, 300 * ms}; !slices.Equal(got, want) {
		t.Fatalf("after the burst: %v, want %v", got, want)
	}
	// One second refills ten tokens, paying off the debt of three and leaving seven.
	advance(clk, time.Second)
	got := whens(b, "x", 9)
	want := []time.Duration{0, 0, 0, 0, 0, 0, 0, 100 * ms, 200 * ms}
	if !slices.Equal(got, want) {
		t.Fatalf("after 1s: %v, want %v", got, want)
	}
	// A long idle refills only up to the burst.
	advance(clk, time.Hour)
	for i := range 100 {
		if d := b.When("x"); d != 0 {
			t.Fatalf("call %d after idling waited %v", i+1, d)
		}
	}
	if d := b.When("x"); d != 100*ms {
		t.Fatalf("call 101 after idling waited %v, want 100ms", d)
	}
	if b.NumRequeues("x") != 0 {
		t.Fatalf("bucket tracks no items, NumRequeues = %d", b.NumRequeues("x"))
	}
}

func TestBucketRateLimiterEdges(t *testing.T) {
	inf := time.Duration(1<<63 - 1)
	tests := []struct {
		name  string
		qps   float64
		burst int
		want  []time.Duration
	}{
		{"fractional rate", 0.5, 1, []time.Duration{0, 2 * time.Second, 4 * time.Second}},
		{"zero rate spends the burst then refuses", 0, 2, []time.Duration{0, 0, inf, inf}},
		{"zero burst refuses", 10, 0, []time.Duration{inf, inf}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBucketRateLimiter[string](clock.New(epoch), tc.qps, tc.burst)
			if got := whens(b, "x", len(tc.want)); !slices.Equal(got, tc.want) {
				t.Errorf("delays = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	clk := clock.New(epoch)
	q := New[string]("test", clk, DefaultControllerRateLimiter[string]())
	// One key failing: the per-item exponential backoff rules.
	var got []time.Duration
	for range 4 {
		start := clk.Now()
		q.AddRateLimited("ns/a")
		next, _ := clk.Next()
		got = append(got, next.Sub(start))
		advance(clk, next.Sub(start))
		drain(q)
	}
	if want := []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms}; !slices.Equal(got, want) {
		t.Fatalf("one key's requeue delays = %v, want %v", got, want)
	}
	if n := q.NumRequeues("ns/a"); n != 4 {
		t.Fatalf("NumRequeues = %d, want 4", n)
	}
	q.Forget("ns/a")
	if n := q.NumRequeues("ns/a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}

	// Many keys failing once each: the shared 10 qps bucket rules once its
	// burst of 100 is spent.
	l := DefaultControllerRateLimiter[string]()
	New[string]("bind", clk, l) // binds the bucket to clk
	var tail []time.Duration
	for i := range 103 {
		d := l.When(fmt.Sprintf("ns/%d", i))
		if i < 100 && d != 5*ms {
			t.Fatalf("key %d: %v, want 5ms", i, d)
		}
		if i >= 100 {
			tail = append(tail, d)
		}
	}
	if want := []time.Duration{100 * ms, 200 * ms, 300 * ms}; !slices.Equal(tail, want) {
		t.Fatalf("past the burst: %v, want %v", tail, want)
	}
	// New bound the bucket to the queue's clock, so a second refills it.
	advance(clk, time.Second)
	if d := l.When("ns/fresh"); d != 5*ms {
		t.Fatalf("a second later: %v, want 5ms", d)
	}
}
