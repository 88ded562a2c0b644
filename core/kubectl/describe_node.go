package kubectl

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// node is describeNode: metadata, taints, the kube-node-lease Lease,
// conditions, addresses, capacity, system info, the pods it runs with their
// share of its allocatable resources, and events (filed against the node's
// UID by controllers and against its name by kubelets).
func (d *describer) node(n *api.Node) string {
	var events []*api.Event
	if d.showEvents {
		q := eventQuery{name: n.Name, kind: "Node", uid: n.UID}
		events = d.searchEvents(q)
		q.uid = n.Name
		events = append(events, d.searchEvents(q)...)
	}
	pods := client.List[*api.Pod](d.c, "", func(o api.Object) bool {
		p := o.(*api.Pod)
		return p.Spec.NodeName == n.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
	})

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", n.Name)
	if roles := nodeRoles(n); len(roles) > 0 {
		w.write(0, "Roles:\t%s\n", strings.Join(roles, ","))
	} else {
		w.write(0, "Roles:\t%s\n", "<none>")
	}
	w.writeLabels("", "Labels", n.Labels)
	w.writeAnnotations("Annotations", n.Annotations)
	w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(n.CreationTimestamp))
	w.writeTaints("Taints", n.Spec.Taints)
	w.write(0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	if lease, err := client.Get[*api.Lease](d.c, api.NamespaceNodeLease, n.Name); err == nil {
		writeNodeLease(w, lease)
	} else {
		w.write(0, "Lease:\tFailed to get lease: %s\n", err)
	}
	if len(n.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range n.Status.Conditions {
			w.write(1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status,
				rfc1123z(c.LastHeartbeatTime), rfc1123z(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	w.write(0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		w.write(1, "%s:\t%s\n", a.Type, a.Address)
	}
	for _, rl := range []struct {
		title string
		list  api.ResourceList
	}{{"Capacity", n.Status.Capacity}, {"Allocatable", n.Status.Allocatable}} {
		if len(rl.list) == 0 {
			continue
		}
		w.write(0, "%s:\n", rl.title)
		for _, name := range slices.Sorted(maps.Keys(rl.list)) {
			q := rl.list[name]
			w.write(0, "  %s:\t%s\n", name, q.String())
		}
	}
	info := n.Status.NodeInfo
	w.write(0, "System Info:\n")
	w.write(0, "  Machine ID:\t%s\n", info.MachineID)
	w.write(0, "  System UUID:\t%s\n", info.SystemUUID)
	w.write(0, "  Boot ID:\t%s\n", info.BootID)
	w.write(0, "  Kernel Version:\t%s\n", info.KernelVersion)
	w.write(0, "  OS Image:\t%s\n", info.OSImage)
	w.write(0, "  Operating System:\t%s\n", info.OperatingSystem)
	w.write(0, "  Architecture:\t%s\n", info.Architecture)
	w.write(0, "  Container Runtime Version:\t%s\n", info.ContainerRuntimeVersion)
	w.write(0, "  Kubelet Version:\t%s\n", info.KubeletVersion)
	w.write(0, "  Kube-Proxy Version:\t%s\n", info.KubeProxyVersion)
	if n.Spec.PodCIDR != "" {
		w.write(0, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
	}
	if len(n.Spec.PodCIDRs) > 0 {
		w.write(0, "PodCIDRs:\t%s\n", strings.Join(n.Spec.PodCIDRs, ","))
	}
	if n.Spec.ProviderID != "" {
		w.write(0, "ProviderID:\t%s\n", n.Spec.ProviderID)
	}
	d.writeNodeResources(w, n, pods)
	d.writeEvents(w, events)
	return w.String()
}

// nodeRoles are the node-role.kubernetes.io/ROLE labels and the legacy
// kubernetes.io/role label, sorted.
func nodeRoles(n *api.Node) []string {
	roles := map[string]bool{}
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
				roles[role] = true
			}
		case k == "kubernetes.io/role" && v != "":
			roles[v] = true
		}
	}
	return slices.Sorted(maps.Keys(roles))
}

func writeNodeLease(w *describeWriter, l *api.Lease) {
	w.write(0, "Lease:\n")
	holder, acquire, renew := "<unset>", "<unset>", "<unset>"
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	if t := l.Spec.AcquireTime; t != nil {
		acquire = rfc1123z(api.Time{Time: t.Time})
	}
	if t := l.Spec.RenewTime; t != nil {
		renew = rfc1123z(api.Time{Time: t.Time})
	}
	w.write(1, "HolderIdentity:\t%s\n", holder)
	w.write(1, "AcquireTime:\t%s\n", acquire)
	w.write(1, "RenewTime:\t%s\n", renew)
}

// writeNodeResources is describeNodeResource: each non-terminated pod's
// requests and limits as a share of the node's allocatable (capacity when
// allocatable is unset), then the totals.
func (d *describer) writeNodeResources(w *describeWriter, n *api.Node, pods []*api.Pod) {
	w.write(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	alloc := n.Status.Capacity
	if len(n.Status.Allocatable) > 0 {
		alloc = n.Status.Allocatable
	}
	cpuAlloc, memAlloc := alloc[api.ResourceCPU], alloc[api.ResourceMemory]
	for _, p := range pods {
		req, lim := podRequestsAndLimits(p)
		cr, cl, mr, ml := req[api.ResourceCPU], lim[api.ResourceCPU], req[api.ResourceMemory], lim[api.ResourceMemory]
		w.write(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			cr.String(), percent(cr.MilliValue(), cpuAlloc.MilliValue()),
			cl.String(), percent(cl.MilliValue(), cpuAlloc.MilliValue()),
			mr.String(), percent(mr.Value(), memAlloc.Value()),
			ml.String(), percent(ml.Value(), memAlloc.Value()),
			d.since(p.CreationTimestamp.Time))
	}
	w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.write(1, "Resource\tRequests\tLimits\n")
	w.write(1, "--------\t--------\t------\n")
	reqs, lims := api.ResourceList{}, api.ResourceList{}
	for _, p := range pods {
		req, lim := podRequestsAndLimits(p)
		addResources(reqs, req)
		addResources(lims, lim)
	}
	row := func(name string, milli bool) {
		r, l, a := reqs[name], lims[name], alloc[name]
		rv, lv, av := r.Value(), l.Value(), a.Value()
		if milli {
			rv, lv, av = r.MilliValue(), l.MilliValue(), a.MilliValue()
		}
		w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", name, r.String(), percent(rv, av), l.String(), percent(lv, av))
	}
	row(api.ResourceCPU, true)
	row(api.ResourceMemory, false)
	row(api.ResourceEphemeralStorage, false)
	var huge, ext []string
	for name := range alloc {
		switch {
		case strings.HasPrefix(name, "hugepages-"):
			huge = append(huge, name)
		case !isStandardContainerResource(name) && name != api.ResourcePods:
			ext = append(ext, name)
		}
	}
	sort.Strings(huge)
	sort.Strings(ext)
	for _, name := range huge {
		row(name, false)
	}
	for _, name := range ext {
		r, l := reqs[name], lims[name]
		w.write(1, "%s\t%s\t%s\n", name, r.String(), l.String())
	}
}

// percent is int64(part/whole*100) as upstream computes it, 0 when the
// node has none of the resource.
func percent(part, whole int64) int64 {
	if whole == 0 {
		return 0
	}
	return int64(float64(part) / float64(whole) * 100)
}

// isStandardContainerResource: cpu, memory, ephemeral-storage and hugepages.
func isStandardContainerResource(name string) bool {
	return name == api.ResourceCPU || name == api.ResourceMemory || name == api.ResourceEphemeralStorage ||
		strings.HasPrefix(name, "hugepages-")
}

// podRequestsAndLimits is kubectl's resource helper: the containers' sum,
// raised to any larger init container (restartable sidecars add up),
// plus pod overhead.
func podRequestsAndLimits(p *api.Pod) (reqs, limits api.ResourceList) {
	return podResources(p, func(r api.ResourceRequirements) api.ResourceList { return r.Requests }, true),
		podResources(p, func(r api.ResourceRequirements) api.ResourceList { return r.Limits }, false)
}

func podResources(p *api.Pod, pick func(api.ResourceRequirements) api.ResourceList, requests bool) api.ResourceList {
	out := api.ResourceList{}
	statuses := map[string]*api.ContainerStatus{}
	for i := range p.Status.ContainerStatuses {
		statuses[p.Status.ContainerStatuses[i].Name] = &p.Status.ContainerStatuses[i]
	}
	for _, c := range p.Spec.Containers {
		r := pick(c.Resources)
		// A resize in progress counts the larger of spec and status.
		if cs, ok := statuses[c.Name]; requests && ok && cs.Resources != nil {
			if p.Status.Resize == "Infeasible" {
				r = cs.Resources.Requests
			} else {
				r = maxResources(r, cs.Resources.Requests)
			}
		}
		addResources(out, r)
	}
	sidecars, inits := api.ResourceList{}, api.ResourceList{}
	for _, c := range p.Spec.InitContainers {
		r := pick(c.Resources)
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			addResources(out, r)
			addResources(sidecars, r)
			r = sidecars
		} else {
			tmp := api.ResourceList{}
			addResources(tmp, r)
			addResources(tmp, sidecars)
			r = tmp
		}
		for name, q := range r {
			if cur, ok := inits[name]; !ok || q.Cmp(cur) > 0 {
				inits[name] = q
			}
		}
	}
	for name, q := range inits {
		if cur, ok := out[name]; !ok || q.Cmp(cur) > 0 {
			out[name] = q
		}
	}
	for name, q := range p.Spec.Overhead {
		if requests {
			addResources(out, api.ResourceList{name: q})
		} else if cur, ok := out[name]; ok && !cur.IsZero() {
			cur.Add(q)
			out[name] = cur
		}
	}
	return out
}

// addResources adds each quantity of add into sum.
func addResources(sum, add api.ResourceList) {
	for name, q := range add {
		if cur, ok := sum[name]; ok {
			cur.Add(q)
			sum[name] = cur
		} else {
			sum[name] = q
		}
	}
}

// maxResources is the larger of a and b for each resource.
func maxResources(a, b api.ResourceList) api.ResourceList {
	out := api.ResourceList{}
	for name, q := range a {
		if o, ok := b[name]; ok && q.Cmp(o) <= 0 {
			out[name] = o
			continue
		}
		out[name] = q
	}
	for name, q := range b {
		if _, ok := out[name]; !ok {
			out[name] = q
		}
	}
	return out
}
