// Package namespace is the namespace controller: when a namespace is
// deleted it deletes everything in it, then removes the "kubernetes"
// finalizer so the API server can let the namespace go.
package namespace

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// Controller watches namespaces and finishes the deletion of terminating ones.
type Controller struct {
	client  client.Interface
	nsInf   *client.Informer
	queue   *workqueue.Queue[string]
	deleter *resourcesDeleter
}

// NewController builds the namespace controller.
func NewController(ctx *controller.Context) *Controller {
	c := &Controller{
		client: ctx.Client("namespace-controller"),
		nsInf:  client.InformerFor[*api.Namespace](ctx.Informers),
	}
	c.queue = workqueue.New[string]("namespace", ctx.Clock, workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, 60*time.Second))
	c.deleter = &resourcesDeleter{client: c.client, clock: ctx.Clock}
	enqueue := func(o api.Object) {
		if o.GetObjectMeta().DeletionTimestamp != nil {
			c.queue.Add(o.GetObjectMeta().Name)
		}
	}
	c.nsInf.AddHandler(client.Handler{
		OnAdd:    enqueue,
		OnUpdate: func(_, o api.Object) { enqueue(o) },
	})
	return c
}

// Name implements controller.Worker.
func (c *Controller) Name() string { return "namespace-controller/syncNamespaceFromKey" }

// ProcessNextWorkItem implements controller.Worker.
func (c *Controller) ProcessNextWorkItem() bool {
	key, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncNamespaceFromKey(key)
	switch e := err.(type) {
	case nil:
		c.queue.Forget(key)
	case *ResourcesRemainingError:
		// Come back when the slowest pod's grace period is about half over.
		c.queue.AddAfter(key, time.Duration(e.Estimate/2+1)*time.Second)
	default:
		c.queue.AddRateLimited(key)
	}
	return true
}

// syncNamespaceFromKey deletes the content of a terminating namespace and
// finalizes it once nothing is left.
func (c *Controller) syncNamespaceFromKey(name string) error {
	obj, ok := c.nsInf.Get("", name)
	if !ok {
		return nil
	}
	return c.deleter.Delete(obj.(*api.Namespace))
}
