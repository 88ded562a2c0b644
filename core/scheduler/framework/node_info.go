package framework

import (
	"kubeplay/core/api"
)

// NodeInfo is a node with the pods the scheduler believes run on it (bound
// and assumed), and what they use. Plugins read it; only the cache writes it.
type NodeInfo struct {
	node *api.Node
	// name, unschedulable and taints are the node's, kept beside the
	// pointer so that the filters and scorers that read only these do not
	// reach into the node object (another cache miss per node in a big
	// cluster). Node objects never change, so the copies stay true.
	name          string
	unschedulable bool
	taints        []api.Taint

	Pods                         []*PodInfo
	PodsWithAffinity             []*PodInfo
	PodsWithRequiredAntiAffinity []*PodInfo
	UsedPorts                    HostPortInfo
	// Requested sums the pods' requests; NonZeroRequested does too but
	// counts a missing cpu or memory request as the scoring default.
	Requested        *Resource
	NonZeroRequested *Resource
	Allocatable      *Resource
	// ImageStates are the node's images with how many nodes hold each.
	ImageStates map[string]*ImageStateSummary
	// Generation grows on every change, so a snapshot copies only changed nodes.
	Generation int64
	// slot places the NodeInfo in the plugins' NodeMemos (zero: none). It
	// belongs to the NodeInfo, not to what it holds: Clone leaves it out.
	slot int
}

// ImageStateSummary is an image on a node: its size and its spread.
type ImageStateSummary struct {
	Size     int64
	NumNodes int
}

// NewNodeInfo builds a NodeInfo holding pods (and no node yet).
func NewNodeInfo(pods ...*api.Pod) *NodeInfo {
	ni := &NodeInfo{
		Requested:        &Resource{},
		NonZeroRequested: &Resource{},
		Allocatable:      &Resource{},
		UsedPorts:        HostPortInfo{},
		ImageStates:      map[string]*ImageStateSummary{},
	}
	for _, p := range pods {
		ni.AddPod(p)
	}
	return ni
}

// Node is the node object (nil while only its pods are known).
func (n *NodeInfo) Node() *api.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// SetNode sets the node object and its allocatable resources.
func (n *NodeInfo) SetNode(node *api.Node) {
	n.node = node
	n.name, n.unschedulable, n.taints = node.Name, node.Spec.Unschedulable, node.Spec.Taints
	n.Allocatable = NewResource(node.Status.Allocatable)
}

// RemoveNode forgets the node object, keeping its pods.
func (n *NodeInfo) RemoveNode() {
	n.node = nil
	n.name, n.unschedulable, n.taints = "", false, nil
}

// NodeName is the node's name ("" while the node is not known).
func (n *NodeInfo) NodeName() string { return n.name }

// Unschedulable is the node's spec.unschedulable.
func (n *NodeInfo) Unschedulable() bool { return n.unschedulable }

// Taints are the node's spec.taints (shared: not to be changed).
func (n *NodeInfo) Taints() []api.Taint { return n.taints }

// Clone copies the NodeInfo; pod and node objects are shared.
func (n *NodeInfo) Clone() *NodeInfo {
	out := &NodeInfo{
		node:             n.node,
		name:             n.name,
		unschedulable:    n.unschedulable,
		taints:           n.taints,
		Requested:        n.Requested.Clone(),
		NonZeroRequested: n.NonZeroRequested.Clone(),
		Allocatable:      n.Allocatable.Clone(),
		UsedPorts:        make(HostPortInfo, len(n.UsedPorts)),
		ImageStates:      make(map[string]*ImageStateSummary, len(n.ImageStates)),
		Generation:       n.Generation,
	}
	out.Pods = append([]*PodInfo(nil), n.Pods...)
	out.PodsWithAffinity = append([]*PodInfo(nil), n.PodsWithAffinity...)
	out.PodsWithRequiredAntiAffinity = append([]*PodInfo(nil), n.PodsWithRequiredAntiAffinity...)
	for ip, ports := range n.UsedPorts {
		m := make(map[ProtocolPort]bool, len(ports))
		for k, v := range ports {
			m[k] = v
		}
		out.UsedPorts[ip] = m
	}
	for k, v := range n.ImageStates {
		s := *v
		out.ImageStates[k] = &s
	}
	return out
}

