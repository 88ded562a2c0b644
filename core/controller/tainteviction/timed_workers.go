package tainteviction

import (
	"time"

	"kubeplay/core/clock"
)

// TimedWorker is one pod's scheduled deletion.
type TimedWorker struct {
	Key       string // "namespace/name"
	CreatedAt time.Time
	FireAt    time.Time
	timer     *clock.Timer
	// fired is set once the deletion is under way or done: the entry then
	// only keeps the pod from being scheduled again.
	fired bool
}

// TimedWorkerQueue holds the scheduled deletions by pod key. When one is
// due it hands the key to fire (which queues the work for the worker: a
// timer never writes to the API itself).
type TimedWorkerQueue struct {
	clock   *clock.Clock
	workers map[string]*TimedWorker
	fire    func(key string)
}

// NewTimedWorkerQueue returns an empty queue on clk that calls fire for
// each deletion when it is due.
func NewTimedWorkerQueue(clk *clock.Clock, fire func(key string)) *TimedWorkerQueue {
	return &TimedWorkerQueue{clock: clk, workers: map[string]*TimedWorker{}, fire: fire}
}

// AddWork schedules key at fireAt, unless it is scheduled already. As
// upstream, the delay is fireAt-createdAt counted from now.
func (q *TimedWorkerQueue) AddWork(key string, createdAt, fireAt time.Time) {
	if _, ok := q.workers[key]; ok {
		return
	}
	w := &TimedWorker{Key: key, CreatedAt: createdAt, FireAt: fireAt}
	q.workers[key] = w
	delay := fireAt.Sub(createdAt)
	if delay <= 0 {
		w.fired = true
		q.fire(key)
		return
	}
	w.timer = q.clock.AfterFunc(delay, func() {
		w.timer = nil
		w.fired = true
		q.fire(key)
	})
}

// CancelWork forgets key and reports whether a deletion was still waiting.
func (q *TimedWorkerQueue) CancelWork(key string) bool {
	w, ok := q.workers[key]
	if !ok {
		return false
	}
	delete(q.workers, key)
	if w.fired {
		return false
	}
	if w.timer != nil {
		q.clock.Stop(w.timer)
	}
	return true
}

// GetWorker returns the waiting deletion of key, or nil.
func (q *TimedWorkerQueue) GetWorker(key string) *TimedWorker {
	if w := q.workers[key]; w != nil && !w.fired {
		return w
	}
	return nil
}

// done records how a fired deletion went: success keeps the key so the pod
// is not scheduled again; failure forgets it so a later update may.
func (q *TimedWorkerQueue) done(key string, err error) {
	if err != nil {
		delete(q.workers, key)
	}
}

// isFired says whether key's deletion is due and not cancelled since.
func (q *TimedWorkerQueue) isFired(key string) bool {
	w, ok := q.workers[key]
	return ok && w.fired
}
