package endpointslice

import (
	"maps"
	"reflect"
	"slices"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/controller/endpointslice/util"
)

// portGroup is the desired endpoints that offer one set of ports.
type portGroup struct {
	ports []api.EndpointSlicePort
	eps   []api.Endpoint
}

// endpointID identifies an endpoint across syncs: the pod and its address.
func endpointID(ep *api.Endpoint) string {
	id := ""
	if ep.TargetRef != nil {
		id = ep.TargetRef.UID
	}
	if len(ep.Addresses) > 0 {
		id += "/" + ep.Addresses[0]
	}
	return id
}

// reconcile brings the service's slices to the desired endpoints: kept
// endpoints stay in their slice, gone ones leave it, new ones fill slices
// with room before new slices are made, emptied slices are deleted, and a
// service with no endpoints keeps one empty placeholder slice.
func (c *Controller) reconcile(svc *api.Service, pods []*api.Pod, existing []*api.EndpointSlice, trigger time.Time) error {
	at := addressType(svc)
	var order []string
	groups := map[string]*portGroup{}
	for _, pod := range pods {
		if !util.ShouldPodBeInEndpoints(pod, true) {
			continue
		}
		ip, err := util.PodIPForService(svc, pod)
		if err != nil {
			continue
		}
		ports := endpointPorts(svc, pod)
		sortPorts(ports)
		key := portsKey(ports)
		g, ok := groups[key]
		if !ok {
			g = &portGroup{ports: ports}
			groups[key] = g
			order = append(order, key)
		}
		g.eps = append(g.eps, c.podToEndpoint(pod, svc, ip))
	}
	byKey := map[string][]*api.EndpointSlice{}
	var toDelete []*api.EndpointSlice
	var placeholder *api.EndpointSlice
	for _, s := range existing {
		switch {
		case s.AddressType != at:
			toDelete = append(toDelete, s)
		case isPlaceholder(s) && placeholder == nil:
			placeholder = s
		default:
			k := portsKey(s.Ports)
			byKey[k] = append(byKey[k], s)
		}
	}
	desiredTotal := 0
	for _, key := range order {
		desiredTotal += len(groups[key].eps)
		if err := c.reconcileByPortMapping(svc, at, groups[key], byKey[key], trigger); err != nil {
			return err
		}
		delete(byKey, key)
	}
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		toDelete = append(toDelete, byKey[key]...)
	}
	if desiredTotal == 0 && placeholder == nil {
		if _, err := client.Create(c.client, c.newSlice(svc, at, nil, nil, trigger)); err != nil {
			return err
		}
	} else if desiredTotal > 0 && placeholder != nil {
		toDelete = append(toDelete, placeholder)
	}
	for _, s := range toDelete {
		if err := client.Delete[*api.EndpointSlice](c.client, s.Namespace, s.Name, api.DeleteOptions{}); err != nil {
			return err
		}
	}
	return nil
}

func isPlaceholder(s *api.EndpointSlice) bool { return len(s.Endpoints) == 0 && len(s.Ports) == 0 }

// reconcileByPortMapping reconciles the slices of one port set.
func (c *Controller) reconcileByPortMapping(svc *api.Service, at string, g *portGroup, slices []*api.EndpointSlice, trigger time.Time) error {
	want := map[string]*api.Endpoint{}
	for i := range g.eps {
		want[endpointID(&g.eps[i])] = &g.eps[i]
	}
	placed := map[string]bool{}
	kept := make([][]api.Endpoint, len(slices))
	for i, s := range slices {
		for j := range s.Endpoints {
			id := endpointID(&s.Endpoints[j])
			if ep, ok := want[id]; ok && !placed[id] {
				kept[i] = append(kept[i], *ep)
				placed[id] = true
			}
		}
	}
	var fresh []api.Endpoint
	for i := range g.eps {
		if !placed[endpointID(&g.eps[i])] {
			fresh = append(fresh, g.eps[i])
		}
	}
	for i := range slices {
		for len(fresh) > 0 && len(kept[i]) < c.maxPerSlice {
			kept[i] = append(kept[i], fresh[0])
			fresh = fresh[1:]
		}
	}
	for i, s := range slices {
		if len(kept[i]) == 0 {
			if err := client.Delete[*api.EndpointSlice](c.client, s.Namespace, s.Name, api.DeleteOptions{}); err != nil {
				return err
			}
			continue
		}
		wantLabels := sliceLabels(svc)
		if reflect.DeepEqual(s.Endpoints, kept[i]) && reflect.DeepEqual(s.Ports, g.ports) && reflect.DeepEqual(s.Labels, wantLabels) {
			continue
		}
		upd := s.DeepCopy()
		upd.Endpoints, upd.Ports, upd.Labels = kept[i], g.ports, wantLabels
		setTrigger(&upd.ObjectMeta, trigger)
		if _, err := client.Update(c.client, upd); err != nil {
			return err
		}
	}
	for len(fresh) > 0 {
		n := len(fresh)
		if n > c.maxPerSlice {
			n = c.maxPerSlice
		}
		if _, err := client.Create(c.client, c.newSlice(svc, at, g.ports, fresh[:n], trigger)); err != nil {
			return err
		}
		fresh = fresh[n:]
	}
	return nil
}

func (c *Controller) newSlice(svc *api.Service, at string, ports []api.EndpointSlicePort, eps []api.Endpoint, trigger time.Time) *api.EndpointSlice {
	s := &api.EndpointSlice{
		ObjectMeta: api.ObjectMeta{
			GenerateName: slicePrefix(svc.Name),
			Namespace:    svc.Namespace,
			Labels:       sliceLabels(svc),
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID,
				Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}},
		},
		AddressType: at,
		Endpoints:   append([]api.Endpoint(nil), eps...),
		Ports:       ports,
	}
	setTrigger(&s.ObjectMeta, trigger)
	return s
}

// slicePrefix is the generateName of a service's slices, short enough
// for the generated suffix.
func slicePrefix(name string) string {
	const maxGeneratedNameLength = 63 - 5
	prefix := name + "-"
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength]
	}
	return prefix
}

// sliceLabels are the service's labels plus the slice's own.
func sliceLabels(svc *api.Service) map[string]string {
	out := map[string]string{}
	for k, v := range svc.Labels {
		if k == api.LabelServiceName || k == api.LabelManagedBy || k == util.IsHeadlessService {
			continue
		}
		out[k] = v
	}
	out[api.LabelServiceName] = svc.Name
	out[api.LabelManagedBy] = ControllerName
	if !util.IsServiceIPSet(svc) {
		out[util.IsHeadlessService] = ""
	}
	return out
}

func setTrigger(m *api.ObjectMeta, trigger time.Time) {
	if trigger.IsZero() {
		delete(m.Annotations, util.EndpointsLastChangeTriggerTime)
		return
	}
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[util.EndpointsLastChangeTriggerTime] = formatTrigger(trigger)
}
