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

// expireEvent renews an event's lease on every write and drops it when
// the event is deleted. key is the event's key in its store.
func (s *Server) expireEvent(res *Resource, ev WatchEvent, key objectName) {
	if res.Kind != "Event" {
		return
	}
	if ev.Type == Deleted {
		s.dropEventLease(key)
		return
	}
	s.armEventLease(res, key, s.clock.Now().Add(EventTTL))
}

// eventLeases are the live events' deadlines, with one clock timer for
// the earliest, rather than a timer for each of thousands of events.
// Leases are written in order of their deadlines (every write renews to
// an hour from now), so due is a queue in that order; a renewed or
// dropped lease leaves its old entry behind, passed over when it comes
// due.
type eventLeases struct {
	res      *Resource            // events
	deadline map[objectName]int64 // Unix nanoseconds
	due      []eventLease
	head     int // due[head:] are pending
	timer    *clock.Timer
	// compactAt is how many pending entries make dropStaleLeases worth
	// its pass: twice what the last pass left, and at least 1,024.
	compactAt int
}

type eventLease struct {
	when int64 // Unix nanoseconds
	key  objectName
}

func (s *Server) dropEventLease(key objectName) {
	delete(s.leases.deadline, key)
}

// armEventLease deletes the event at deadline, replacing the lease an
// earlier write armed.
func (s *Server) armEventLease(res *Resource, key objectName, deadline time.Time) {
	q := &s.leases
	if q.deadline == nil {
		q.deadline, q.compactAt = map[objectName]int64{}, 1024
	}
	q.res = res
	when := deadline.UnixNano()
	if d, ok := q.deadline[key]; ok && d == when {
		return // written again in the same instant: the entry stands
	}
	q.deadline[key] = when
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
	q.due = slices.Insert(q.due, i, eventLease{when, key})
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
		if d, ok := q.deadline[e.key]; !ok || d != e.when {
			continue // renewed or deleted since
		}
		delete(q.deadline, e.key)
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

// dropStaleLeases forgets the entries of renewed and deleted leases, when
// they outnumber the live ones.
func (s *Server) dropStaleLeases() {
	q := &s.leases
	live := q.due[:0]
	for _, e := range q.due[q.head:] {
		if d, ok := q.deadline[e.key]; ok && d == e.when {
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
