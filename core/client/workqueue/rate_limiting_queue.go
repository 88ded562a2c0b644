package workqueue

// AddRateLimited adds item after the delay its rate limiter asks for; this is
// how a controller requeues a key whose sync failed.
func (q *Queue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

// Forget tells the rate limiter that item succeeded, resetting its backoff.
// It does not take item out of the queue.
func (q *Queue[T]) Forget(item T) { q.limiter.Forget(item) }

// NumRequeues is how many times item has been rate-limited since its last Forget.
func (q *Queue[T]) NumRequeues(item T) int { return q.limiter.NumRequeues(item) }
