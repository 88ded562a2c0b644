package apiserver

import (
	"fmt"
	"reflect"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/defaults"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/field"
	"kubeplay/core/clock"
)

// Server is the API server: every component reads and writes the cluster
// only through it. It is not safe for concurrent use; drivers serialise calls.
type Server struct {
	// Pods reaches containers for pods/log; nil: logs are unavailable.
	Pods PodConnector
	// Metrics answers metrics.k8s.io; nil: the Metrics API is not available.
	Metrics  MetricsProvider
	Registry *Registry
	clock    *clock.Clock
	rand     *clock.Rand
	stores   map[GroupResource]*store
	rv       uint64
	ips      *serviceIPs
	// Observers see every committed write, after the watchers: the trace
	// view and the playground's cluster picture hang off this.
	observers []func(res *Resource, ev WatchEvent)
	// tokenSource is every pod's service account token projection.
	tokenSource *api.ProjectedVolumeSource
	// leases are the live events' expiry (event_ttl.go).
	leases eventLeases
	// Actor names who is writing now ("deployment-controller"), for the trace.
	Actor string
}

// New returns an empty API server on the given clock and random source.
func New(clk *clock.Clock, rnd *clock.Rand) *Server {
	s := &Server{Registry: NewRegistry(), clock: clk, rand: rnd, stores: map[GroupResource]*store{}}
	for _, res := range s.Registry.All() {
		s.stores[res.GroupResource()] = newStore(res)
	}
	s.ips = newServiceIPs(rnd)
	return s
}

// Clock is the server's clock; components share it.
func (s *Server) Clock() *clock.Clock { return s.clock }

// Rand is the server's random source.
func (s *Server) Rand() *clock.Rand { return s.rand }

// ResourceVersion is the latest committed resourceVersion.
func (s *Server) ResourceVersion() string { return formatRV(s.rv) }

// Observe registers fn to see every committed write.
func (s *Server) Observe(fn func(res *Resource, ev WatchEvent)) {
	s.observers = append(s.observers, fn)
}

func (s *Server) storeFor(res *Resource) *store { return s.stores[res.GroupResource()] }

// CreateOptions tune a create.
type CreateOptions struct {
	DryRun bool
}

// UpdateOptions tune an update.
type UpdateOptions struct {
	DryRun bool
	// Subresource is "", "status", or "finalize" for namespaces.
	Subresource string
}

// ListOptions select what a list or watch returns.
type ListOptions struct {
	// Filter keeps the objects a label or field selector matches; nil keeps all.
	Filter func(api.Object) bool
	// ResourceVersion starts a watch after this version; "" or "0" starts
	// with the current objects as ADDED events.
	ResourceVersion string
}

func (s *Server) commit(res *Resource, ev WatchEvent) {
	s.rv++
	ev.rv = s.rv
	ev.Object.GetObjectMeta().ResourceVersion = formatRV(s.rv)
	st := s.storeFor(res)
	m := ev.Object.GetObjectMeta()
	key := objectName{m.Namespace, m.Name}
	if ev.Type == Deleted {
		delete(st.objects, key)
	} else {
		st.objects[key] = ev.Object
	}
	st.record(ev)
	s.expireEvent(res, ev, key)
	for _, fn := range s.observers {
		fn(res, ev)
	}
}

func (s *Server) now() api.Time { return api.NewTime(s.clock.Now()) }

// Get returns the stored object; callers must not modify it.
func (s *Server) Get(res *Resource, namespace, name string) (api.Object, error) {
	if !res.Namespaced {
		namespace = ""
	}
	if res.Computed {
		for _, o := range s.computed(res, namespace) {
			if o.GetObjectMeta().Name == name {
				return o, nil
			}
		}
		return nil, apierrors.NewNotFound(gr(res), name)
	}
	o, ok := s.storeFor(res).get(namespace, name)
	if !ok {
		return nil, apierrors.NewNotFound(gr(res), name)
	}
	return o, nil
}

