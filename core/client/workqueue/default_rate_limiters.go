package workqueue

import (
	"math"
	"time"

	"kubeplay/core/clock"
)

// RateLimiter decides how long an item waits before it is retried.
type RateLimiter[T comparable] interface {
	// When returns how long item should wait; calling it counts a failure.
	When(item T) time.Duration
	// Forget clears item's failure history.
	Forget(item T)
	// NumRequeues is how many failures item has had since its last Forget.
	NumRequeues(item T) int
}

// DefaultControllerRateLimiter is client-go's default for controllers: the
// larger of a per-item exponential backoff (5ms doubling to 1000s) and an
// overall token bucket (10 qps, burst 100). The bucket takes the clock of the
// queue it is given to.
func DefaultControllerRateLimiter[T comparable]() RateLimiter[T] {
	return NewMaxOfRateLimiter[T](
		NewItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		NewBucketRateLimiter[T](nil, 10, 100),
	)
}

// ItemExponentialFailureRateLimiter waits base*2^failures for an item, capped at max.
type ItemExponentialFailureRateLimiter[T comparable] struct {
	failures  map[T]int
	baseDelay time.Duration
	maxDelay  time.Duration
}

// NewItemExponentialFailureRateLimiter returns a limiter whose delays run
// base, 2*base, 4*base, … up to max.
func NewItemExponentialFailureRateLimiter[T comparable](base, max time.Duration) *ItemExponentialFailureRateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{failures: map[T]int{}, baseDelay: base, maxDelay: max}
}

// When counts a failure and returns base*2^(earlier failures), capped.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	exp := r.failures[item]
	r.failures[item] = exp + 1
	// Computed in float so large exponents saturate instead of overflowing.
	backoff := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(exp))
	if backoff > math.MaxInt64 {
		return r.maxDelay
	}
	if d := time.Duration(backoff); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}

// NumRequeues is item's failure count.
func (r *ItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int { return r.failures[item] }

// Forget resets item's failure count.
func (r *ItemExponentialFailureRateLimiter[T]) Forget(item T) { delete(r.failures, item) }

// ItemFastSlowRateLimiter retries quickly a few times, then slowly.
type ItemFastSlowRateLimiter[T comparable] struct {
	failures        map[T]int
	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// NewItemFastSlowRateLimiter returns a limiter that waits fast for the first
// maxFastAttempts failures of an item and slow after.
func NewItemFastSlowRateLimiter[T comparable](fast, slow time.Duration, maxFastAttempts int) *ItemFastSlowRateLimiter[T] {
	return &ItemFastSlowRateLimiter[T]{failures: map[T]int{}, fastDelay: fast, slowDelay: slow, maxFastAttempts: maxFastAttempts}
}

// When counts a failure and returns the fast or slow delay.
func (r *ItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	r.failures[item]++
	if r.failures[item] <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

// NumRequeues is item's failure count.
func (r *ItemFastSlowRateLimiter[T]) NumRequeues(item T) int { return r.failures[item] }

// Forget resets item's failure count.
func (r *ItemFastSlowRateLimiter[T]) Forget(item T) { delete(r.failures, item) }

// MaxOfRateLimiter asks every limiter and waits for the longest answer.
type MaxOfRateLimiter[T comparable] struct {
	limiters []RateLimiter[T]
}

// NewMaxOfRateLimiter combines limiters; each one sees every call.
func NewMaxOfRateLimiter[T comparable](limiters ...RateLimiter[T]) *MaxOfRateLimiter[T] {
	return &MaxOfRateLimiter[T]{limiters: limiters}
}

// When returns the longest delay; every limiter counts the failure.
func (r *MaxOfRateLimiter[T]) When(item T) time.Duration {
	var ret time.Duration
	for _, l := range r.limiters {
		if d := l.When(item); d > ret {
			ret = d
		}
	}
	return ret
}

// NumRequeues is the largest count any limiter reports.
func (r *MaxOfRateLimiter[T]) NumRequeues(item T) int {
	ret := 0
	for _, l := range r.limiters {
		if n := l.NumRequeues(item); n > ret {
			ret = n
		}
	}
	return ret
}

// Forget tells every limiter to forget item.
func (r *MaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

func (r *MaxOfRateLimiter[T]) bindClock(c *clock.Clock) {
	for _, l := range r.limiters {
		if b, ok := l.(clockBinder); ok {
			b.bindClock(c)
		}
	}
}

// WithMaxWaitRateLimiter caps another limiter's delays at maxDelay.
type WithMaxWaitRateLimiter[T comparable] struct {
	limiter  RateLimiter[T]
	maxDelay time.Duration
}

// NewWithMaxWaitRateLimiter wraps limiter so no delay exceeds maxDelay.
func NewWithMaxWaitRateLimiter[T comparable](limiter RateLimiter[T], maxDelay time.Duration) *WithMaxWaitRateLimiter[T] {
	return &WithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When returns the wrapped limiter's delay, capped.
func (r *WithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	if d := r.limiter.When(item); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}

// NumRequeues is the wrapped limiter's count.
func (r *WithMaxWaitRateLimiter[T]) NumRequeues(item T) int { return r.limiter.NumRequeues(item) }

// Forget forwards to the wrapped limiter.
func (r *WithMaxWaitRateLimiter[T]) Forget(item T) { r.limiter.Forget(item) }

func (r *WithMaxWaitRateLimiter[T]) bindClock(c *clock.Clock) {
	if b, ok := r.limiter.(clockBinder); ok {
		b.bindClock(c)
	}
}
