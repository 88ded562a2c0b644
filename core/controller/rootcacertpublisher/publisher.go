// Package rootcacertpublisher publishes the cluster's CA bundle as the
// kube-root-ca.crt ConfigMap in every namespace, which every pod's
// projected service-account volume mounts.
package rootcacertpublisher

import (
	"reflect"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// RootCACertConfigMapName is the ConfigMap's name.
const RootCACertConfigMapName = "kube-root-ca.crt"

const description = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."

// Publisher keeps kube-root-ca.crt in every namespace.
type Publisher struct {
	client client.Interface
	nsInf  *client.Informer
	cmInf  *client.Informer
	queue  *workqueue.Queue[string]
	rootCA string
}

// NewPublisher builds the publisher; rootCA is the PEM bundle.
func NewPublisher(ctx *controller.Context, rootCA string) *Publisher {
	p := &Publisher{
		client: ctx.Client("root-ca-cert-publisher"),
		nsInf:  client.InformerFor[*api.Namespace](ctx.Informers),
		cmInf:  client.InformerFor[*api.ConfigMap](ctx.Informers),
		queue:  workqueue.New[string]("root_ca_cert_publisher", ctx.Clock, nil),
		rootCA: rootCA,
	}
	p.nsInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { p.queue.Add(o.GetObjectMeta().Name) },
		OnUpdate: func(_, o api.Object) { p.queue.Add(o.GetObjectMeta().Name) },
	})
	onCM := func(o api.Object) {
		if o.GetObjectMeta().Name == RootCACertConfigMapName {
			p.queue.Add(o.GetObjectMeta().Namespace)
		}
	}
	p.cmInf.AddHandler(client.Handler{OnUpdate: func(_, o api.Object) { onCM(o) }, OnDelete: onCM})
	return p
}

// Name implements controller.Worker.
func (p *Publisher) Name() string { return "root-ca-cert-publisher/syncNamespace" }

// ProcessNextWorkItem implements controller.Worker.
func (p *Publisher) ProcessNextWorkItem() bool {
	ns, ok := p.queue.Get()
	if !ok {
		return false
	}
	defer p.queue.Done(ns)
	if err := p.syncNamespace(ns); err != nil {
		p.queue.AddRateLimited(ns)
		return true
	}
	p.queue.Forget(ns)
	return true
}

func (p *Publisher) syncNamespace(name string) error {
	o, ok := p.nsInf.Get("", name)
	if !ok {
		return nil
	}
	if ns := o.(*api.Namespace); ns.DeletionTimestamp != nil {
		return nil
	}
	data := map[string]string{"ca.crt": p.rootCA}
	ann := map[string]string{"kubernetes.io/description": description}
	existing, ok := p.cmInf.Get(name, RootCACertConfigMapName)
	if !ok {
		_, err := client.Create(p.client, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: RootCACertConfigMapName, Namespace: name, Annotations: ann}, Data: data})
		if apierrors.IsAlreadyExists(err) || apierrors.IsForbidden(err) {
			return nil
		}
		return err
	}
	cm := existing.(*api.ConfigMap)
	if reflect.DeepEqual(cm.Data, data) && cm.Annotations["kubernetes.io/description"] == description {
		return nil
	}
	cm = cm.DeepCopy()
	cm.Data = data
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["kubernetes.io/description"] = description
	_, err := client.Update(p.client, cm)
	return err
}
