// Package workqueue holds client-go style work queues for controllers that run
// inside the simulation: a FIFO with dirty and processing sets, delayed adds on
// the virtual clock, and per-item rate limiting. Nothing blocks and no
// goroutine runs: the simulation loop calls Get until it reports no work, and
// SetOnReady tells the loop when a queue gains some.
package workqueue

import (
	"kubeplay/core/clock"
)

// Queue is a work queue with client-go's semantics. An item is in at most one
// of three states at a time from the worker's view: waiting in the FIFO,
// being processed (between Get and Done), or delayed (an AddAfter timer is
// pending). Adding an item that is already waiting does nothing; adding one
// that is being processed marks it dirty so Done puts it back, which keeps one
// worker per key while never losing a change.
type Queue[T comparable] struct {
	name    string
	clk     *clock.Clock
	limiter RateLimiter[T]

	// queue is the FIFO of waiting items; each is in dirty and not in processing.
	queue []T
	// dirty holds every item that needs processing, waiting or not.
	dirty map[T]struct{}
	// processing holds items handed out by Get and not yet Done.
	processing map[T]struct{}
	// waiting holds the pending AddAfter timer of each delayed item.
	waiting map[T]*clock.Timer

	shuttingDown bool
	onReady      func()
	metrics      Metrics
}

// Metrics are cheap running counts for the trace view.
type Metrics struct {
	// Adds counts items newly marked as needing processing.
	Adds uint64
	// Gets counts items handed to a worker.
	Gets uint64
	// Retries counts delayed and rate-limited adds.
	Retries uint64
}

// New returns an empty queue named name (the controller's name, for traces),
// whose delays run on clk. A nil limiter means DefaultControllerRateLimiter.
// Token buckets in limiter that were built without a clock are bound to clk.
func New[T comparable](name string, clk *clock.Clock, limiter RateLimiter[T]) *Queue[T] {
	if clk == nil {
		panic("workqueue: New needs a clock")
	}
	if limiter == nil {
		limiter = DefaultControllerRateLimiter[T]()
	}
	if b, ok := limiter.(clockBinder); ok {
		b.bindClock(clk)
	}
	return &Queue[T]{
		name:       name,
		clk:        clk,
		limiter:    limiter,
		dirty:      map[T]struct{}{},
		processing: map[T]struct{}{},
		waiting:    map[T]*clock.Timer{},
	}
}

// Name is the name the queue was created with.
func (q *Queue[T]) Name() string { return q.name }

// SetOnReady registers f to run whenever an item joins the FIFO (from Add,
// from Done re-adding a dirty item, or from a delay expiring), so the
// simulation loop knows to call Get. f may call back into the queue.
func (q *Queue[T]) SetOnReady(f func()) { q.onReady = f }

// Add marks item as needing processing.
func (q *Queue[T]) Add(item T) {
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.metrics.Adds++
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		// Done re-queues it; handing it out now would give two workers one key.
		return
	}
	q.push(item)
}

// Get hands out the oldest waiting item; ok is false when none is waiting.
// The caller must call Done(item) once it has finished with it. After
// ShutDown, Get still hands out what was already waiting.
func (q *Queue[T]) Get() (item T, ok bool) {
	if len(q.queue) == 0 {
		return item, false
	}
	item = q.queue[0]
	var zero T
	q.queue[0] = zero
	q.queue = q.queue[1:]
	if len(q.queue) == 0 {
		q.queue = nil // let the backing array go
	}
	q.metrics.Gets++
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	return item, true
}

// Done marks item as processed; if it was added again meanwhile, it goes back
// to the end of the FIFO.
func (q *Queue[T]) Done(item T) {
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok {
		q.push(item)
	}
}

// Len is the number of items waiting in the FIFO (not delayed, not processing).
func (q *Queue[T]) Len() int { return len(q.queue) }

// Processing is the number of items handed out and not yet Done.
func (q *Queue[T]) Processing() int { return len(q.processing) }

// ShutDown makes the queue ignore new adds and drops pending delays. Items
// already waiting can still be taken with Get.
func (q *Queue[T]) ShutDown() {
	if q.shuttingDown {
		return
	}
	q.shuttingDown = true
	for item, t := range q.waiting {
		q.clk.Stop(t)
		delete(q.waiting, item)
	}
}

// ShuttingDown reports whether ShutDown was called.
func (q *Queue[T]) ShuttingDown() bool { return q.shuttingDown }

// Metrics returns the running counts.
func (q *Queue[T]) Metrics() Metrics { return q.metrics }

func (q *Queue[T]) push(item T) {
	q.queue = append(q.queue, item)
	if q.onReady != nil {
		q.onReady()
	}
}
