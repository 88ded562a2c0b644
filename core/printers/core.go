package printers

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
)

// Columns of the core/v1 kinds other than pods and volumes.

var namespaceHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Status"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		ns, ok := obj.(*api.Namespace)
		if !ok {
			return nil, false
		}
		return []string{ns.Name, ns.Status.Phase, Age(ns.CreationTimestamp, now)}, true
	},
}

var nodeHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Status"},
		{Name: "Roles"},
		{Name: "Age"},
		{Name: "Version"},
		{Name: "Internal-IP", Priority: 1},
		{Name: "External-IP", Priority: 1},
		{Name: "OS-Image", Priority: 1},
		{Name: "Kernel-Version", Priority: 1},
		{Name: "Container-Runtime", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		n, ok := obj.(*api.Node)
		if !ok {
			return nil, false
		}
		info := n.Status.NodeInfo
		unknown := func(s string) string {
			if s == "" {
				return "<unknown>"
			}
			return s
		}
		return []string{
			n.Name,
			nodeStatus(n),
			orNone(strings.Join(nodeRoles(n), ",")),
			Age(n.CreationTimestamp, now),
			info.KubeletVersion,
			nodeAddress(n, api.NodeInternalIP),
			nodeAddress(n, api.NodeExternalIP),
			unknown(info.OSImage),
			unknown(info.KernelVersion),
			unknown(info.ContainerRuntimeVersion),
		}, true
	},
}

// nodeStatus is Ready, NotReady or Unknown (no Ready condition yet), with
// ",SchedulingDisabled" for a cordoned node.
func nodeStatus(n *api.Node) string {
	status := "Unknown"
	if _, c := api.GetNodeCondition(&n.Status, api.NodeReady); c != nil {
		status = "NotReady"
		if c.Status == api.ConditionTrue {
			status = "Ready"
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles reads node-role.kubernetes.io/<role> label keys and the older
// kubernetes.io/role=<role> label, sorted and each once.
func nodeRoles(n *api.Node) []string {
	const prefix, legacy = "node-role.kubernetes.io/", "kubernetes.io/role"
	seen := map[string]bool{}
	var roles []string
	for _, k := range slices.Sorted(maps.Keys(n.Labels)) {
		role := ""
		switch {
		case strings.HasPrefix(k, prefix):
			role = strings.TrimPrefix(k, prefix)
		case k == legacy:
			role = n.Labels[k]
		}
		if role != "" && !seen[role] {
			seen[role] = true
			roles = append(roles, role)
		}
	}
	sortStrings(roles)
	return roles
}

// nodeAddress is the node's first address of the type, or "<none>".
func nodeAddress(n *api.Node, typ string) string {
	for _, a := range n.Status.Addresses {
		if a.Type == typ {
			return a.Address
		}
	}
	return "<none>"
}

var serviceHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Type"},
		{Name: "Cluster-IP"},
		{Name: "External-IP"},
		{Name: "Port(s)"},
		{Name: "Age"},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		svc, ok := obj.(*api.Service)
		if !ok {
			return nil, false
		}
		// The API fills clusterIPs from clusterIP.
		clusterIP := svc.Spec.ClusterIP
		if len(svc.Spec.ClusterIPs) > 0 {
			clusterIP = svc.Spec.ClusterIPs[0]
		}
		return []string{
			svc.Name,
			svc.Spec.Type,
			orNone(clusterIP),
			serviceExternalIP(svc),
			orNone(servicePorts(svc.Spec.Ports)),
			Age(svc.CreationTimestamp, now),
			formatLabels(svc.Spec.Selector),
		}, true
	},
}

// serviceExternalIP is getServiceExternalIP as the server renders it (wide,
// so load balancer addresses are not clipped).
func serviceExternalIP(svc *api.Service) string {
	switch svc.Spec.Type {
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort:
		if len(svc.Spec.ExternalIPs) > 0 {
			return strings.Join(svc.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case api.ServiceTypeLoadBalancer:
		var lb []string
		seen := map[string]bool{}
		for _, in := range svc.Status.LoadBalancer.Ingress {
			a := in.IP
			if a == "" {
				a = in.Hostname
			}
			if a != "" && !seen[a] {
				seen[a] = true
				lb = append(lb, a)
			}
		}
		sortStrings(lb)
		all := append(lb, svc.Spec.ExternalIPs...)
		if len(all) == 0 {
			return "<pending>"
		}
		return strings.Join(all, ",")
	case api.ServiceTypeExternalName:
		return svc.Spec.ExternalName
	}
	return "<unknown>"
}

// servicePorts is makePortString: 80/TCP, or 80:30080/TCP with a node port.
func servicePorts(ports []api.ServicePort) string {
	parts := make([]string, len(ports))
	for i, p := range ports {
		if p.NodePort > 0 {
			parts[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		} else {
			parts[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		}
	}
	return strings.Join(parts, ",")
}

var endpointsHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Endpoints"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		ep, ok := obj.(*api.Endpoints)
		if !ok {
			return nil, false
		}
		return []string{ep.Name, formatEndpoints(ep), Age(ep.CreationTimestamp, now)}, true
	},
}

// maxListed is how many addresses or ports a cell lists before "+ N more...".
const maxListed = 3

// formatEndpoints lists ready addresses as ip:port (just ip for a subset
// without ports), at most three, then "+ N more...".
func formatEndpoints(ep *api.Endpoints) string {
	if len(ep.Subsets) == 0 {
		return "<none>"
	}
	var list []string
	count := 0
	more := false
	add := func(s string) {
		if len(list) == maxListed {
			more = true
			return
		}
		list = append(list, s)
	}
	for _, ss := range ep.Subsets {
		if len(ss.Ports) == 0 {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				add(a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				add(net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
			}
		}
	}
	out := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", out, count-maxListed)
	}
	return out
}

var endpointSliceHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "AddressType"}, {Name: "Ports"}, {Name: "Endpoints"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		es, ok := obj.(*api.EndpointSlice)
		if !ok {
			return nil, false
		}
		var ports, addrs []string
		for _, p := range es.Ports {
			switch {
			case p.Port != nil:
				ports = append(ports, strconv.Itoa(int(*p.Port)))
			case p.Name != nil:
				ports = append(ports, *p.Name)
			default:
				ports = append(ports, "*")
			}
		}
		for _, e := range es.Endpoints {
			addrs = append(addrs, e.Addresses...)
		}
		return []string{es.Name, es.AddressType, listWithMore(ports), listWithMore(addrs), Age(es.CreationTimestamp, now)}, true
	},
}

// listWithMore shows up to three items, then "+ N more...", "<unset>" for none.
func listWithMore(items []string) string {
	if len(items) > maxListed {
		return fmt.Sprintf("%s + %d more...", strings.Join(items[:maxListed], ","), len(items)-maxListed)
	}
	if len(items) == 0 {
		return "<unset>"
	}
	return strings.Join(items, ",")
}

var configMapHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Data"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		cm, ok := obj.(*api.ConfigMap)
		if !ok {
			return nil, false
		}
		return []string{cm.Name, strconv.Itoa(len(cm.Data) + len(cm.BinaryData)), Age(cm.CreationTimestamp, now)}, true
	},
}

var secretHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Type"}, {Name: "Data"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		s, ok := obj.(*api.Secret)
		if !ok {
			return nil, false
		}
		// stringData is write-only and merged into data; count each key once
		// in case an object still carries both.
		keys := len(s.Data)
		for k := range s.StringData {
			if _, dup := s.Data[k]; !dup {
				keys++
			}
		}
		return []string{s.Name, s.Type, strconv.Itoa(keys), Age(s.CreationTimestamp, now)}, true
	},
}

var serviceAccountHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Secrets"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		sa, ok := obj.(*api.ServiceAccount)
		if !ok {
			return nil, false
		}
		return []string{sa.Name, strconv.Itoa(len(sa.Secrets)), Age(sa.CreationTimestamp, now)}, true
	},
}

var eventHandler = &handler{
	columns: []Column{
		{Name: "Last Seen"},
		{Name: "Type"},
		{Name: "Reason"},
		{Name: "Object"},
		{Name: "Subobject", Priority: 1},
		{Name: "Source", Priority: 1},
		{Name: "Message"},
		{Name: "First Seen", Priority: 1},
		{Name: "Count", Priority: 1},
		{Name: "Name", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		e, ok := obj.(*api.Event)
		if !ok {
			return nil, false
		}
		return eventCells(e, now), true
	},
}

// eventCells is printEvent: events.k8s.io-style events (eventTime, series)
// and core ones (first/last timestamp, count) both read naturally.
func eventCells(e *api.Event, now time.Time) []string {
	first := Age(e.FirstTimestamp, now)
	if e.FirstTimestamp.IsZero() {
		first = since(e.EventTime.Time, now)
	}
	last := Age(e.LastTimestamp, now)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	if e.Series != nil {
		last = since(e.Series.LastObservedTime.Time, now)
		count = e.Series.Count
	} else if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	return []string{
		last,
		e.Type,
		e.Reason,
		target,
		e.InvolvedObject.FieldPath,
		eventSource(e),
		strings.TrimSpace(e.Message),
		first,
		itoa32(count),
		e.Name,
	}
}

// eventSource is "component, host", falling back to the reporting
// controller and instance, without ", " when there is no host.
func eventSource(e *api.Event) string {
	component := e.Source.Component
	if component == "" {
		component = e.ReportingController
	}
	host := e.Source.Host
	if host == "" {
		host = e.ReportingInstance
	}
	if host == "" {
		return component
	}
	return component + ", " + host
}

var resourceQuotaHandler = &handler{
	// v1.32 still prints AGE second; later releases move it last.
	columns: []Column{{Name: "Name"}, {Name: "Age"}, {Name: "Request"}, {Name: "Limit"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		q, ok := obj.(*api.ResourceQuota)
		if !ok {
			return nil, false
		}
		var req, lim []string
		for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			s := fmt.Sprintf("%s: %s/%s", name, quantity(q.Status.Used[name]), quantity(q.Status.Hard[name]))
			if strings.HasPrefix(name, "limits.") {
				lim = append(lim, s)
			} else {
				req = append(req, s)
			}
		}
		return []string{q.Name, Age(q.CreationTimestamp, now), strings.Join(req, ", "), strings.Join(lim, ", ")}, true
	},
}
