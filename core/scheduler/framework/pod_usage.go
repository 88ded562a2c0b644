package framework

import (
	"maps"
	"reflect"
	"slices"

	"kubeplay/core/api"
)

// sameNodeUsage reports that a placed pod's new version b takes from its
// node and shows the plugins exactly what a did: the same node, requests
// and host ports, affinity, labels and namespace, and still (or not yet)
// terminating. Most writes to a running pod are status writes, and for
// those the node's sums need not be taken apart and put back together.
func sameNodeUsage(a, b *api.Pod) bool {
	if a == b {
		return true
	}
	return a.Namespace == b.Namespace && a.Spec.NodeName == b.Spec.NodeName &&
		(a.DeletionTimestamp == nil) == (b.DeletionTimestamp == nil) &&
		maps.Equal(a.Labels, b.Labels) &&
		sameRequests(a, b) &&
		sameHostPorts(a.Spec.Containers, b.Spec.Containers) &&
		(a.Spec.Affinity == b.Spec.Affinity || reflect.DeepEqual(a.Spec.Affinity, b.Spec.Affinity))
}

// sameRequests reports that PodRequests gives a and b the same answer
// because everything it reads is written the same way.
func sameRequests(a, b *api.Pod) bool {
	return sameContainerRequests(a.Spec.Containers, b.Spec.Containers) &&
		sameContainerRequests(a.Spec.InitContainers, b.Spec.InitContainers) &&
		maps.Equal(a.Spec.Overhead, b.Spec.Overhead)
}

func sameContainerRequests(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !maps.Equal(a[i].Resources.Requests, b[i].Resources.Requests) {
			return false
		}
		ra, rb := a[i].RestartPolicy, b[i].RestartPolicy
		if (ra == nil) != (rb == nil) || ra != nil && *ra != *rb {
			return false
		}
	}
	return true
}

func sameHostPorts(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i].Ports, b[i].Ports) {
			return false
		}
	}
	return true
}

// ReplacePod puts cur in the place of the version of it the node holds
// when sameNodeUsage says nothing the node sums or a plugin reads has
// changed. The node's generation stays: what was worked out from it still
// holds. It reports whether it could.
func (n *NodeInfo) ReplacePod(cur *api.Pod) bool {
	for _, pi := range n.Pods {
		if samePod(pi.Pod, cur) {
			if !sameNodeUsage(pi.Pod, cur) {
				return false
			}
			pi.Pod = cur
			return true
		}
	}
	return false
}
