package nodelifecycle

import (
	"sort"
	"time"
)

// Timing of the NoExecute tainting loop, as upstream's scheduler package sets it.
const (
	// NodeEvictionPeriod is how often upstream retries the tainting pass.
	NodeEvictionPeriod = 100 * time.Millisecond
	// EvictionRateLimiterBurst is the burst of every zone's limiter.
	EvictionRateLimiterBurst = 1
	// NodeHealthUpdateRetry bounds the attempts to write one node's health.
	NodeHealthUpdateRetry = 5
)

// TimedValue is a node waiting in a zone's tainting queue.
type TimedValue struct {
	Value     string // the node's name
	UID       string
	AddedAt   time.Time
	ProcessAt time.Time
}

// tokenBucket is client-go's token bucket limiter on the virtual clock:
// burst tokens, refilled qps a second, TryAccept takes one if there is one.
// A qps of 0 is the "never" limiter that refuses everything.
type tokenBucket struct {
	qps    float64
	burst  float64
	tokens float64
	last   time.Time
}

func newTokenBucket(qps float64, burst int, now time.Time) *tokenBucket {
	return &tokenBucket{qps: qps, burst: float64(burst), tokens: float64(burst), last: now}
}

func (b *tokenBucket) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens += now.Sub(b.last).Seconds() * b.qps
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
		b.last = now
	}
}

// TryAccept takes a token at now if one is there.
func (b *tokenBucket) TryAccept(now time.Time) bool {
	if b.qps <= 0 {
		return false
	}
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// nextToken is when the next token will be there; ok is false for a
// limiter that never grants one.
func (b *tokenBucket) nextToken(now time.Time) (time.Time, bool) {
	if b.qps <= 0 {
		return time.Time{}, false
	}
	b.refill(now)
	if b.tokens >= 1 {
		return now, true
	}
	wait := time.Duration((1 - b.tokens) / b.qps * float64(time.Second))
	// Round up so that the token is really there when we come back.
	return now.Add(wait + time.Nanosecond), true
}

// RateLimitedTimedQueue is upstream's per-zone queue of nodes to taint: each
// node at most once until removed, ordered by when it is due, and drained
// no faster than the zone's limiter allows.
type RateLimitedTimedQueue struct {
	items []TimedValue // sorted by ProcessAt, then by when added
	// set holds every node added and not removed, including those already
	// processed, so a processed node is not queued again until Remove.
	set     map[string]bool
	limiter *tokenBucket
}

// NewRateLimitedTimedQueue returns an empty queue limited to qps.
func NewRateLimitedTimedQueue(qps float64, now time.Time) *RateLimitedTimedQueue {
	return &RateLimitedTimedQueue{set: map[string]bool{}, limiter: newTokenBucket(qps, EvictionRateLimiterBurst, now)}
}

// Add queues a node to be processed now, unless it was added and not yet
// removed; it reports whether it was added.
func (q *RateLimitedTimedQueue) Add(value, uid string, now time.Time) bool {
	if q.set[value] {
		return false
	}
	q.set[value] = true
	q.push(TimedValue{Value: value, UID: uid, AddedAt: now, ProcessAt: now})
	return true
}

func (q *RateLimitedTimedQueue) push(v TimedValue) {
	i := sort.Search(len(q.items), func(i int) bool { return q.items[i].ProcessAt.After(v.ProcessAt) })
	q.items = append(q.items, TimedValue{})
	copy(q.items[i+1:], q.items[i:])
	q.items[i] = v
}

func (q *RateLimitedTimedQueue) removeFromQueue(value string) bool {
	for i := range q.items {
		if q.items[i].Value == value {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return true
		}
	}
	return false
}

// Remove forgets a node, so that it may be added again; it reports whether
// the node was known.
func (q *RateLimitedTimedQueue) Remove(value string) bool {
	if !q.set[value] {
		return false
	}
	delete(q.set, value)
	q.removeFromQueue(value)
	return true
}

// Len is the number of nodes waiting.
func (q *RateLimitedTimedQueue) Len() int { return len(q.items) }

// Waiting lists the nodes waiting, in order.
func (q *RateLimitedTimedQueue) Waiting() []TimedValue { return append([]TimedValue(nil), q.items...) }

// Try processes the due nodes while the limiter grants tokens. fn returns
// true when a node is done, or false and a wait before it is retried. As
// upstream, a token is taken before looking at whether the head is due.
func (q *RateLimitedTimedQueue) Try(now time.Time, fn func(TimedValue) (bool, time.Duration)) {
	for len(q.items) > 0 {
		if !q.limiter.TryAccept(now) {
			return
		}
		head := q.items[0]
		if now.Before(head.ProcessAt) {
			return
		}
		if ok, wait := fn(head); ok {
			q.removeFromQueue(head.Value)
		} else {
			q.removeFromQueue(head.Value)
			head.ProcessAt = now.Add(wait + 1)
			q.push(head)
		}
	}
}

// nextTry is when a Try could next do something; ok is false when nothing
// is waiting or the limiter never grants a token.
func (q *RateLimitedTimedQueue) nextTry(now time.Time) (time.Time, bool) {
	if len(q.items) == 0 {
		return time.Time{}, false
	}
	at, ok := q.limiter.nextToken(now)
	if !ok {
		return time.Time{}, false
	}
	if head := q.items[0].ProcessAt; head.After(at) {
		at = head
	}
	return at, true
}

// QPS is the limiter's current rate.
func (q *RateLimitedTimedQueue) QPS() float64 { return q.limiter.qps }

// SwapLimiter changes the rate. A new bucket starts full, unless the old one
// is empty at the moment, in which case the new one starts empty too.
func (q *RateLimitedTimedQueue) SwapLimiter(qps float64, now time.Time) {
	if q.limiter.qps == qps {
		return
	}
	next := newTokenBucket(qps, EvictionRateLimiterBurst, now)
	if qps > 0 && !q.limiter.TryAccept(now) {
		next.TryAccept(now)
	}
	q.limiter = next
}
