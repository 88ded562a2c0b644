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
// the event is deleted: one timer per live event, not one per write.
func (s *Server) expireEvent(res *Resource, ev WatchEvent) {
	if res.Kind != "Event" {
		return
	}
	m := ev.Object.GetObjectMeta()
	if ev.Type == Deleted {
		s.dropEventLease(res, m)
		return
	}
	s.armEventLease(res, m, s.clock.Now().Add(EventTTL))
}

func eventLeaseKey(res *Resource, m *api.ObjectMeta) string {
	return res.Group + "/" + objectKey(m.Namespace, m.Name)
}

func (s *Server) dropEventLease(res *Resource, m *api.ObjectMeta) {
	key := eventLeaseKey(res, m)
	if t := s.eventLeases[key]; t != nil {
		s.clock.Stop(t)
		delete(s.eventLeases, key)
	}
}

// armEventLease deletes the event at deadline, replacing the lease an
// earlier write armed.
func (s *Server) armEventLease(res *Resource, m *api.ObjectMeta, deadline time.Time) {
	s.dropEventLease(res, m)
	key, ns, name := eventLeaseKey(res, m), m.Namespace, m.Name
	s.eventLeases[key] = s.clock.At(deadline, func() {
		delete(s.eventLeases, key)
		prev := s.Actor
		s.Actor = "kube-apiserver"
		_, _ = s.Delete(res, ns, name, api.DeleteOptions{})
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
