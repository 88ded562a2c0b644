package network

import (
	"fmt"
	"net/netip"
)

// PodIPAllocator is one node's pod address pool, handed out as the CNI
// host-local plugin does over the node's podCIDR (kind's kindnet uses it):
// .0 is the network and .1 the gateway, so the first pod gets .2; each
// allocation takes the next free address after the last one handed out,
// wrapping round before the broadcast address, so a released address is
// reused only once the pool has gone round.
type PodIPAllocator struct {
	subnet netip.Prefix
	first  netip.Addr // lowest address handed out
	last   netip.Addr // highest address handed out
	prev   netip.Addr // last reserved, where the next search starts
	byPod  map[string]netip.Addr
	owner  map[netip.Addr]string
}

// NewPodIPAllocator returns the pool of an IPv4 podCIDR ("10.244.1.0/24").
func NewPodIPAllocator(podCIDR string) (*PodIPAllocator, error) {
	p, err := netip.ParsePrefix(podCIDR)
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR address: %s", podCIDR)
	}
	p = p.Masked()
	if !p.Addr().Is4() || p.Bits() > 30 {
		return nil, fmt.Errorf("podCIDR %s is too small or not IPv4", podCIDR)
	}
	a := &PodIPAllocator{subnet: p, byPod: map[string]netip.Addr{}, owner: map[netip.Addr]string{}}
	a.first = p.Addr().Next().Next()
	a.last = broadcast(p).Prev()
	a.prev = a.last // so the first search starts at first
	return a, nil
}

func broadcast(p netip.Prefix) netip.Addr {
	b := p.Addr().As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v |= uint32((uint64(1) << (32 - p.Bits())) - 1)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// Subnet is the pool's podCIDR.
func (a *PodIPAllocator) Subnet() string { return a.subnet.String() }

// Allocate returns the address of a pod (by uid), taking a new one for a
// pod that has none. A full pool is an error worded as host-local's.
func (a *PodIPAllocator) Allocate(podUID string) (string, error) {
	if ip, ok := a.byPod[podUID]; ok {
		return ip.String(), nil
	}
	cur := a.prev
	for {
		cur = cur.Next()
		if cur.Compare(a.last) > 0 || cur.Compare(a.first) < 0 {
			cur = a.first
		}
		if _, taken := a.owner[cur]; !taken {
			a.owner[cur] = podUID
			a.byPod[podUID] = cur
			a.prev = cur
			return cur.String(), nil
		}
		if cur == a.prev {
			return "", fmt.Errorf("failed to allocate for range 0: no IP addresses available in range set: %s-%s", a.first, a.last)
		}
	}
}

// Reserve records an address a pod already has (after a restart), if it
// is in the pool and free.
func (a *PodIPAllocator) Reserve(ip, podUID string) error {
	addr, err := netip.ParseAddr(ip)
	if err != nil || !a.subnet.Contains(addr) || addr.Compare(a.first) < 0 || addr.Compare(a.last) > 0 {
		return fmt.Errorf("requested IP address %s is not available in range set %s-%s", ip, a.first, a.last)
	}
	if owner, taken := a.owner[addr]; taken && owner != podUID {
		return fmt.Errorf("requested IP address %s is not available in range set %s-%s", ip, a.first, a.last)
	}
	if old, ok := a.byPod[podUID]; ok && old != addr {
		delete(a.owner, old)
	}
	a.owner[addr] = podUID
	a.byPod[podUID] = addr
	return nil
}

// Release frees a pod's address; unknown pods are ignored.
func (a *PodIPAllocator) Release(podUID string) {
	if ip, ok := a.byPod[podUID]; ok {
		delete(a.owner, ip)
		delete(a.byPod, podUID)
	}
}

// Lookup returns a pod's address, if it has one.
func (a *PodIPAllocator) Lookup(podUID string) (string, bool) {
	ip, ok := a.byPod[podUID]
	if !ok {
		return "", false
	}
	return ip.String(), true
}

// Len is the number of addresses in use.
func (a *PodIPAllocator) Len() int { return len(a.byPod) }
