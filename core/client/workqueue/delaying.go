package workqueue

import "time"

// AddAfter adds item once d has passed on the virtual clock; d <= 0 adds it at
// once. While a delay for item is pending, a later AddAfter only ever moves
// it earlier, as client-go's delaying queue does, so a burst of retries
// cannot push work further and further away. (An immediate add leaves any
// pending delay in place, also as client-go does.)
func (q *Queue[T]) AddAfter(item T, d time.Duration) {
	if q.shuttingDown {
		return
	}
	q.metrics.Retries++
	if d <= 0 {
		q.Add(item)
		return
	}
	readyAt := q.clk.Now().Add(d)
	if t, ok := q.waiting[item]; ok {
		if !readyAt.Before(t.When()) {
			return
		}
		q.clk.Stop(t)
	}
	q.waiting[item] = q.clk.At(readyAt, func() {
		delete(q.waiting, item)
		q.Add(item)
	})
}

// Delayed is the number of items with a pending AddAfter.
func (q *Queue[T]) Delayed() int { return len(q.waiting) }
