package apiserver

import (
	"slices"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/clock"
)

// EventTTL is how long an Event outlives its last write: kube-apiserver's
// --event-ttl default, which etcd enforces with a lease renewed on every
// write. After that the event is gone from `kubectl get events` and
// describe's Events.
const EventTTL = time.Hour

// expireEvent renews an event's lease on every write; a deleted event's
// lease is left to lapse. key is the event's key in its store.
func (s *Server) expireEvent(res *Resource, ev WatchEvent, key objectName) {
	if res.Kind != "Event" || ev.Type == Deleted {
		return
	}
	s.armEventLease(res, key, ev.rv, s.clock.Now().Add(EventTTL))
}

// eventLeases are the live events' deadlines, with one clock timer for
// the earliest, rather than a timer for each of thousands of events.
// Leases are written in order of their deadlines (every write renews to
// an hour from now), so due is a queue in that order. An entry holds for
// the version of the event that armed it: a later write or a delete
// leaves it behind, passed over when it comes due, so a write costs an
// append and no lookup.
type eventLeases struct {
	res   *Resource // events
	due   []eventLease
	head  int // due[head:] are pending
	timer *clock.Timer
	// compactAt is how many pending entries make dropStaleLeases worth
	// its pass: twice what the last pass left, and at least 1,024.
	compactAt int
}

type eventLease struct {
	when int64 // Unix nanoseconds
	rv   uint64
	key  objectName
}

// current reports whether e was armed by the event as it is stored now.
func (s *Server) current(e eventLease) bool {
	o, ok := s.storeFor(s.leases.res).get(e.key.namespace, e.key.name)
	if !ok {
		return false
	}
	rv, _ := parseRV(o.GetObjectMeta().ResourceVersion)
	return rv == e.rv
}

// armEventLease deletes the event at deadline unless it is written again
// (or deleted) first; rv is the version of the event this lease is for.
func (s *Server) armEventLease(res *Resource, key objectName, rv uint64, deadline time.Time) {
	q := &s.leases
	if q.compactAt == 0 {
		q.compactAt = 1024
	}
	q.res = res
	when := deadline.UnixNano()
	// After every pending entry due no later (a restored event may come
	// due before others), so that equal deadlines expire in write order.
	i := len(q.due)
	for i > q.head && q.due[i-1].when > when {
		i--
	}
	if len(q.due) == cap(q.due) {
		// Doubled, not append's quarter: tens of thousands of events
		// would have it copied over and over.
		q.due = slices.Grow(q.due, max(len(q.due), 256))
	}
	q.due = slices.Insert(q.due, i, eventLease{when, rv, key})
	if i == q.head {
		s.armEventTimer()
	}
	if len(q.due)-q.head > q.compactAt {
		s.dropStaleLeases()
	}
}

// armEventTimer sets the timer for the earliest pending entry.
func (s *Server) armEventTimer() {
	q := &s.leases
	if q.timer != nil {
		if q.head < len(q.due) && q.timer.When().UnixNano() == q.due[q.head].when {
			return
		}
		s.clock.Stop(q.timer)
		q.timer = nil
	}
	if q.head < len(q.due) {
		q.timer = s.clock.At(time.Unix(0, q.due[q.head].when).UTC(), s.expireEvents)
	}
}

// expireEvents deletes the events whose leases are due, as the
// kube-apiserver would find them gone from etcd.
func (s *Server) expireEvents() {
	q := &s.leases
	q.timer = nil
	now := s.clock.Now().UnixNano()
	for q.head < len(q.due) && q.due[q.head].when <= now {
		e := q.due[q.head]
		q.due[q.head] = eventLease{}
		q.head++
		if !s.current(e) {
			continue // written again or deleted since
		}
		prev := s.Actor
		s.Actor = "kube-apiserver"
		_, _ = s.Delete(q.res, e.key.namespace, e.key.name, api.DeleteOptions{})
		s.Actor = prev
	}
	if q.head > 1024 && 2*q.head > len(q.due) {
		q.due = append(q.due[:0], q.due[q.head:]...)
		q.head = 0
	}
	s.armEventTimer()
}

// dropStaleLeases forgets the entries of rewritten and deleted events,
// when they outnumber the live ones.
func (s *Server) dropStaleLeases() {
	q := &s.leases
	live := q.due[:0]
	for _, e := range q.due[q.head:] {
		if s.current(e) {
			live = append(live, e)
		}
	}
	clear(q.due[len(live):])
	q.due, q.head = live, 0
	q.compactAt = 2*len(live) + 1024
}

// lastEventWrite is when a restored event was last written, as far as
// the event itself tells: its last timestamp, event time or creation.
func lastEventWrite(o api.Object) time.Time {
	t := o.GetObjectMeta().CreationTimestamp.Time
	if e, ok := o.(*api.Event); ok {
		for _, c := range []time.Time{e.EventTime.Time, e.LastTimestamp.Time} {
			if c.After(t) {
				t = c
			}
		}
	}
	return t
}
