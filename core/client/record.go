package client

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

// Recorder records core/v1 Events about objects, as client-go's
// EventRecorder with its correlator does: an identical event bumps the
// count of the one already written; once ten events differing only in
// message arrive within ten minutes, they fold into one
// "(combined from similar events): …" event.
type Recorder struct {
	client    Interface
	component string
	host      string
	// seen maps an event's key to the name of the event last written for it.
	seen *lru[eventKey, string]
	// similar maps an aggregate key to the distinct messages seen under it.
	similar *lru[string, similarRecord]
	// events is the Event resource, looked up once.
	events *apiserver.Resource
	// named is the name this recorder gave its last new event: the events
	// a component records about one object at one virtual instant (a
	// kubelet's Pulled, Created and Started) start probing for a free
	// name after it rather than at the instant each time.
	named struct {
		namespace, object string
		n                 int64
	}
}

// eventKey is what identifies an event to the correlator's logger: its
// aggregate key and message, or the aggregate key alone once similar
// events are combined. Both strings share memory the caches and the
// stored event already hold instead of being one more concatenation.
type eventKey struct {
	aggregate string
	message   string
	combined  bool
}

// similarRecord is the correlator's aggregate record: the distinct
// messages seen under a key within aggregateMaxInterval of each other.
type similarRecord struct {
	// last is when the key was last seen, in virtual Unix nanoseconds.
	last int64
	// first and more are the distinct messages, at most aggregateMaxEvents
	// of them. Most keys only ever see one: more stays nil, one word in
	// every record rather than a slice's three.
	first string
	more  *[]string
}

func (r *similarRecord) distinct() int {
	if r.more == nil {
		return 1
	}
	return 1 + len(*r.more)
}

// observe counts message if it is new and there is room for it.
func (r *similarRecord) observe(message string) {
	if r.distinct() >= aggregateMaxEvents || message == r.first {
		return
	}
	if r.more == nil {
		r.more = &[]string{message}
	} else if !slices.Contains(*r.more, message) {
		*r.more = append(*r.more, message)
	}
}

const (
	aggregateMaxEvents   = 10
	aggregateMaxInterval = 10 * time.Minute
	// maxLruCacheEntries bounds each of the correlator's caches, as upstream's.
	maxLruCacheEntries = 4096
)

// NewRecorder returns a recorder writing as component (on host, for kubelets).
func NewRecorder(c Interface, component, host string) *Recorder {
	return &Recorder{client: c, component: component, host: host, seen: newLRU[eventKey, string](maxLruCacheEntries), similar: newLRU[string, similarRecord](maxLruCacheEntries)}
}

// Eventf records an event about obj.
func (r *Recorder) Eventf(obj api.Object, eventType, reason, format string, args ...any) {
	r.Event(obj, eventType, reason, fmt.Sprintf(format, args...))
}

// Event records an event about obj. Failures to write are dropped, as
// upstream drops them: events are best effort.
func (r *Recorder) Event(obj api.Object, eventType, reason, message string) {
	ref := ReferenceTo(obj)
	now := r.client.Now()
	// The recorder's component and host are the same in every key.
	aggregate := ref.Kind + "\x00" + ref.Namespace + "\x00" + ref.Name + "\x00" + ref.UID + "\x00" + ref.APIVersion + "\x00" + eventType + "\x00" + reason
	// Aggregation of similar events.
	aggregate, rec, known := r.similar.upsert(aggregate)
	// Past aggregateMaxEvents distinct messages every event is combined,
	// so the record need not grow (a controller's "Created pod: …" would
	// otherwise keep one message per pod and scan them all each time).
	if known && time.Duration(now.UnixNano()-rec.last) <= aggregateMaxInterval {
		rec.observe(message)
	} else {
		*rec = similarRecord{first: message}
	}
	rec.last = now.UnixNano()
	key := eventKey{aggregate: aggregate, message: message}
	if rec.distinct() >= aggregateMaxEvents {
		key = eventKey{aggregate: aggregate, combined: true}
		message = "(combined from similar events): " + message
	}
	ns := ref.Namespace
	if ns == "" {
		ns = "default"
	}
	res := r.eventResource()
	var name string
	var seen bool
	// Every key in seen came with its aggregate, so while the similar
	// cache has dropped nothing, a new aggregate has no key to look for.
	if known || r.similar.full() {
		name, seen = r.seen.get(key)
	}
	if seen {
		if cur, err := r.client.Get(res, ns, name); err == nil {
			ev := cur.(*api.Event).DeepCopy()
			ev.Count++
			ev.Message = message
			ev.LastTimestamp = api.NewTime(now)
			if out, err := r.client.Update(res, ev.Namespace, ev, apiserver.UpdateOptions{}); err == nil {
				r.seen.add(key, out.GetObjectMeta().Name)
				return
			}
		}
	}
	ev := &api.Event{
		ObjectMeta:          api.ObjectMeta{Name: r.eventName(ns, ref.Name, now), Namespace: ns},
		InvolvedObject:      ref,
		Reason:              reason,
		Message:             message,
		Source:              api.EventSource{Component: r.component, Host: r.host},
		FirstTimestamp:      api.NewTime(now),
		LastTimestamp:       api.NewTime(now),
		Count:               1,
		Type:                eventType,
		ReportingController: r.component,
		ReportingInstance:   r.host,
	}
	if out, err := r.client.Create(res, ns, ev, apiserver.CreateOptions{}); err == nil {
		r.seen.add(key, out.GetObjectMeta().Name)
	}
}

// eventName is upstream's "<object>.<hex nanoseconds>", nudged forward a
// nanosecond when two events of an object share a virtual instant.
func (r *Recorder) eventName(ns, object string, now time.Time) string {
	res := r.eventResource()
	taken := func(name string) bool {
		_, err := r.client.Get(res, ns, name)
		return err == nil
	}
	// The in-process client answers without building a NotFound error.
	if c, ok := r.client.(interface {
		Exists(res *apiserver.Resource, namespace, name string) bool
	}); ok {
		taken = func(name string) bool { return c.Exists(res, ns, name) }
	}
	n := now.UnixNano()
	if last := &r.named; last.n >= n && last.object == object && last.namespace == ns {
		n = last.n + 1 // at or before the last name given: taken then
	}
	var buf [64]byte // the suffix, built on the stack
	for {
		suffix := strconv.AppendInt(append(buf[:0], '.'), n, 16)
		name := object + string(suffix)
		if !taken(name) {
			r.named.namespace, r.named.object, r.named.n = ns, object, n
			return name
		}
		n++
	}
}

func (r *Recorder) eventResource() *apiserver.Resource {
	if r.events == nil {
		r.events = ResourceFor[*api.Event](r.client)
	}
	return r.events
}

// ReferenceTo is an ObjectReference to obj.
func ReferenceTo(obj api.Object) api.ObjectReference {
	m, t := obj.GetObjectMeta(), obj.GetTypeMeta()
	return api.ObjectReference{
		Kind: t.Kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID,
		APIVersion: t.APIVersion, ResourceVersion: m.ResourceVersion,
	}
}
