package kubelet

import (
	"strings"
	"time"
)

// backoff is the kubelet's per-container restart back-off (and the image
// pull back-off): it starts at initial, doubles per failure up to max, and
// forgets a key that stayed quiet for twice max.
type backoff struct {
	initial, max time.Duration
	entries      map[string]*backoffEntry
}

type backoffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

func newBackoff(initial, max time.Duration) *backoff {
	return &backoff{initial: initial, max: max, entries: map[string]*backoffEntry{}}
}

func (b *backoff) expired(e *backoffEntry, eventTime time.Time) bool {
	return eventTime.Sub(e.lastUpdate) > 2*b.max
}

// inBackOffSince reports whether, for a failure at eventTime, it is still
// too early at now to try again.
func (b *backoff) inBackOffSince(key string, eventTime, now time.Time) bool {
	e, ok := b.entries[key]
	if !ok || b.expired(e, eventTime) {
		return false
	}
	return now.Sub(eventTime) < e.backoff
}

// remaining is how long until inBackOffSince turns false.
func (b *backoff) remaining(key string, eventTime, now time.Time) time.Duration {
	e, ok := b.entries[key]
	if !ok {
		return 0
	}
	return e.backoff - now.Sub(eventTime)
}

// next records a retry after a failure at eventTime.
func (b *backoff) next(key string, eventTime, now time.Time) {
	e, ok := b.entries[key]
	if !ok || b.expired(e, eventTime) {
		e = &backoffEntry{backoff: b.initial}
		b.entries[key] = e
	} else {
		e.backoff *= 2
		if e.backoff > b.max {
			e.backoff = b.max
		}
	}
	e.lastUpdate = now
}

// get is the current back-off of key (0 when none).
func (b *backoff) get(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.backoff
	}
	return 0
}

func (b *backoff) forgetPrefix(prefix string) {
	for k := range b.entries {
		if strings.HasPrefix(k, prefix) {
			delete(b.entries, k)
		}
	}
}
