package workqueue

import (
	"math"
	"time"

	"kubeplay/core/clock"
)

// InfDuration is the delay a token bucket returns for a request it can never
// grant (a zero rate with the burst spent, or a zero burst); it matches
// golang.org/x/time/rate.InfDuration.
const InfDuration = time.Duration(math.MaxInt64)

// BucketRateLimiter is one token bucket shared by all items, computing delays
// exactly as golang.org/x/time/rate's Reserve().Delay() does, but on the
// virtual clock: it holds up to burst tokens, refills qps tokens a second, and
// each When takes a token, going into debt (and so into the future) when the
// bucket is empty. It keeps no per-item state.
type BucketRateLimiter[T comparable] struct {
	clk    *clock.Clock
	limit  float64 // tokens per second; +Inf means never wait, <= 0 means never refill
	burst  int
	tokens float64
	last   time.Time // when tokens was last brought up to date
	used   bool      // last is meaningful
}

// NewBucketRateLimiter returns a full bucket of burst tokens refilled at qps
// per second on clk. clk may be nil when the limiter is handed to New, which
// binds it to the queue's clock; an unbound bucket sees time stand still.
func NewBucketRateLimiter[T comparable](clk *clock.Clock, qps float64, burst int) *BucketRateLimiter[T] {
	return &BucketRateLimiter[T]{clk: clk, limit: qps, burst: burst, tokens: float64(burst)}
}

// When takes a token and returns how long until it was due.
func (r *BucketRateLimiter[T]) When(T) time.Duration {
	var now time.Time
	if r.clk != nil {
		now = r.clk.Now()
	}
	return r.reserve(now)
}

// NumRequeues is always 0: the bucket does not track items.
func (r *BucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget does nothing: the bucket does not track items.
func (r *BucketRateLimiter[T]) Forget(T) {}

func (r *BucketRateLimiter[T]) bindClock(c *clock.Clock) {
	if r.clk == nil {
		r.clk = c
	}
}

// reserve takes one token at now and returns the wait, following x/time/rate.
func (r *BucketRateLimiter[T]) reserve(now time.Time) time.Duration {
	switch {
	case math.IsInf(r.limit, 1):
		return 0
	case r.limit <= 0:
		// No refill: what is left of the burst is all there will ever be.
		if r.burst >= 1 {
			r.burst--
			return 0
		}
		return InfDuration
	}
	if r.burst < 1 {
		// A token more than the bucket holds is refused and changes nothing.
		return InfDuration
	}
	tokens := r.advance(now) - 1
	r.tokens, r.last, r.used = tokens, now, true
	if tokens >= 0 {
		return 0
	}
	wait := -tokens / r.limit * float64(time.Second)
	if wait > math.MaxInt64 {
		return InfDuration
	}
	return time.Duration(wait)
}

// advance is the token count at now: what was left plus the refill since,
// never more than burst.
func (r *BucketRateLimiter[T]) advance(now time.Time) float64 {
	if !r.used {
		return r.tokens
	}
	last := r.last
	if now.Before(last) {
		last = now
	}
	tokens := r.tokens + now.Sub(last).Seconds()*r.limit
	if b := float64(r.burst); tokens > b {
		tokens = b
	}
	return tokens
}
