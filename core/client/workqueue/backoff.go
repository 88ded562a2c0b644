package workqueue

import (
	"time"

	"kubeplay/core/clock"
)

// Backoff is per-key exponential backoff on the virtual clock, after
// client-go's flowcontrol.Backoff: the kubelet keeps one for
// CrashLoopBackOff (10s doubling to 5m) and one for image pulls. Each Next
// doubles a key's window up to max; a key left alone for more than twice max
// starts again from initial. Jitter is not modelled (upstream's default is none).
type Backoff struct {
	clk             *clock.Clock
	defaultDuration time.Duration
	maxDuration     time.Duration
	perItemBackoff  map[string]*backoffEntry
}

type backoffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// NewBackOff returns a Backoff whose windows start at initial and stop growing at max.
func NewBackOff(initial, max time.Duration, clk *clock.Clock) *Backoff {
	if clk == nil {
		panic("workqueue: NewBackOff needs a clock")
	}
	return &Backoff{
		clk:             clk,
		defaultDuration: initial,
		maxDuration:     max,
		perItemBackoff:  map[string]*backoffEntry{},
	}
}

// Get is id's current backoff window, 0 if it has none.
func (p *Backoff) Get(id string) time.Duration {
	if e, ok := p.perItemBackoff[id]; ok {
		return e.backoff
	}
	return 0
}

// Next moves id's window on after a failure at eventTime: initial for a new
// or long-idle key, otherwise double the last window, capped at max.
func (p *Backoff) Next(id string, eventTime time.Time) {
	e, ok := p.perItemBackoff[id]
	if !ok || p.hasExpired(eventTime, e.lastUpdate) {
		e = &backoffEntry{backoff: p.defaultDuration}
		p.perItemBackoff[id] = e
	} else if e.backoff > p.maxDuration/2 {
		e.backoff = p.maxDuration // doubling would pass max (or overflow)
	} else {
		e.backoff *= 2
	}
	e.lastUpdate = p.clk.Now()
}

// Reset forgets id's backoff.
func (p *Backoff) Reset(id string) { delete(p.perItemBackoff, id) }

// DeleteEntry forgets id's backoff, as Reset.
func (p *Backoff) DeleteEntry(id string) { delete(p.perItemBackoff, id) }

// IsInBackOffSince reports whether less than id's window has passed between
// eventTime (say, when the container last exited) and now.
func (p *Backoff) IsInBackOffSince(id string, eventTime time.Time) bool {
	e, ok := p.perItemBackoff[id]
	if !ok || p.hasExpired(eventTime, e.lastUpdate) {
		return false
	}
	return p.clk.Since(eventTime) < e.backoff
}

// IsInBackOffSinceUpdate reports whether eventTime is still within id's
// window counted from its last Next.
func (p *Backoff) IsInBackOffSinceUpdate(id string, eventTime time.Time) bool {
	e, ok := p.perItemBackoff[id]
	if !ok || p.hasExpired(eventTime, e.lastUpdate) {
		return false
	}
	return eventTime.Sub(e.lastUpdate) < e.backoff
}

// GC drops keys not updated for more than twice max; their next Next would
// start from initial anyway.
func (p *Backoff) GC() {
	now := p.clk.Now()
	for id, e := range p.perItemBackoff {
		if now.Sub(e.lastUpdate) > 2*p.maxDuration {
			delete(p.perItemBackoff, id)
		}
	}
}

// hasExpired: a key quiet for more than twice max is considered healthy again.
func (p *Backoff) hasExpired(eventTime, lastUpdate time.Time) bool {
	return eventTime.Sub(lastUpdate) > 2*p.maxDuration
}
