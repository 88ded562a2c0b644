package endpointslice

import (
	"encoding/hex"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
)

// sortPorts orders a slice's ports as upstream does: by the fnv-128a hash
// of each port's go-spew "%#v" printing.
func sortPorts(ports []api.EndpointSlicePort) {
	keys := make([]string, len(ports))
	for i, p := range ports {
		keys[i] = portHash(p)
	}
	idx := make([]int, len(ports))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([]api.EndpointSlicePort, len(ports))
	for i, j := range idx {
		sorted[i] = ports[j]
	}
	copy(ports, sorted)
}

func portHash(p api.EndpointSlicePort) string {
	h := fnv.New128a()
	h.Write([]byte("(v1.EndpointPort)" + printPort(p)))
	return hex.EncodeToString(h.Sum(nil))
}

// printPort is go-spew's printing of a discovery/v1 EndpointPort's fields.
func printPort(p api.EndpointSlicePort) string {
	var b strings.Builder
	b.WriteString("{Name:(*string)")
	if p.Name == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(*p.Name)
	}
	b.WriteString(" Port:(*int32)")
	if p.Port == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(strconv.Itoa(int(*p.Port)))
	}
	b.WriteString(" Protocol:(*v1.Protocol)")
	if p.Protocol == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(string(*p.Protocol))
	}
	b.WriteString(" AppProtocol:(*string)")
	if p.AppProtocol == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(*p.AppProtocol)
	}
	b.WriteByte('}')
	return b.String()
}

// portsKey identifies a set of ports (already sorted).
func portsKey(ports []api.EndpointSlicePort) string {
	var b strings.Builder
	for _, p := range ports {
		b.WriteString(printPort(p))
		b.WriteByte(';')
	}
	return b.String()
}
