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

// expireEvent arms an event's lease after a write.
func (s *Server) expireEvent(res *Resource, ev WatchEvent) {
	if res.Kind != "Event" || ev.Type == Deleted {
		return
	}
	s.armEventLease(res, ev.Object.GetObjectMeta(), s.clock.Now().Add(EventTTL))
}

// armEventLease deletes the event at deadline unless a later write has
// come by then (that write armed its own lease).
func (s *Server) armEventLease(res *Resource, m *api.ObjectMeta, deadline time.Time) {
	ns, name, rv := m.Namespace, m.Name, m.ResourceVersion
	s.clock.At(deadline, func() {
		cur, err := s.Get(res, ns, name)
		if err != nil || cur.GetObjectMeta().ResourceVersion != rv {
			return
		}
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
