// Package network is the cluster's network as a pure function of the API
// objects: pod addresses (host-local IPAM per node), kube-proxy's routing
// of Service IPs and node ports to endpoints, CoreDNS's answers, and the
// tools (curl, wget, nslookup, dig) a terminal or a container runs on it.
// Requests reach containers through a Backend the kubelets implement.
package network

import (
	"net/netip"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// Cluster-wide addressing, as kind sets it up.
const (
	ClusterDomain = "cluster.local"
	// DNSServiceIP is the kube-dns Service's ClusterIP, every pod's nameserver.
	DNSServiceIP = "10.96.0.10"
	// DNSTTL is the TTL of CoreDNS's answers (kind's Corefile: ttl 30).
	DNSTTL = 30
	// NodeResolverIP is the nameserver of kind's nodes (the docker
	// network's gateway), which knows the node names.
	NodeResolverIP = "172.18.0.1"
)

// PodCIDR is the cluster's pod network (kind's default).
var PodCIDR = netip.MustParsePrefix("10.244.0.0/16")

const (
	podIPIndex     = "network.podIP"
	clusterIPIndex = "network.clusterIP"
)

// Network answers routing and DNS questions from the informers' caches.
// It holds no copy of cluster state, so it is never stale.
type Network struct {
	services  *client.Informer
	endpoints *client.Informer
	pods      *client.Informer
	nodes     *client.Informer
	clock     *clock.Clock
	// rand is the network's own stream, split off the cluster's seed at
	// construction, so load balancing does not shift generated names.
	rand    *clock.Rand
	backend Backend
}

// New builds the network on ctx's informers; backend delivers requests to
// containers (nil: every connection is refused).
func New(ctx *controller.Context, backend Backend) *Network {
	n := &Network{
		services:  client.InformerFor[*api.Service](ctx.Informers),
		endpoints: client.InformerFor[*api.Endpoints](ctx.Informers),
		pods:      client.InformerFor[*api.Pod](ctx.Informers),
		nodes:     client.InformerFor[*api.Node](ctx.Informers),
		clock:     ctx.Clock,
		rand:      ctx.Rand.Split("network"),
		backend:   backend,
	}
	n.pods.AddIndexer(podIPIndex, func(o api.Object, into []string) []string {
		p := o.(*api.Pod)
		if p.Status.PodIP == "" || p.Spec.HostNetwork || api.IsPodTerminal(p) {
			return into
		}
		return append(into, p.Status.PodIP)
	})
	n.services.AddIndexer(clusterIPIndex, func(o api.Object, into []string) []string {
		return append(into, clusterIPs(o.(*api.Service))...)
	})
	return n
}

// SetBackend replaces the backend (the simulation sets it once its
// kubelets exist).
func (n *Network) SetBackend(b Backend) { n.backend = b }

func clusterIPs(s *api.Service) []string {
	ips := s.Spec.ClusterIPs
	if len(ips) == 0 && s.Spec.ClusterIP != "" {
		ips = []string{s.Spec.ClusterIP}
	}
	var out []string
	for _, ip := range ips {
		if ip != "" && ip != api.ClusterIPNone {
			out = append(out, ip)
		}
	}
	return out
}

// podByIP is the running pod with this IP (host-network pods excluded).
func (n *Network) podByIP(ip string) *api.Pod {
	// A terminating pod keeps its address until its sandbox is gone.
	for _, o := range n.pods.ByIndex(podIPIndex, ip) {
		return o.(*api.Pod)
	}
	return nil
}

func (n *Network) serviceByClusterIP(ip string) *api.Service {
	for _, o := range n.services.ByIndex(clusterIPIndex, ip) {
		return o.(*api.Service)
	}
	return nil
}

// NodeIP is a node's InternalIP ("" when it has none yet).
func NodeIP(node *api.Node) string {
	for _, a := range node.Status.Addresses {
		if a.Type == api.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}

// nodeByIP is the node whose InternalIP is ip.
func (n *Network) nodeByIP(ip string) *api.Node {
	for _, o := range n.nodes.List("") {
		if node := o.(*api.Node); NodeIP(node) == ip {
			return node
		}
	}
	return nil
}

func (n *Network) service(namespace, name string) *api.Service {
	o, ok := n.services.Get(namespace, name)
	if !ok {
		return nil
	}
	return o.(*api.Service)
}

func (n *Network) endpointsOf(namespace, name string) *api.Endpoints {
	o, ok := n.endpoints.Get(namespace, name)
	if !ok {
		return nil
	}
	return o.(*api.Endpoints)
}

// backend endpoint of a service port: where kube-proxy may send a packet.
type backendEndpoint struct {
	ip       string
	port     int
	nodeName string
}

// readyEndpoints lists the ready endpoints behind one port of a service,
// sorted as kube-proxy orders its rules ("ip:port" as strings).
func (n *Network) readyEndpoints(svc *api.Service, sp *api.ServicePort) []backendEndpoint {
	ep := n.endpointsOf(svc.Namespace, svc.Name)
	if ep == nil {
		return nil
	}
	var out []backendEndpoint
	seen := map[string]bool{}
	for _, ss := range ep.Subsets {
		for _, p := range ss.Ports {
			if p.Name != sp.Name || (p.Protocol != "" && sp.Protocol != "" && p.Protocol != sp.Protocol) {
				continue
			}
			for _, a := range ss.Addresses {
				key := a.IP + ":" + itoa(int(p.Port))
				if seen[key] {
					continue
				}
				seen[key] = true
				node := ""
				if a.NodeName != nil {
					node = *a.NodeName
				}
				out = append(out, backendEndpoint{ip: a.IP, port: int(p.Port), nodeName: node})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].ip+":"+itoa(out[i].port) < out[j].ip+":"+itoa(out[j].port)
	})
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}
