package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/printers"
)

// eventQuery is the field selector describe sends for an object's events:
// involvedObject name and namespace always, kind and uid when set.
type eventQuery struct {
	name, namespace, kind, uid string
}

// eventsFor lists the events about an object; nil when --show-events=false
// (then describe prints no Events section at all).
func (d *describer) eventsFor(q eventQuery) []*api.Event {
	if !d.showEvents {
		return nil
	}
	return d.searchEvents(q)
}

// searchEvents finds events whose involvedObject matches q. Events live in
// the object's namespace; cluster-scoped objects' events are looked up in
// every namespace (the recorder files them under "default").
func (d *describer) searchEvents(q eventQuery) []*api.Event {
	out := client.List[*api.Event](d.c, q.namespace, func(o api.Object) bool {
		ref := o.(*api.Event).InvolvedObject
		return ref.Name == q.name && ref.Namespace == q.namespace &&
			(q.kind == "" || ref.Kind == q.kind) && (q.uid == "" || ref.UID == q.uid)
	})
	if out == nil {
		out = []*api.Event{}
	}
	return out
}

// objectEvents is searchEvents for an object by its own reference.
func (d *describer) objectEvents(kind string, m *api.ObjectMeta) []*api.Event {
	return d.eventsFor(eventQuery{name: m.Name, namespace: m.Namespace, kind: kind, uid: m.UID})
}

// byLastTimestamp is kubectl's SortableEvents. Upstream sorts with
// sort.Sort (not stable), so ties keep whatever order that leaves: using
// the same algorithm on the API's name-ordered list gives the same rows.
type byLastTimestamp []*api.Event

func (l byLastTimestamp) Len() int      { return len(l) }
func (l byLastTimestamp) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l byLastTimestamp) Less(i, j int) bool {
	return l[i].LastTimestamp.Time.Before(l[j].LastTimestamp.Time)
}

// writeEvents is the Events table. Age is "2m" for a single event and
// "5s (x3 over 2m)" for a repeated one; From is the source component, or
// the reporting controller for events.k8s.io events.
func (d *describer) writeEvents(w *describeWriter, events []*api.Event) {
	if events == nil {
		return
	}
	if len(events) == 0 {
		w.write(0, "Events:\t<none>\n")
		return
	}
	evs := append([]*api.Event(nil), events...)
	sort.Sort(byLastTimestamp(evs))
	w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.write(1, "----\t------\t----\t----\t-------\n")
	for _, e := range evs {
		first := d.since(e.EventTime.Time)
		if e.EventTime.IsZero() {
			first = d.since(e.FirstTimestamp.Time)
		}
		age := first
		switch {
		case e.Series != nil:
			age = fmt.Sprintf("%s (x%d over %s)", d.since(e.Series.LastObservedTime.Time), e.Series.Count, first)
		case e.Count > 1:
			age = fmt.Sprintf("%s (x%d over %s)", d.since(e.LastTimestamp.Time), e.Count, first)
		}
		from := e.Source.Component
		if from == "" {
			from = e.ReportingController
		}
		w.write(1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, age, from, strings.TrimSpace(e.Message))
	}
}

// since is translateTimestampSince at virtual now: "<unknown>" for unset.
func (d *describer) since(t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return printers.HumanDuration(d.now.Sub(t))
}
