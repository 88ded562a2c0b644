// Package endpoint is the Endpoints controller: for every Service with a
// selector it keeps an Endpoints object of the same name listing the
// selected pods' addresses, ready or not, with the ports the service's
// targetPorts resolve to.
package endpoint

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
	"kubeplay/core/controller/endpointslice/util"
)

const (
	// maxRetries bounds the retries of one service before it is dropped.
	maxRetries = 15
	// maxCapacity is the most addresses an Endpoints object lists.
	maxCapacity = 1000
	// truncated is the over-capacity annotation's value.
	truncated = "truncated"
	// leaderElectionAnnotation marks the old endpoints-based leader locks,
	// which have no service and must be left alone.
	leaderElectionAnnotation = "control-plane.alpha.kubernetes.io/leader"
)

// Controller manages the Endpoints of selector-based services.
type Controller struct {
	client      client.Interface
	recorder    *client.Recorder
	serviceInf  *client.Informer
	podInf      *client.Informer
	endpointInf *client.Informer
	queue       *workqueue.Queue[string]
	triggers    *util.TriggerTimeTracker
	// batchPeriod delays syncs caused by pod changes
	// (--endpoint-updates-batch-period, 0 by default).
	batchPeriod time.Duration
}

// NewEndpointController builds the controller on ctx's informers.
func NewEndpointController(ctx *controller.Context) *Controller {
	cl := ctx.Client("endpoint-controller")
	e := &Controller{
		client:      cl,
		recorder:    client.NewRecorder(cl, "endpoint-controller", ""),
		serviceInf:  client.InformerFor[*api.Service](ctx.Informers),
		podInf:      client.InformerFor[*api.Pod](ctx.Informers),
		endpointInf: client.InformerFor[*api.Endpoints](ctx.Informers),
		queue:       workqueue.New[string]("endpoint", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		triggers:    util.NewTriggerTimeTracker(),
	}
	e.serviceInf.AddHandler(client.Handler{
		OnAdd:    e.onServiceUpdate,
		OnUpdate: func(_, cur api.Object) { e.onServiceUpdate(cur) },
		OnDelete: e.onServiceUpdate,
	})
	e.podInf.AddHandler(client.Handler{
		OnAdd:    e.addPod,
		OnUpdate: e.updatePod,
		OnDelete: e.addPod,
	})
	e.endpointInf.AddHandler(client.Handler{OnDelete: func(o api.Object) { e.queue.Add(client.KeyOf(o)) }})
	e.checkLeftoverEndpoints()
	return e
}

// Name implements controller.Worker.
func (e *Controller) Name() string { return "endpoint-controller/syncService" }

// ProcessNextWorkItem implements controller.Worker.
func (e *Controller) ProcessNextWorkItem() bool {
	key, ok := e.queue.Get()
	if !ok {
		return false
	}
	defer e.queue.Done(key)
	err := e.syncService(key)
	switch {
	case err == nil:
		e.queue.Forget(key)
	case e.queue.NumRequeues(key) < maxRetries:
		e.queue.AddRateLimited(key)
	default:
		e.queue.Forget(key)
	}
	return true
}

func (e *Controller) onServiceUpdate(o api.Object) { e.queue.Add(client.KeyOf(o)) }

func (e *Controller) enqueueAfterBatch(key string) {
	if e.batchPeriod > 0 {
		e.queue.AddAfter(key, e.batchPeriod)
		return
	}
	e.queue.Add(key)
}

// addPod (also called for deleted pods) syncs the services selecting the pod.
func (e *Controller) addPod(o api.Object) {
	for _, key := range util.GetPodServiceMemberships(e.serviceInf, o.(*api.Pod)) {
		e.enqueueAfterBatch(key)
	}
}

// updatePod syncs the services the pod left, joined, or whose endpoint
// for it changed.
func (e *Controller) updatePod(old, cur api.Object) {
	for _, key := range util.GetServicesToUpdateOnPodChange(e.serviceInf, old.(*api.Pod), cur.(*api.Pod)) {
		e.enqueueAfterBatch(key)
	}
}

// checkLeftoverEndpoints queues every Endpoints object once at start, so
// those whose service went away while the controller was not running are
// deleted.
func (e *Controller) checkLeftoverEndpoints() {
	for _, o := range e.endpointInf.List("") {
		if _, ok := o.GetObjectMeta().Annotations[leaderElectionAnnotation]; ok {
			continue
		}
		e.queue.Add(client.KeyOf(o))
	}
}

// syncService writes the Endpoints of one service.
func (e *Controller) syncService(key string) error {
	namespace, name := client.SplitKey(key)
	o, ok := e.serviceInf.Get(namespace, name)
	if !ok {
		// The service is gone: so are its endpoints.
		err := client.Delete[*api.Endpoints](e.client, namespace, name, api.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		e.triggers.DeleteService(namespace, name)
		return nil
	}
	svc := o.(*api.Service)
	if svc.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if svc.Spec.Selector == nil {
		// Endpoints of selector-less services are written by hand.
		return nil
	}
	sel := labels.SelectorFromSet(labels.Set(svc.Spec.Selector))
	var pods []*api.Pod
	for _, po := range e.podInf.List(namespace) {
		if p := po.(*api.Pod); sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	// Computed even when nothing changes, so the tracker stays current.
	triggerTime := e.triggers.ComputeEndpointLastChangeTriggerTime(namespace, svc, pods)

	subsets := []api.EndpointSubset{}
	for _, pod := range pods {
		if !util.ShouldPodBeInEndpoints(pod, svc.Spec.PublishNotReadyAddresses) {
			continue
		}
		epa, err := podToEndpointAddressForService(svc, pod)
		if err != nil {
			continue
		}
		if util.ShouldSetHostname(pod, svc) {
			epa.Hostname = pod.Spec.Hostname
		}
		if len(svc.Spec.Ports) == 0 {
			if svc.Spec.ClusterIP == api.ClusterIPNone {
				subsets = addEndpointSubset(subsets, pod, *epa, nil, svc.Spec.PublishNotReadyAddresses)
			}
			continue
		}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			port, err := util.FindPort(pod, sp)
			if err != nil {
				continue
			}
			epp := &api.EndpointPort{Name: sp.Name, Port: int32(port), Protocol: sp.Protocol, AppProtocol: sp.AppProtocol}
			subsets = addEndpointSubset(subsets, pod, *epa, epp, svc.Spec.PublishNotReadyAddresses)
		}
	}
	subsets = RepackSubsets(subsets)

	var current *api.Endpoints
	if o, ok := e.endpointInf.Get(namespace, name); ok {
		current = o.(*api.Endpoints)
	} else {
		current = &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: namespace, Labels: svc.Labels}}
	}
	create := current.ResourceVersion == ""
	compareLabels := current.Labels
	if _, ok := compareLabels[util.IsHeadlessService]; ok {
		compareLabels = withoutLabel(compareLabels, util.IsHeadlessService)
	}
	if !create && subsetsEqual(current.Subsets, subsets) && labelsEqual(compareLabels, svc.Labels) &&
		capacityAnnotationSetCorrectly(current.Annotations, current.Subsets) {
		return nil
	}
	updated := current.DeepCopy()
	updated.Subsets = subsets
	updated.Labels = copyLabels(svc.Labels)
	if updated.Annotations == nil {
		updated.Annotations = map[string]string{}
	}
	if !triggerTime.IsZero() {
		updated.Annotations[util.EndpointsLastChangeTriggerTime] = triggerTime.UTC().Format(time.RFC3339Nano)
	} else {
		delete(updated.Annotations, util.EndpointsLastChangeTriggerTime)
	}
	if truncateEndpoints(updated) {
		updated.Annotations[util.EndpointsOverCapacity] = truncated
	} else {
		delete(updated.Annotations, util.EndpointsOverCapacity)
	}
	if updated.Labels == nil {
		updated.Labels = map[string]string{}
	}
	if !util.IsServiceIPSet(svc) {
		updated.Labels[util.IsHeadlessService] = ""
	} else {
		delete(updated.Labels, util.IsHeadlessService)
	}
	var err error
	if create {
		_, err = client.Create(e.client, updated)
	} else {
		_, err = client.Update(e.client, updated)
	}
	if err == nil {
		return nil
	}
	if create && apierrors.IsForbidden(err) && strings.Contains(err.Error(), "because it is being terminated") {
		// Creates in a terminating namespace keep failing: drop the item.
		return nil
	}
	if create {
		e.recorder.Eventf(updated, api.EventTypeWarning, "FailedToCreateEndpoint", "Failed to create endpoint for service %v/%v: %v", svc.Namespace, svc.Name, err)
	} else {
		e.recorder.Eventf(updated, api.EventTypeWarning, "FailedToUpdateEndpoint", "Failed to update endpoint %v/%v: %v", svc.Namespace, svc.Name, err)
	}
	return err
}

