package network

import (
	"net/netip"

	"kubeplay/core/api"
)

// Route says where a TCP connection to ip:port ends up, as kube-proxy's
// iptables rules and the pod network deliver it:
//   - a Service's ClusterIP and port: one ready endpoint, picked at random
//     as the KUBE-SVC chain's statistic rules do; refused when the service
//     has no ready endpoint (kube-proxy's REJECT), lost when the service
//     has no such port;
//   - a pod IP: that pod;
//   - a node IP: a NodePort service's endpoint, a pod's hostPort on that
//     node, or else the node itself (its daemons, host-network pods);
//   - loopback: itself;
//   - a pod-network address no pod has: unreachable; anything else: lost.
func (n *Network) Route(ip string, port int) (podIP string, targetPort int, err error) {
	addr, perr := netip.ParseAddr(ip)
	if perr != nil || port <= 0 || port > 65535 {
		return "", 0, ErrTimeout
	}
	ip = addr.String()
	if addr.IsLoopback() {
		return ip, port, nil
	}
	if svc := n.serviceByClusterIP(ip); svc != nil {
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			if int(sp.Port) == port && isTCP(sp.Protocol) {
				return n.pick(n.readyEndpoints(svc, sp))
			}
		}
		return "", 0, ErrTimeout
	}
	if p := n.podByIP(ip); p != nil {
		return ip, port, nil
	}
	if node := n.nodeByIP(ip); node != nil {
		return n.routeNodePort(node, ip, port)
	}
	if PodCIDR.Contains(addr) {
		return "", 0, ErrHostUnreachable
	}
	return "", 0, ErrTimeout
}

func isTCP(p api.Protocol) bool { return p == "" || p == api.ProtocolTCP }

// pick chooses an endpoint as iptables' random-probability chain does:
// the i-th of n rules matches with probability 1/(n-i).
func (n *Network) pick(eps []backendEndpoint) (string, int, error) {
	if len(eps) == 0 {
		return "", 0, ErrConnectionRefused
	}
	for i := 0; i < len(eps)-1; i++ {
		if n.rand.Float64() < 1/float64(len(eps)-i) {
			return eps[i].ip, eps[i].port, nil
		}
	}
	last := eps[len(eps)-1]
	return last.ip, last.port, nil
}

// routeNodePort delivers a connection to a node's address.
func (n *Network) routeNodePort(node *api.Node, nodeIP string, port int) (string, int, error) {
	for _, o := range n.services.List("") {
		svc := o.(*api.Service)
		if svc.Spec.Type != api.ServiceTypeNodePort && svc.Spec.Type != api.ServiceTypeLoadBalancer {
			continue
		}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			if int(sp.NodePort) != port || !isTCP(sp.Protocol) {
				continue
			}
			eps := n.readyEndpoints(svc, sp)
			if svc.Spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal {
				// Only this node's endpoints; without one the packet is dropped.
				var local []backendEndpoint
				for _, e := range eps {
					if e.nodeName == node.Name {
						local = append(local, e)
					}
				}
				if len(local) == 0 {
					return "", 0, ErrTimeout
				}
				eps = local
			}
			return n.pick(eps)
		}
	}
	// hostPort: the CNI portmap plugin forwards the node's port to the pod.
	for _, o := range n.pods.List("") {
		p := o.(*api.Pod)
		if p.Spec.NodeName != node.Name || p.Status.PodIP == "" || api.IsPodTerminal(p) {
			continue
		}
		for _, c := range p.Spec.Containers {
			for _, cp := range c.Ports {
				if int(cp.HostPort) != port || !isTCP(cp.Protocol) || (cp.HostIP != "" && cp.HostIP != "0.0.0.0" && cp.HostIP != nodeIP) {
					continue
				}
				if p.Spec.HostNetwork {
					return nodeIP, int(cp.ContainerPort), nil
				}
				return p.Status.PodIP, int(cp.ContainerPort), nil
			}
		}
	}
	return nodeIP, port, nil
}
