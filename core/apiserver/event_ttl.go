package apiserver

import (
	"time"

	"kubeplay/core/api"
)

// EventTTL is how long an Event outlives its last write: kube-apiserver's
// --event-ttl default, which etcd enforces with a lease renewed on every
// write. After that the event is gone from `kubectl get events` and
// describe's Events.
const EventTTL = time.Hour

// expireEvent renews an event's lease on every write and drops it when
// the event is deleted: one timer per live event, not one per write. key
// is the event's key in its store.
func (s *Server) expireEvent(res *Resource, ev WatchEvent, key objectName) {
	if res.Kind != "Event" {
		return
	}
	if ev.Type == Deleted {
		s.dropEventLease(key)
		return
	}
	s.armEventLease(res, key, ev.Object.GetObjectMeta(), s.clock.Now().Add(EventTTL))
}

func (s *Server) dropEventLease(key objectName) {
	if t := s.eventLeases[key]; t != nil {
		s.clock.Stop(t)
		delete(s.eventLeases, key)
	}
}

// armEventLease deletes the event at deadline, replacing the lease an
// earlier write armed. The timer holds the event's metadata, which the
// store holds anyway: a write or a delete replaces or stops the timer,
// so the metadata it holds is always the stored version's.
func (s *Server) armEventLease(res *Resource, key objectName, m *api.ObjectMeta, deadline time.Time) {
	s.dropEventLease(key)
	s.eventLeases[key] = s.clock.At(deadline, func() {
		delete(s.eventLeases, objectName{m.Namespace, m.Name})
		prev := s.Actor
		s.Actor = "kube-apiserver"
		_, _ = s.Delete(res, m.Namespace, m.Name, api.DeleteOptions{})
		s.Actor = prev
	})
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
