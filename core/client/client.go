// Package client is how every component reaches the API: one small
// interface over the API server, typed helpers on top, informers with
// indexes, and an event recorder.
package client

import (
	"reflect"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

// Interface is the API as components see it. Objects returned are shared
// with the store and informers: copy (DeepCopy) before changing one.
type Interface interface {
	Registry() *apiserver.Registry
	Now() time.Time
	Get(res *apiserver.Resource, namespace, name string) (api.Object, error)
	List(res *apiserver.Resource, namespace string, opts apiserver.ListOptions) ([]api.Object, string)
	Create(res *apiserver.Resource, namespace string, obj api.Object, opts apiserver.CreateOptions) (api.Object, error)
	Update(res *apiserver.Resource, namespace string, obj api.Object, opts apiserver.UpdateOptions) (api.Object, error)
	Patch(res *apiserver.Resource, namespace, name, patchType string, data []byte, opts apiserver.PatchOptions) (api.Object, error)
	Delete(res *apiserver.Resource, namespace, name string, opts api.DeleteOptions) (apiserver.DeleteResult, error)
	Watch(res *apiserver.Resource, namespace string, opts apiserver.ListOptions, fn func(apiserver.WatchEvent)) (func(), error)
	// Bind posts a pod's binding (pods/binding): the scheduler's placement.
	Bind(namespace string, b *api.Binding) error
	// Evict posts a pod's eviction (pods/eviction): a delete that respects
	// disruption budgets.
	Evict(namespace string, ev *api.Eviction) error
}

// Local is the in-process client: calls go straight to the server, tagged
// with the component making them so the trace can name the writer.
type Local struct {
	server *apiserver.Server
	actor  string
}

// NewLocal returns a client for component actor ("deployment-controller").
func NewLocal(s *apiserver.Server, actor string) *Local { return &Local{server: s, actor: actor} }

// Server is the API server behind the client.
func (c *Local) Server() *apiserver.Server { return c.server }

func (c *Local) Registry() *apiserver.Registry { return c.server.Registry }
func (c *Local) Now() time.Time                { return c.server.Clock().Now() }

func (c *Local) Get(res *apiserver.Resource, namespace, name string) (api.Object, error) {
	return c.server.Get(res, namespace, name)
}

// Exists is Get's answer without the object or the error.
func (c *Local) Exists(res *apiserver.Resource, namespace, name string) bool {
	return c.server.Exists(res, namespace, name)
}

func (c *Local) List(res *apiserver.Resource, namespace string, opts apiserver.ListOptions) ([]api.Object, string) {
	return c.server.List(res, namespace, opts)
}

func (c *Local) as() func() {
	prev := c.server.Actor
	c.server.Actor = c.actor
	return func() { c.server.Actor = prev }
}

func (c *Local) Create(res *apiserver.Resource, namespace string, obj api.Object, opts apiserver.CreateOptions) (api.Object, error) {
	defer c.as()()
	return c.server.Create(res, namespace, obj, opts)
}

func (c *Local) Update(res *apiserver.Resource, namespace string, obj api.Object, opts apiserver.UpdateOptions) (api.Object, error) {
	defer c.as()()
	return c.server.Update(res, namespace, obj, opts)
}

func (c *Local) Patch(res *apiserver.Resource, namespace, name, patchType string, data []byte, opts apiserver.PatchOptions) (api.Object, error) {
	defer c.as()()
	return c.server.Patch(res, namespace, name, patchType, data, opts)
}

func (c *Local) Delete(res *apiserver.Resource, namespace, name string, opts api.DeleteOptions) (apiserver.DeleteResult, error) {
	defer c.as()()
	return c.server.Delete(res, namespace, name, opts)
}

func (c *Local) Watch(res *apiserver.Resource, namespace string, opts apiserver.ListOptions, fn func(apiserver.WatchEvent)) (func(), error) {
	return c.server.Watch(res, namespace, opts, fn)
}

func (c *Local) Bind(namespace string, b *api.Binding) error {
	defer c.as()()
	return c.server.Bind(namespace, b)
}

func (c *Local) Evict(namespace string, ev *api.Eviction) error {
	defer c.as()()
	return c.server.Evict(namespace, ev.Name, ev)
}

// ResourceFor returns the resource that stores Go type T (*api.Pod → pods).
func ResourceFor[T api.Object](c Interface) *apiserver.Resource {
	t := reflect.TypeOf((*T)(nil)).Elem()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	res, ok := c.Registry().ForGoKind(t.Name())
	if !ok {
		panic("client: no resource stores " + t.Name()) // a programming error, never user input
	}
	return res
}

// Get reads one object of type T.
func Get[T api.Object](c Interface, namespace, name string) (T, error) {
	o, err := c.Get(ResourceFor[T](c), namespace, name)
	if err != nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

// List reads the objects of type T in a namespace ("" for all) that filter keeps.
func List[T api.Object](c Interface, namespace string, filter func(api.Object) bool) []T {
	objs, _ := c.List(ResourceFor[T](c), namespace, apiserver.ListOptions{Filter: filter})
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.(T)
	}
	return out
}

// Create writes a new object of type T.
func Create[T api.Object](c Interface, obj T) (T, error) {
	o, err := c.Create(ResourceFor[T](c), obj.GetObjectMeta().Namespace, obj, apiserver.CreateOptions{})
	if err != nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

// Update replaces an object of type T.
func Update[T api.Object](c Interface, obj T) (T, error) {
	o, err := c.Update(ResourceFor[T](c), obj.GetObjectMeta().Namespace, obj, apiserver.UpdateOptions{})
	if err != nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

// UpdateStatus replaces the status of an object of type T.
func UpdateStatus[T api.Object](c Interface, obj T) (T, error) {
	o, err := c.Update(ResourceFor[T](c), obj.GetObjectMeta().Namespace, obj, apiserver.UpdateOptions{Subresource: "status"})
	if err != nil {
		var zero T
		return zero, err
	}
	return o.(T), nil
}

// Delete deletes an object of type T.
func Delete[T api.Object](c Interface, namespace, name string, opts api.DeleteOptions) error {
	_, err := c.Delete(ResourceFor[T](c), namespace, name, opts)
	return err
}