// Exists reports whether Get would find the object, without building the
// NotFound error it returns otherwise (the event recorder probes a name
// this way for every event it creates).
func (s *Server) Exists(res *Resource, namespace, name string) bool {
	if res.Computed {
		_, err := s.Get(res, namespace, name)
		return err == nil
	}
	if !res.Namespaced {
		namespace = ""
	}
	_, ok := s.storeFor(res).get(namespace, name)
	return ok
}

// List returns the objects of a namespace ("" for all namespaces), sorted
// by namespace and name, and the resourceVersion they were read at.
func (s *Server) List(res *Resource, namespace string, opts ListOptions) ([]api.Object, string) {
	if !res.Namespaced {
		namespace = ""
	}
	if res.Computed {
		var out []api.Object
		for _, o := range s.computed(res, namespace) {
			if opts.Filter == nil || opts.Filter(o) {
				out = append(out, o)
			}
		}
		return out, formatRV(s.rv)
	}
	return s.storeFor(res).list(namespace, opts.Filter), formatRV(s.rv)
}

// MetricsProvider computes metrics.k8s.io objects: what the simulation's
// kubelets measure, as metrics-server gathers it.
type MetricsProvider interface {
	PodMetrics(namespace string) []*api.PodMetrics
	NodeMetrics() []*api.NodeMetrics
}

func (s *Server) computed(res *Resource, namespace string) []api.Object {
	if s.Metrics == nil {
		return nil
	}
	var out []api.Object
	switch res.Kind {
	case "PodMetrics":
		for _, m := range s.Metrics.PodMetrics(namespace) {
			m.TypeMeta = api.TypeMeta{APIVersion: res.APIVersion(), Kind: res.Kind}
			out = append(out, m)
		}
	case "NodeMetrics":
		for _, m := range s.Metrics.NodeMetrics() {
			m.TypeMeta = api.TypeMeta{APIVersion: res.APIVersion(), Kind: res.Kind}
			out = append(out, m)
		}
	}
	return out
}

// Create stores a new object. The object becomes the server's: the caller
// must not modify it afterwards.
func (s *Server) Create(res *Resource, namespace string, obj api.Object, opts CreateOptions) (api.Object, error) {
	m := obj.GetObjectMeta()
	if err := s.setNamespace(res, namespace, obj); err != nil {
		return nil, err
	}
	*obj.GetTypeMeta() = api.TypeMeta{APIVersion: res.APIVersion(), Kind: res.Kind}
	if m.Name == "" && m.GenerateName != "" {
		m.Name = s.generateName(res, m.Namespace, m.GenerateName)
	}
	if err := s.admitCreate(res, obj); err != nil {
		return nil, err
	}
	if errs := validateCreate(res, obj); len(errs) > 0 {
		return nil, apierrors.NewInvalid(gk(res), m.Name, errs)
	}
	if v1, ok := obj.(*api.HorizontalPodAutoscalerV1); ok {
		// One stored version, as etcd holds one: an autoscaling/v1 write is
		// kept as v2 (with v2's defaults) and converted back for v1 reads.
		v2, err := hpaStorageVersion(v1)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		obj, m = v2, &v2.ObjectMeta
	}
	if _, exists := s.storeFor(res).get(m.Namespace, m.Name); exists {
		return nil, apierrors.NewAlreadyExists(gr(res), m.Name)
	}
	m.UID = s.newUID()
	m.CreationTimestamp = s.now()
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.ResourceVersion = ""
	m.Generation = 0
	if res.Generation {
		m.Generation = 1
	}
	prepareForCreate(res, obj)
	if opts.DryRun {
		return obj, nil
	}
	s.commit(res, WatchEvent{Type: Added, Object: obj})
	return obj, nil
}

