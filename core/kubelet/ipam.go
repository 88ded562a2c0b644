package kubelet

import (
	"fmt"
	"net/netip"
)

// ipam hands out pod IPs from the node's pod CIDR the way the host-local
// plugin does: the next free address after the last one given, skipping
// the network and gateway (.0, .1) and the broadcast address.
type ipam struct {
	byPod map[string]string
	used  map[string]bool
	last  map[string]netip.Addr // per CIDR
}

func newIPAM() *ipam {
	return &ipam{byPod: map[string]string{}, used: map[string]bool{}, last: map[string]netip.Addr{}}
}

func (a *ipam) allocate(cidr, podUID string) string {
	if ip, ok := a.byPod[podUID]; ok {
		return ip
	}
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil || !prefix.Addr().Is4() {
		return ""
	}
	prefix = prefix.Masked()
	size := 1 << (32 - prefix.Bits())
	first := prefix.Addr().Next().Next() // .2: .1 is the bridge
	cur, ok := a.last[cidr]
	if !ok {
		cur = prefix.Addr().Next()
	}
	for i := 0; i < size; i++ {
		cur = cur.Next()
		if !prefix.Contains(cur) || isBroadcast(prefix, cur) {
			cur = first
		}
		if !a.used[cur.String()] {
			a.used[cur.String()] = true
			a.byPod[podUID] = cur.String()
			a.last[cidr] = cur
			return cur.String()
		}
	}
	return ""
}

func isBroadcast(p netip.Prefix, a netip.Addr) bool {
	return !p.Contains(a.Next())
}

// reserve marks an address as taken by a pod adopted with it.
func (a *ipam) reserve(ip, podUID string) {
	a.used[ip] = true
	a.byPod[podUID] = ip
}

func (a *ipam) release(podUID string) {
	if ip, ok := a.byPod[podUID]; ok {
		delete(a.used, ip)
		delete(a.byPod, podUID)
	}
}

// String is for debugging.
func (a *ipam) String() string { return fmt.Sprintf("%d pods", len(a.byPod)) }
