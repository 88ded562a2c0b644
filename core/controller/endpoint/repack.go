package endpoint

import (
	"bytes"
	"crypto/md5"
	"sort"
	"strings"

	"kubeplay/core/api"
)

// RepackSubsets expands subsets to one (address, port) pair each and packs
// them again in the canonical layout: addresses that serve the same ports
// share a subset, an address not ready on a port stays not ready, and
// everything is sorted. Headless services without ports keep their
// addresses in port-less subsets.
func RepackSubsets(subsets []api.EndpointSubset) []api.EndpointSubset {
	type addrKey struct{ ip, uid string }
	// A port of -1 stands for "no ports" so port-less addresses survive.
	const noPort = -1
	var addrOrder []addrKey
	addrs := map[addrKey]*api.EndpointAddress{}
	var portOrder []api.EndpointPort
	byPort := map[api.EndpointPort]map[addrKey]bool{} // address → ready
	note := func(a *api.EndpointAddress, port api.EndpointPort, ready bool) {
		k := addrKey{ip: a.IP}
		if a.TargetRef != nil {
			k.uid = a.TargetRef.UID
		}
		if _, ok := addrs[k]; !ok {
			cp := *a
			addrs[k] = &cp
			addrOrder = append(addrOrder, k)
		}
		set, ok := byPort[port]
		if !ok {
			set = map[addrKey]bool{}
			byPort[port] = set
			portOrder = append(portOrder, port)
		}
		// Not ready on any subset wins over ready.
		if was, seen := set[k]; !seen || was {
			set[k] = ready
		}
	}
	for i := range subsets {
		ports := subsets[i].Ports
		if len(ports) == 0 {
			ports = []api.EndpointPort{{Port: noPort}}
		}
		for _, p := range ports {
			for k := range subsets[i].Addresses {
				note(&subsets[i].Addresses[k], p, true)
			}
			for k := range subsets[i].NotReadyAddresses {
				note(&subsets[i].NotReadyAddresses[k], p, false)
			}
		}
	}
	// Group ports by the exact set of (address, readiness) behind them.
	groupKey := func(set map[addrKey]bool) string {
		var parts []string
		for k, ready := range set {
			r := "0"
			if ready {
				r = "1"
			}
			parts = append(parts, k.ip+"\x00"+k.uid+"\x00"+r)
		}
		sort.Strings(parts)
		return strings.Join(parts, "\x01")
	}
	var groupOrder []string
	groups := map[string][]api.EndpointPort{}
	sets := map[string]map[addrKey]bool{}
	for _, p := range portOrder {
		g := groupKey(byPort[p])
		if _, ok := groups[g]; !ok {
			groupOrder = append(groupOrder, g)
			sets[g] = byPort[p]
		}
		groups[g] = append(groups[g], p)
	}
	final := []api.EndpointSubset{}
	for _, g := range groupOrder {
		var ready, notReady []api.EndpointAddress
		for _, k := range addrOrder {
			r, ok := sets[g][k]
			switch {
			case !ok:
			case r:
				ready = append(ready, *addrs[k])
			default:
				notReady = append(notReady, *addrs[k])
			}
		}
		ports := groups[g]
		if len(ports) == 1 && ports[0].Port == noPort {
			ports = nil
		}
		final = append(final, api.EndpointSubset{Addresses: ready, NotReadyAddresses: notReady, Ports: ports})
	}
	return SortSubsets(final)
}

// LessEndpointAddress orders addresses by IP (as bytes, so 10.0.0.10 sorts
// before 10.0.0.2, as upstream's does), then by the uid they point at.
func LessEndpointAddress(a, b *api.EndpointAddress) bool {
	if c := strings.Compare(a.IP, b.IP); c != 0 {
		return c < 0
	}
	if b.TargetRef == nil {
		return false
	}
	if a.TargetRef == nil {
		return true
	}
	return a.TargetRef.UID < b.TargetRef.UID
}

// SortSubsets sorts addresses, ports and subsets in place, the latter two
// by the md5 of their hash printing, as upstream orders them, so a
// multi-port service lists its ports in the order a real cluster does.
func SortSubsets(subsets []api.EndpointSubset) []api.EndpointSubset {
	for i := range subsets {
		ss := &subsets[i]
		sort.SliceStable(ss.Addresses, func(a, b int) bool { return LessEndpointAddress(&ss.Addresses[a], &ss.Addresses[b]) })
		sort.SliceStable(ss.NotReadyAddresses, func(a, b int) bool {
			return LessEndpointAddress(&ss.NotReadyAddresses[a], &ss.NotReadyAddresses[b])
		})
		sortByHash(ss.Ports, func(p api.EndpointPort) string { return hashPrintPort(p, true) })
	}
	sortByHash(subsets, hashPrintSubset)
	return subsets
}

func sortByHash[T any](items []T, print func(T) string) {
	sums := make([][16]byte, len(items))
	for i, it := range items {
		sums[i] = md5.Sum([]byte(print(it)))
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return bytes.Compare(sums[idx[a]][:], sums[idx[b]][:]) < 0 })
	sorted := make([]T, len(items))
	for i, j := range idx {
		sorted[i] = items[j]
	}
	copy(items, sorted)
}
