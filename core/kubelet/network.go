package kubelet

import (
	"sort"
	"strings"

	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/network"
	"kubeplay/core/shell"
)

// podNet gives a container's shell the network tools as the pod sees the
// network: its namespace's DNS search path, its own address, and the
// nslookup its image ships (busybox's or BIND's).
type podNet struct {
	n       *network.Network
	src     network.Source
	busybox bool
}

func (p podNet) Register(sh *shell.Shell, _ string) {
	style := network.NslookupBind
	if p.busybox {
		style = network.NslookupBusybox
	}
	p.n.RegisterTools(sh, p.src, style)
}

func (k *Kubelet) podNetwork(ps *podState, im *runtime.Image) runtime.Network {
	if k.opts.Network == nil {
		return nil
	}
	src := network.PodSource(ps.pod.Namespace, ps.ip)
	if ps.pod.Spec.HostNetwork {
		src = network.NodeSource(k.opts.NodeIP)
	}
	return podNet{n: k.opts.Network, src: src, busybox: im.Busybox}
}

// ServeIP delivers a request to whatever listens at ip:port on this node:
// a pod's containers (by pod IP) or a host-network pod (by node IP).
// found reports whether the address belongs to this node at all.
func (k *Kubelet) ServeIP(ip string, port int, req *runtime.Request) (resp *runtime.Response, found bool) {
	uids := make([]string, 0, len(k.pods))
	for uid := range k.pods {
		uids = append(uids, uid)
	}
	sort.Strings(uids)
	for _, uid := range uids {
		ps := k.pods[uid]
		if ps.ip != ip || !ps.sandboxReady {
			continue
		}
		if r, ok := k.podHTTP(ps, port, req); ok {
			return r, true
		}
	}
	return nil, ip == k.opts.NodeIP || strings.HasPrefix(ip, "127.")
}
