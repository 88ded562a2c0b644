// Package endpointslice is the EndpointSlice controller: for every Service
// with a selector it keeps discovery.k8s.io/v1 EndpointSlices (named
// <service>-<5 random characters>, at most 100 endpoints each) listing the
// selected pods with their ready, serving and terminating conditions.
package endpointslice

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
	"kubeplay/core/controller/endpointslice/util"
)

const (
	// ControllerName is the managed-by label's value on our slices.
	ControllerName = "endpointslice-controller.k8s.io"
	// MaxEndpointsPerSlice is kube-controller-manager's default
	// --max-endpoints-per-slice.
	MaxEndpointsPerSlice = 100
	maxRetries           = 15
)

// Controller manages the EndpointSlices of selector-based services.
type Controller struct {
	client      client.Interface
	serviceInf  *client.Informer
	podInf      *client.Informer
	nodeInf     *client.Informer
	sliceInf    *client.Informer
	queue       *workqueue.Queue[string]
	triggers    *util.TriggerTimeTracker
	maxPerSlice int
}

// NewController builds the controller on ctx's informers.
func NewController(ctx *controller.Context) *Controller {
	c := &Controller{
		client:      ctx.Client("endpointslice-controller"),
		serviceInf:  client.InformerFor[*api.Service](ctx.Informers),
		podInf:      client.InformerFor[*api.Pod](ctx.Informers),
		nodeInf:     client.InformerFor[*api.Node](ctx.Informers),
		sliceInf:    client.InformerFor[*api.EndpointSlice](ctx.Informers),
		queue:       workqueue.New[string]("endpoint_slice", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		triggers:    util.NewTriggerTimeTracker(),
		maxPerSlice: MaxEndpointsPerSlice,
	}
	c.serviceInf.AddHandler(client.Handler{
		OnAdd:    c.enqueue,
		OnUpdate: func(_, cur api.Object) { c.enqueue(cur) },
		OnDelete: c.enqueue,
	})
	c.podInf.AddHandler(client.Handler{
		OnAdd: c.addPod,
		OnUpdate: func(old, cur api.Object) {
			for _, key := range util.GetServicesToUpdateOnPodChange(c.serviceInf, old.(*api.Pod), cur.(*api.Pod)) {
				c.queue.Add(key)
			}
		},
		OnDelete: c.addPod,
	})
	onSlice := func(o api.Object) {
		s := o.(*api.EndpointSlice)
		if s.Labels[api.LabelManagedBy] == ControllerName && s.Labels[api.LabelServiceName] != "" {
			c.queue.Add(s.Namespace + "/" + s.Labels[api.LabelServiceName])
		}
	}
	c.sliceInf.AddHandler(client.Handler{
		OnAdd:    onSlice,
		OnUpdate: func(_, cur api.Object) { onSlice(cur) },
		OnDelete: onSlice,
	})
	return c
}

// Name implements controller.Worker.
func (c *Controller) Name() string { return "endpointslice-controller/syncService" }

// ProcessNextWorkItem implements controller.Worker.
func (c *Controller) ProcessNextWorkItem() bool {
	key, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(key)
	err := c.syncService(key)
	switch {
	case err == nil:
		c.queue.Forget(key)
	case c.queue.NumRequeues(key) < maxRetries:
		c.queue.AddRateLimited(key)
	default:
		c.queue.Forget(key)
	}
	return true
}

func (c *Controller) enqueue(o api.Object) { c.queue.Add(client.KeyOf(o)) }

func (c *Controller) addPod(o api.Object) {
	for _, key := range util.GetPodServiceMemberships(c.serviceInf, o.(*api.Pod)) {
		c.queue.Add(key)
	}
}

// syncService reconciles one service's slices with its pods. A deleted
// service's slices go with it through their owner reference.
func (c *Controller) syncService(key string) error {
	namespace, name := client.SplitKey(key)
	o, ok := c.serviceInf.Get(namespace, name)
	if !ok {
		c.triggers.DeleteService(namespace, name)
		return nil
	}
	svc := o.(*api.Service)
	if svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil || svc.DeletionTimestamp != nil {
		return nil
	}
	sel := labels.SelectorFromSet(labels.Set(svc.Spec.Selector))
	var pods []*api.Pod
	for _, po := range c.podInf.List(namespace) {
		if p := po.(*api.Pod); sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	var slices []*api.EndpointSlice
	for _, so := range c.sliceInf.List(namespace) {
		s := so.(*api.EndpointSlice)
		if s.Labels[api.LabelServiceName] == svc.Name && s.Labels[api.LabelManagedBy] == ControllerName {
			slices = append(slices, s)
		}
	}
	trigger := c.triggers.ComputeEndpointLastChangeTriggerTime(namespace, svc, pods)
	return c.reconcile(svc, pods, slices, trigger)
}

// podToEndpoint is a pod's endpoint: ready only when serving and not
// terminating (or when the service publishes not-ready addresses).
func (c *Controller) podToEndpoint(pod *api.Pod, svc *api.Service, ip string) api.Endpoint {
	serving := api.IsPodReady(pod)
	terminating := pod.DeletionTimestamp != nil
	ready := svc.Spec.PublishNotReadyAddresses || (serving && !terminating)
	ep := api.Endpoint{
		Addresses:  []string{ip},
		Conditions: api.EndpointConditions{Ready: &ready, Serving: &serving, Terminating: &terminating},
		TargetRef:  &api.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
	}
	if pod.Spec.NodeName != "" {
		if no, ok := c.nodeInf.Get("", pod.Spec.NodeName); ok {
			if zone := no.(*api.Node).Labels[api.LabelTopologyZone]; zone != "" {
				ep.Zone = &zone
			}
		}
		node := pod.Spec.NodeName
		ep.NodeName = &node
	}
	if util.ShouldSetHostname(pod, svc) {
		h := pod.Spec.Hostname
		ep.Hostname = &h
	}
	return ep
}

// endpointPorts are the slice ports a pod offers for the service's ports.
func endpointPorts(svc *api.Service, pod *api.Pod) []api.EndpointSlicePort {
	var out []api.EndpointSlicePort
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		port, err := util.FindPort(pod, sp)
		if err != nil {
			continue
		}
		name, p, proto := sp.Name, int32(port), sp.Protocol
		out = append(out, api.EndpointSlicePort{Name: &name, Port: &p, Protocol: &proto, AppProtocol: sp.AppProtocol})
	}
	return out
}

func addressType(svc *api.Service) string {
	if len(svc.Spec.IPFamilies) > 0 && svc.Spec.IPFamilies[0] == api.IPv6Protocol {
		return api.AddressTypeIPv6
	}
	return api.AddressTypeIPv4
}

func formatTrigger(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
