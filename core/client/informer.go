package client

import (
	"maps"
	"slices"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

// Handler receives an informer's notifications. Handlers only note work
// (enqueue keys); they never write to the API.
type Handler struct {
	OnAdd    func(obj api.Object)
	OnUpdate func(old, new api.Object)
	OnDelete func(obj api.Object)
}

// IndexFunc appends the index values of an object ("node-1" for a pod's
// node) to into and returns the result. The informer hands in a buffer
// of its own, so that indexing the object of every event allocates
// nothing.
type IndexFunc func(obj api.Object, into []string) []string

// NamespaceIndex is present on every informer.
const NamespaceIndex = "namespace"

// Informer keeps a cache of one resource, fed by a watch, with indexes,
// and tells its handlers about changes.
type Informer struct {
	res      *apiserver.Resource
	items    map[string]api.Object
	indexers map[string]IndexFunc
	indices  map[string]map[string]*indexSet
	handlers []Handler
	stop     func()
	// order is every item's key in order: List and ByIndex hand out
	// objects in key order, and most calls come between updates that
	// change no key.
	order keyOrder
	// revision counts the events applied, so a reader can keep what it
	// worked out from the items until they change.
	revision uint64
	// before and after are the buffers IndexFunc fills.
	before, after []string
}

// indexSet is the keys of one index value, with their order once asked.
type indexSet struct {
	keys  map[string]struct{}
	order keyOrder
}

func newInformer(res *apiserver.Resource) *Informer {
	inf := &Informer{
		res:      res,
		items:    map[string]api.Object{},
		indexers: map[string]IndexFunc{},
		indices:  map[string]map[string]*indexSet{},
	}
	inf.AddIndexer(NamespaceIndex, func(o api.Object, into []string) []string { return append(into, o.GetObjectMeta().Namespace) })
	return inf
}

// Resource is the informer's resource.
func (inf *Informer) Resource() *apiserver.Resource { return inf.res }

// KeyOf is the cache key of an object: "namespace/name", or "name".
func KeyOf(obj api.Object) string {
	m := obj.GetObjectMeta()
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// SplitKey undoes KeyOf.
func SplitKey(key string) (namespace, name string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// AddIndexer adds a named index; existing items are indexed at once.
func (inf *Informer) AddIndexer(name string, fn IndexFunc) {
	if _, ok := inf.indexers[name]; ok {
		return
	}
	inf.indexers[name] = fn
	inf.indices[name] = map[string]*indexSet{}
	for k, o := range inf.items {
		inf.index(name, fn, k, o)
	}
}

// AddHandler registers h; it is told about the items already cached.
func (inf *Informer) AddHandler(h Handler) {
	inf.handlers = append(inf.handlers, h)
	if h.OnAdd != nil {
		for _, o := range inf.List("") {
			h.OnAdd(o)
		}
	}
}

// Get returns the cached object.
func (inf *Informer) Get(namespace, name string) (api.Object, bool) {
	key := name
	if namespace != "" {
		key = namespace + "/" + name
	}
	o, ok := inf.items[key]
	return o, ok
}

// GetByKey returns the cached object for a "namespace/name" key.
func (inf *Informer) GetByKey(key string) (api.Object, bool) {
	o, ok := inf.items[key]
	return o, ok
}

// List returns the cached objects of a namespace ("" for all), in key order.
func (inf *Informer) List(namespace string) []api.Object {
	if namespace != "" {
		return inf.ByIndex(NamespaceIndex, namespace)
	}
	return inf.objects(inf.order.keys(maps.Keys(inf.items)))
}

// ByIndex returns the cached objects whose index has value, in key order.
func (inf *Informer) ByIndex(index, value string) []api.Object {
	set := inf.indices[index][value]
	if set == nil {
		return []api.Object{}
	}
	return inf.objects(set.order.keys(maps.Keys(set.keys)))
}

// objects is the cached objects of keys, in their order.
func (inf *Informer) objects(keys []string) []api.Object {
	out := make([]api.Object, len(keys))
	for i, k := range keys {
		out[i] = inf.items[k]
	}
	return out
}

// Len is the number of cached objects.
func (inf *Informer) Len() int { return len(inf.items) }

func (inf *Informer) index(name string, fn IndexFunc, key string, o api.Object) {
	inf.after = fn(o, inf.after[:0])
	inf.addKeys(name, inf.after, key)
}

func (inf *Informer) addKeys(name string, values []string, key string) {
	for _, v := range values {
		set := inf.indices[name][v]
		if set == nil {
			set = &indexSet{keys: map[string]struct{}{}}
			inf.indices[name][v] = set
		}
		if _, ok := set.keys[key]; !ok {
			set.keys[key] = struct{}{}
			set.order.add(key)
		}
	}
}

func (inf *Informer) removeKeys(name string, values []string, key string) {
	for _, v := range values {
		if set := inf.indices[name][v]; set != nil {
			if _, ok := set.keys[key]; ok {
				delete(set.keys, key)
				set.order.invalidate()
			}
			if len(set.keys) == 0 {
				delete(inf.indices[name], v)
			}
		}
	}
}

func (inf *Informer) unindex(key string, o api.Object) {
	for name, fn := range inf.indexers {
		inf.before = fn(o, inf.before[:0])
		inf.removeKeys(name, inf.before, key)
	}
}

// reindex moves key from old's index values to o's, leaving alone the
// indexes whose values did not change (most updates change none).
func (inf *Informer) reindex(key string, old, o api.Object) {
	for name, fn := range inf.indexers {
		inf.before, inf.after = fn(old, inf.before[:0]), fn(o, inf.after[:0])
		if slices.Equal(inf.before, inf.after) {
			continue
		}
		inf.removeKeys(name, inf.before, key)
		inf.addKeys(name, inf.after, key)
	}
}

// Revision grows with every event the informer applies.
func (inf *Informer) Revision() uint64 { return inf.revision }

func (inf *Informer) handle(ev apiserver.WatchEvent) {
	inf.revision++
	key := ev.Key
	if key == "" {
		key = KeyOf(ev.Object)
	}
	old, had := inf.items[key]
	switch ev.Type {
	case apiserver.Deleted:
		if had {
			inf.unindex(key, old)
			inf.order.invalidate()
		}
		delete(inf.items, key)
		for _, h := range inf.handlers {
			if h.OnDelete != nil {
				h.OnDelete(ev.Object)
			}
		}
		return
	default:
		inf.items[key] = ev.Object
		if had {
			inf.reindex(key, old, ev.Object)
		} else {
			inf.order.add(key)
			for name, fn := range inf.indexers {
				inf.index(name, fn, key, ev.Object)
			}
		}
	}
	for _, h := range inf.handlers {
		if had && h.OnUpdate != nil {
			h.OnUpdate(old, ev.Object)
		} else if !had && h.OnAdd != nil {
			h.OnAdd(ev.Object)
		}
	}
}

// Factory shares one informer per resource among the components of a cluster.
type Factory struct {
	client    Interface
	informers map[*apiserver.Resource]*Informer
	order     []*Informer
}

// NewFactory returns a factory over c.
func NewFactory(c Interface) *Factory {
	return &Factory{client: c, informers: map[*apiserver.Resource]*Informer{}}
}

// For returns the shared informer of res, started on first use.
func (f *Factory) For(res *apiserver.Resource) *Informer {
	if inf, ok := f.informers[res]; ok {
		return inf
	}
	inf := newInformer(res)
	f.informers[res] = inf
	f.order = append(f.order, inf)
	stop, err := f.client.Watch(res, "", apiserver.ListOptions{}, inf.handle)
	if err != nil {
		panic("client: watch from the start cannot fail: " + err.Error())
	}
	inf.stop = stop
	return inf
}

// InformerFor returns the shared informer of Go type T.
func InformerFor[T api.Object](f *Factory) *Informer { return f.For(ResourceFor[T](f.client)) }

// Stop ends every informer's watch.
func (f *Factory) Stop() {
	for _, inf := range f.order {
		if inf.stop != nil {
			inf.stop()
		}
	}
}