func (s *Server) setNamespace(res *Resource, namespace string, obj api.Object) error {
	m := obj.GetObjectMeta()
	if !res.Namespaced {
		m.Namespace = ""
		return nil
	}
	switch {
	case m.Namespace == "":
		m.Namespace = namespace
	case namespace != "" && m.Namespace != namespace:
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if m.Namespace == "" {
		m.Namespace = "default"
	}
	return nil
}

// generateName picks a free name; upstream returns a conflict on a clash
// and lets the client retry, which a seeded source would repeat identically.
func (s *Server) generateName(res *Resource, namespace, base string) string {
	for {
		name := s.rand.GenerateName(base)
		if _, taken := s.storeFor(res).get(namespace, name); !taken {
			return name
		}
	}
}

func (s *Server) newUID() string {
	a, b := s.rand.Uint64(), s.rand.Uint64()
	// Version 4, variant 10, like the UUIDs the real apiserver hands out.
	a = a&^0xf000 | 0x4000
	b = b&^(0xc<<60) | 0x8<<60
	return formatUID(a, b)
}

// formatUID prints a and b as 8-4-4-4-12 hex digits, without fmt: every
// object created takes one.
func formatUID(a, b uint64) string {
	const hex = "0123456789abcdef"
	var u [36]byte
	i := 0
	for n := 0; n < 32; n++ {
		if n == 8 || n == 12 || n == 16 || n == 20 {
			u[i] = '-'
			i++
		}
		w, shift := a, 60-4*n
		if n >= 16 {
			w, shift = b, 60-4*(n-16)
		}
		u[i] = hex[(w>>shift)&0xf]
		i++
	}
	return string(u[:])
}

// Update replaces a stored object (or its status when opts.Subresource is
// "status"). A resourceVersion in obj must match the stored one.
func (s *Server) Update(res *Resource, namespace string, obj api.Object, opts UpdateOptions) (api.Object, error) {
	if v1, ok := obj.(*api.HorizontalPodAutoscalerV1); ok {
		v2, err := hpaStorageVersion(v1)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		obj = v2
	}
	m := obj.GetObjectMeta()
	if !res.Namespaced {
		namespace = ""
	} else if m.Namespace == "" {
		m.Namespace = namespace
	}
	old, ok := s.storeFor(res).get(m.Namespace, m.Name)
	if !ok {
		return nil, apierrors.NewNotFound(gr(res), m.Name)
	}
	om := old.GetObjectMeta()
	if m.ResourceVersion != "" && m.ResourceVersion != om.ResourceVersion {
		return nil, apierrors.NewConflict(gr(res), m.Name, fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	*obj.GetTypeMeta() = api.TypeMeta{APIVersion: res.APIVersion(), Kind: res.Kind}
	// Fields the server owns never change through an update.
	m.UID, m.CreationTimestamp, m.Generation = om.UID, om.CreationTimestamp, om.Generation
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
	m.ResourceVersion = om.ResourceVersion
	switch {
	case opts.Subresource == "finalize" && isNamespaces(res):
		// finalize changes spec.finalizers and nothing else.
		fin := obj.(*api.Namespace).Spec.Finalizers
		nsObj := old.(*api.Namespace).DeepCopy()
		nsObj.Spec.Finalizers = fin
		obj, m = nsObj, &nsObj.ObjectMeta
	case res.Status && opts.Subresource == "status":
		keepField(obj, old, "Spec")
	case res.Status:
		keepField(obj, old, "Status")
	}
	prepareForUpdate(res, obj, old, opts.Subresource)
	if err := s.admitUpdate(res, obj, old); err != nil {
		return nil, err
	}
	// A status write keeps the validated spec, so the spec is not checked
	// again (upstream's status strategies validate the status alone).
	if statusWrite := opts.Subresource == "status" && res.Status; !statusWrite {
		if errs := validateUpdate(res, obj, old); len(errs) > 0 {
			return nil, apierrors.NewInvalid(gk(res), m.Name, errs)
		}
	}
	if om.DeletionTimestamp != nil {
		if added := newFinalizers(m.Finalizers, om.Finalizers); len(added) > 0 {
			return nil, apierrors.NewInvalid(gk(res), m.Name, field.ErrorList{field.Forbidden(field.NewPath("metadata").Child("finalizers"),
				fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", added))})
		}
	}
	if res.Generation && !fieldEqual(obj, old, "Spec") {
		m.Generation = om.Generation + 1
	}
	// A no-op write changes nothing, not even the resourceVersion. A status
	// write usually does change the status, so that is looked at first,
	// before the metadata's maps are walked.
	if (opts.Subresource != "status" || fieldEqual(obj, old, "Status")) && reflect.DeepEqual(obj, old) {
		return old, nil
	}
	if opts.DryRun {
		return obj, nil
	}
	if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 && finishedGracePeriod(res, obj) && !specFinalizersRemain(obj) {
		s.commit(res, WatchEvent{Type: Deleted, Object: obj, Old: old})
		return obj, nil
	}
	keepEqualMetadata(obj.GetObjectMeta(), om)
	s.commit(res, WatchEvent{Type: Modified, Object: obj, Old: old})
	return obj, nil
}

// hpaStorageVersion is the v2 form an autoscaling/v1 HPA is stored in,
// with v2's defaults applied, as decoding it from etcd applies them.
func hpaStorageVersion(v1 *api.HorizontalPodAutoscalerV1) (*api.HorizontalPodAutoscaler, error) {
	v2, err := api.ConvertHPAV1ToV2(v1)
	if err != nil {
		return nil, err
	}
	defaults.Default(v2)
	v2.TypeMeta = api.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}
	return v2, nil
}

// finishedGracePeriod says whether a terminating object with no finalizers
// left may go: one with a grace period waits for a delete with grace 0
// (the kubelet's, for pods).
func finishedGracePeriod(res *Resource, obj api.Object) bool {
	g := obj.GetObjectMeta().DeletionGracePeriodSeconds
	return g == nil || *g == 0
}

func newFinalizers(now, before []string) []string {
	var added []string
	for _, f := range now {
		found := false
		for _, b := range before {
			if b == f {
				found = true
				break
			}
		}
		if !found {
			added = append(added, f)
		}
	}
	return added
}

// Watch calls fn for each change to the resource in namespace ("" for all)
// until the returned stop function is called.
func (s *Server) Watch(res *Resource, namespace string, opts ListOptions, fn func(WatchEvent)) (stop func(), err error) {
	if !res.Namespaced {
		namespace = ""
	}
	st := s.storeFor(res)
	w := &watcher{namespace: namespace, filter: opts.Filter, fn: fn}
	if opts.ResourceVersion == "" || opts.ResourceVersion == "0" {
		for _, o := range st.list(namespace, opts.Filter) {
			fn(WatchEvent{Type: Added, Object: o})
		}
	} else {
		rv, ok := parseRV(opts.ResourceVersion)
		if !ok {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resource version %q", opts.ResourceVersion))
		}
		evs, ok := st.since(rv)
		if !ok {
			return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, st.oldestRV+1))
		}
		for _, ev := range evs {
			w.deliver(ev)
		}
	}
	st.watchers = append(st.watchers, w)
	return func() { w.stopped = true }, nil
}

func gr(res *Resource) apierrors.GroupResource {
	return apierrors.GroupResource{Group: res.Group, Resource: res.Name}
}

func gk(res *Resource) apierrors.GroupKind {
	return apierrors.GroupKind{Group: res.Group, Kind: res.Kind}
}

func fieldEqual(a, b api.Object, name string) bool {
	av := reflect.ValueOf(a).Elem().FieldByName(name)
	if !av.IsValid() {
		return true
	}
	// By address: the field's values would each be copied to the heap.
	return reflect.DeepEqual(av.Addr().Interface(), reflect.ValueOf(b).Elem().FieldByName(name).Addr().Interface())
}

func durationSeconds(sec int64) time.Duration { return time.Duration(sec) * time.Second }