// AddPod adds a pod and what it uses.
func (n *NodeInfo) AddPod(pod *api.Pod) { n.AddPodInfo(NewPodInfo(pod)) }

// AddPodInfo adds a parsed pod and what it uses.
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	if hasAffinity(pi.Pod) {
		n.PodsWithAffinity = append(n.PodsWithAffinity, pi)
	}
	if len(pi.RequiredAntiAffinityTerms) > 0 {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, pi)
	}
	n.update(pi, 1)
}

// RemovePod removes the pod with pod's namespace and name; it reports
// whether the pod was there.
func (n *NodeInfo) RemovePod(pod *api.Pod) bool {
	n.PodsWithAffinity = removeFrom(n.PodsWithAffinity, pod)
	n.PodsWithRequiredAntiAffinity = removeFrom(n.PodsWithRequiredAntiAffinity, pod)
	for i, pi := range n.Pods {
		if samePod(pi.Pod, pod) {
			n.update(pi, -1)
			n.Pods = append(n.Pods[:i:i], n.Pods[i+1:]...)
			return true
		}
	}
	return false
}

func samePod(a, b *api.Pod) bool {
	if a.UID != "" && b.UID != "" {
		return a.UID == b.UID
	}
	return a.Namespace == b.Namespace && a.Name == b.Name
}

func removeFrom(list []*PodInfo, pod *api.Pod) []*PodInfo {
	for i, pi := range list {
		if samePod(pi.Pod, pod) {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

func hasAffinity(pod *api.Pod) bool {
	a := pod.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

// update adds (sign 1) or subtracts (sign -1) the pod's use of the node.
func (n *NodeInfo) update(pi *PodInfo, sign int64) {
	// A changed NodeInfo is a new generation even outside the cache (which
	// numbers its own), so nothing keyed on the generation goes stale.
	n.Generation++
	pod := pi.Pod
	req, nonZero := pi.resources()
	n.Requested.MilliCPU += sign * req.MilliCPU
	n.Requested.Memory += sign * req.Memory
	n.Requested.EphemeralStorage += sign * req.EphemeralStorage
	for name, v := range req.ScalarResources {
		if n.Requested.ScalarResources == nil {
			n.Requested.ScalarResources = map[string]int64{}
		}
		n.Requested.ScalarResources[name] += sign * v
	}
	n.NonZeroRequested.MilliCPU += sign * nonZero.MilliCPU
	n.NonZeroRequested.Memory += sign * nonZero.Memory
	for _, ctr := range pod.Spec.Containers {
		for _, p := range ctr.Ports {
			if sign > 0 {
				n.UsedPorts.Add(p.HostIP, p.Protocol, p.HostPort)
			} else {
				n.UsedPorts.Remove(p.HostIP, p.Protocol, p.HostPort)
			}
		}
	}
}

// ProtocolPort is a host port and its protocol.
type ProtocolPort struct {
	Protocol string
	Port     int32
}

// HostPortInfo is the host ports in use, by host IP.
type HostPortInfo map[string]map[ProtocolPort]bool

const defaultHostIP = "0.0.0.0"

func sanitize(ip, protocol string) (string, string) {
	if ip == "" {
		ip = defaultHostIP
	}
	if protocol == "" {
		protocol = "TCP"
	}
	return ip, protocol
}

// Add records a used host port (port 0 means none).
func (h HostPortInfo) Add(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if h[ip] == nil {
		h[ip] = map[ProtocolPort]bool{}
	}
	h[ip][ProtocolPort{protocol, port}] = true
}

// Remove forgets a used host port.
func (h HostPortInfo) Remove(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if m := h[ip]; m != nil {
		delete(m, ProtocolPort{protocol, port})
		if len(m) == 0 {
			delete(h, ip)
		}
	}
}

// CheckConflict reports whether the port is taken: 0.0.0.0 conflicts
// with the same port on every IP, any other IP with itself and 0.0.0.0.
func (h HostPortInfo) CheckConflict(ip, protocol string, port int32) bool {
	if port <= 0 {
		return false
	}
	ip, protocol = sanitize(ip, protocol)
	pp := ProtocolPort{protocol, port}
	if ip == defaultHostIP {
		for _, m := range h {
			if m[pp] {
				return true
			}
		}
		return false
	}
	return h[ip][pp] || h[defaultHostIP][pp]
}