// podToEndpointAddressForService is the pod's address in the service's IP
// family, pointing back at the pod.
func podToEndpointAddressForService(svc *api.Service, pod *api.Pod) (*api.EndpointAddress, error) {
	ip, err := util.PodIPForService(svc, pod)
	if err != nil {
		return nil, err
	}
	nodeName := pod.Spec.NodeName
	return &api.EndpointAddress{
		IP:       ip,
		NodeName: &nodeName,
		TargetRef: &api.ObjectReference{
			Kind:      "Pod",
			Namespace: pod.Namespace,
			Name:      pod.Name,
			UID:       pod.UID,
		},
	}, nil
}

// addEndpointSubset appends a one-address subset, ready or not: a service
// publishing not-ready addresses lists every pod as ready.
func addEndpointSubset(subsets []api.EndpointSubset, pod *api.Pod, epa api.EndpointAddress, epp *api.EndpointPort, tolerateUnready bool) []api.EndpointSubset {
	ports := []api.EndpointPort{}
	if epp != nil {
		ports = append(ports, *epp)
	}
	if tolerateUnready || api.IsPodReady(pod) {
		return append(subsets, api.EndpointSubset{Addresses: []api.EndpointAddress{epa}, Ports: ports})
	}
	return append(subsets, api.EndpointSubset{NotReadyAddresses: []api.EndpointAddress{epa}, Ports: ports})
}

