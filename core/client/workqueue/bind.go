package workqueue

import "kubeplay/core/clock"

// clockBinder is implemented by limiters that read the clock (the token
// bucket and the combinators that may hold one), so that
// DefaultControllerRateLimiter needs no clock argument: New binds the queue's.
type clockBinder interface {
	bindClock(c *clock.Clock)
}
