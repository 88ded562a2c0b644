package kubelet

import "kubeplay/core/network"

// podIPs hands out pod addresses from network's host-local pools, one per
// podCIDR: the node's CIDR may arrive after the kubelet starts (nodeipam
// assigns it), so pods can hold addresses from more than one pool.
type podIPs struct {
	pools map[string]*network.PodIPAllocator
}

func newPodIPs() *podIPs {
	return &podIPs{pools: map[string]*network.PodIPAllocator{}}
}

func (p *podIPs) pool(cidr string) (*network.PodIPAllocator, error) {
	if a, ok := p.pools[cidr]; ok {
		return a, nil
	}
	a, err := network.NewPodIPAllocator(cidr)
	if err != nil {
		return nil, err
	}
	p.pools[cidr] = a
	return a, nil
}

// allocate returns the pod's address, taking a new one from cidr's pool.
func (p *podIPs) allocate(cidr, podUID string) (string, error) {
	for _, a := range p.pools {
		if ip, ok := a.Lookup(podUID); ok {
			return ip, nil
		}
	}
	a, err := p.pool(cidr)
	if err != nil {
		return "", err
	}
	return a.Allocate(podUID)
}

// reserve marks an address as taken by a pod adopted with it.
func (p *podIPs) reserve(cidr, ip, podUID string) {
	if a, err := p.pool(cidr); err == nil {
		_ = a.Reserve(ip, podUID) // an address outside the pool is the pod's own affair
	}
}

func (p *podIPs) release(podUID string) {
	for _, a := range p.pools {
		a.Release(podUID)
	}
}