// subsetsEqual compares subsets ignoring the resourceVersion of target
// references, which changes with every pod update.
func subsetsEqual(a, b []api.EndpointSubset) bool {
	strip := func(in []api.EndpointSubset) []api.EndpointSubset {
		out := make([]api.EndpointSubset, len(in))
		for i := range in {
			out[i] = *in[i].DeepCopy()
			for _, list := range [][]api.EndpointAddress{out[i].Addresses, out[i].NotReadyAddresses} {
				for j := range list {
					if list[j].TargetRef != nil {
						list[j].TargetRef.ResourceVersion = ""
					}
				}
			}
			normalizeEmpty(&out[i])
		}
		return out
	}
	if len(a) != len(b) {
		return false
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// normalizeEmpty treats empty and nil lists alike, as a round trip
// through the API does.
func normalizeEmpty(s *api.EndpointSubset) {
	if len(s.Addresses) == 0 {
		s.Addresses = nil
	}
	if len(s.NotReadyAddresses) == 0 {
		s.NotReadyAddresses = nil
	}
	if len(s.Ports) == 0 {
		s.Ports = nil
	}
}

func labelsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func withoutLabel(in map[string]string, key string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func copyLabels(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// capacityAnnotationSetCorrectly is false when the subsets must be
// truncated or the over-capacity annotation is stale.
func capacityAnnotationSetCorrectly(annotations map[string]string, subsets []api.EndpointSubset) bool {
	n := 0
	for _, s := range subsets {
		n += len(s.Addresses) + len(s.NotReadyAddresses)
	}
	if n > maxCapacity {
		return false
	}
	_, ok := annotations[util.EndpointsOverCapacity]
	return !ok
}

// truncateEndpoints cuts an Endpoints object down to maxCapacity
// addresses, ready ones first, each subset keeping its share (rounded up).
func truncateEndpoints(ep *api.Endpoints) bool {
	ready, notReady := 0, 0
	for _, s := range ep.Subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	if ready+notReady <= maxCapacity {
		return false
	}
	truncateReady := ready > maxCapacity
	limit, total := maxCapacity-ready, notReady
	if truncateReady {
		limit, total = maxCapacity, ready
	}
	left := limit
	for i := range ep.Subsets {
		s := ep.Subsets[i]
		inSubset := len(s.NotReadyAddresses)
		if truncateReady {
			inSubset = len(s.Addresses)
		}
		share := (inSubset*limit + total - 1) / total
		if share > left {
			share = left
		}
		if truncateReady {
			s.Addresses = firstN(s.Addresses, share)
			s.NotReadyAddresses = []api.EndpointAddress{}
			left -= len(s.Addresses)
		} else {
			s.NotReadyAddresses = firstN(s.NotReadyAddresses, share)
			left -= len(s.NotReadyAddresses)
		}
		ep.Subsets[i] = s
	}
	return true
}

func firstN(a []api.EndpointAddress, n int) []api.EndpointAddress {
	if len(a) <= n {
		return a
	}
	return a[:n]
}

// String is for debugging.
func (e *Controller) String() string {
	return fmt.Sprintf("endpoint-controller (%d queued)", e.queue.Len())
}
