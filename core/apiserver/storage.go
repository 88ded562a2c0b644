package apiserver

import (
	"sort"
	"strconv"

	"kubeplay/core/api"
)

// Watch event types, as the API sends them.
const (
	Added    = "ADDED"
	Modified = "MODIFIED"
	Deleted  = "DELETED"
)

// WatchEvent is one change to one object. Object is shared: do not modify it.
type WatchEvent struct {
	Type   string
	Object api.Object
	// Old is the object before a MODIFIED or DELETED event, for informers
	// that hand both to their handlers.
	Old api.Object
	// Key is the object's "namespace/name" ("name" when cluster-scoped),
	// worked out once for every watcher of a write; empty in the events a
	// watch opens with.
	Key string
	rv  uint64
}

// historySize bounds the events kept per resource for resuming a watch from
// an older resourceVersion; older starts get 410 Gone, as from etcd compaction.
const historySize = 2048

// store holds one resource's objects. Watchers are called synchronously, in
// the order they started, after each write: the simulation needs no locks
// and replays identically.
type store struct {
	res      *Resource
	objects  map[objectName]api.Object
	history  []WatchEvent // ring buffer of the last historySize events
	head     int          // index of the oldest event in history
	watchers []*watcher
	// oldestRV is the resourceVersion before the oldest event still in history.
	oldestRV uint64
}

type watcher struct {
	namespace string
	filter    func(api.Object) bool
	fn        func(WatchEvent)
	stopped   bool
}

func newStore(res *Resource) *store {
	return &store{res: res, objects: map[objectName]api.Object{}}
}

// objectName keys the store: its strings are the object's own, where a
// "namespace/name" key would be one more string per object.
type objectName struct{ namespace, name string }

func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func (s *store) get(namespace, name string) (api.Object, bool) {
	o, ok := s.objects[objectName{namespace, name}]
	return o, ok
}

// list returns the objects of a namespace ("" for all) sorted by namespace and name.
func (s *store) list(namespace string, filter func(api.Object) bool) []api.Object {
	out := make([]api.Object, 0, len(s.objects))
	for _, o := range s.objects {
		m := o.GetObjectMeta()
		if namespace != "" && m.Namespace != namespace {
			continue
		}
		if filter != nil && !filter(o) {
			continue
		}
		out = append(out, o)
	}
	sortObjects(out)
	return out
}

func sortObjects(objs []api.Object) {
	sort.Slice(objs, func(i, j int) bool {
		a, b := objs[i].GetObjectMeta(), objs[j].GetObjectMeta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
}

// record stores the event in history and tells the watchers.
func (s *store) record(ev WatchEvent) {
	if len(s.history) < historySize {
		s.history = append(s.history, ev)
	} else {
		s.oldestRV = s.history[s.head].rv
		s.history[s.head] = ev
		s.head = (s.head + 1) % historySize
	}
	s.notify(ev)
}

func (s *store) notify(ev WatchEvent) {
	live := s.watchers[:0]
	for _, w := range s.watchers {
		if !w.stopped {
			live = append(live, w)
		}
	}
	for i := len(live); i < len(s.watchers); i++ {
		s.watchers[i] = nil
	}
	s.watchers = live
	if len(live) > 0 && ev.Key == "" {
		m := ev.Object.GetObjectMeta()
		ev.Key = objectKey(m.Namespace, m.Name)
	}
	// Watchers added by a callback see only later events.
	for _, w := range live[:len(live):len(live)] {
		if !w.stopped {
			w.deliver(ev)
		}
	}
}

func (w *watcher) deliver(ev WatchEvent) {
	m := ev.Object.GetObjectMeta()
	if w.namespace != "" && m.Namespace != w.namespace {
		return
	}
	if w.filter != nil {
		now := w.filter(ev.Object)
		was := ev.Old != nil && w.filter(ev.Old)
		switch {
		case ev.Type == Modified && now && !was:
			ev.Type = Added // entered the selection
		case ev.Type == Modified && !now && was:
			ev.Type = Deleted // left the selection
		case !now && !(ev.Type == Deleted && was):
			return
		}
	}
	w.fn(ev)
}

// since returns the events after resourceVersion rv, or false when rv is
// older than the history kept.
func (s *store) since(rv uint64) ([]WatchEvent, bool) {
	if rv < s.oldestRV {
		return nil, false
	}
	n := len(s.history)
	var out []WatchEvent
	for i := 0; i < n; i++ {
		ev := s.history[(s.head+i)%n]
		if ev.rv > rv {
			out = append(out, ev)
		}
	}
	return out, true
}

func formatRV(rv uint64) string { return strconv.FormatUint(rv, 10) }

func parseRV(s string) (uint64, bool) {
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}
