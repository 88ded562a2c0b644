// Package serviceaccount is the service account controller: every active
// namespace has a "default" ServiceAccount, recreated if deleted.
package serviceaccount

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// ServiceAccountsController ensures the default service account.
type ServiceAccountsController struct {
	client client.Interface
	nsInf  *client.Informer
	saInf  *client.Informer
	queue  *workqueue.Queue[string]
}

// NewServiceAccountsController builds the controller on ctx's informers.
func NewServiceAccountsController(ctx *controller.Context) *ServiceAccountsController {
	c := &ServiceAccountsController{
		client: ctx.Client("service-account-controller"),
		nsInf:  client.InformerFor[*api.Namespace](ctx.Informers),
		saInf:  client.InformerFor[*api.ServiceAccount](ctx.Informers),
		queue:  workqueue.New[string]("serviceaccount", ctx.Clock, nil),
	}
	c.nsInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { c.queue.Add(o.GetObjectMeta().Name) },
		OnUpdate: func(_, o api.Object) { c.queue.Add(o.GetObjectMeta().Name) },
	})
	c.saInf.AddHandler(client.Handler{OnDelete: func(o api.Object) { c.queue.Add(o.GetObjectMeta().Namespace) }})
	return c
}

// Name implements controller.Worker.
func (c *ServiceAccountsController) Name() string { return "service-account-controller/syncNamespace" }

// ProcessNextWorkItem implements controller.Worker.
func (c *ServiceAccountsController) ProcessNextWorkItem() bool {
	ns, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(ns)
	if err := c.syncNamespace(ns); err != nil {
		c.queue.AddRateLimited(ns)
		return true
	}
	c.queue.Forget(ns)
	return true
}

func (c *ServiceAccountsController) syncNamespace(name string) error {
	o, ok := c.nsInf.Get("", name)
	if !ok {
		return nil
	}
	ns := o.(*api.Namespace)
	if ns.DeletionTimestamp != nil || ns.Status.Phase == "Terminating" {
		return nil
	}
	if _, ok := c.saInf.Get(name, api.DefaultServiceAccountName); ok {
		return nil
	}
	_, err := client.Create(c.client, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: api.DefaultServiceAccountName, Namespace: name}})
	if apierrors.IsAlreadyExists(err) || apierrors.IsForbidden(err) {
		return nil // raced, or the namespace is going away
	}
	return err
}
