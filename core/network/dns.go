package network

import (
	"net/netip"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
)

// DNS record types the cluster answers.
const (
	TypeA     = "A"
	TypeAAAA  = "AAAA"
	TypeCNAME = "CNAME"
	TypePTR   = "PTR"
	TypeSRV   = "SRV"
	TypeSOA   = "SOA"
	TypeTXT   = "TXT"
	TypeNS    = "NS"
	TypeMX    = "MX"
	TypeANY   = "ANY"
)

// Response codes.
const (
	RcodeSuccess  = 0
	RcodeServFail = 2
	RcodeNXDomain = 3
)

// RcodeText names a response code as dig and nslookup print it.
func RcodeText(rcode int) string {
	switch rcode {
	case RcodeSuccess:
		return "NOERROR"
	case RcodeServFail:
		return "SERVFAIL"
	case RcodeNXDomain:
		return "NXDOMAIN"
	case 5:
		return "REFUSED"
	}
	return "RCODE" + strconv.Itoa(rcode)
}

// Record is one resource record. Name is fully qualified with the final
// dot ("web.default.svc.cluster.local.").
type Record struct {
	Name string
	TTL  int
	Type string
	// Data is the record's text as dig prints it: an address, a target
	// name with its dot, "0 100 80 web.default.svc.cluster.local.".
	Data string
}

// Answer is the reply to one question.
type Answer struct {
	Rcode int
	// Authoritative is set for names CoreDNS's kubernetes plugin owns;
	// names it forwards come back without the aa flag.
	Authoritative bool
	// RecursionAvailable is set on forwarded answers.
	RecursionAvailable bool
	Records            []Record
	// Authority holds the zone's SOA on negative answers.
	Authority []Record
}

// Query answers one question as the cluster's CoreDNS does (kind's
// Corefile: kubernetes cluster.local in-addr.arpa ip6.arpa, pods insecure,
// ttl 30, loadbalance; the rest forwarded to the node's resolver). name may
// end with a dot; case does not matter.
func (n *Network) Query(name, qtype string) Answer {
	name = canonical(name)
	qtype = strings.ToUpper(qtype)
	switch {
	case name == ClusterDomain || strings.HasSuffix(name, "."+ClusterDomain):
		return n.queryCluster(name, qtype)
	case strings.HasSuffix(name, ".in-addr.arpa"):
		return n.queryReverse(name, qtype)
	}
	return n.forward(name, qtype)
}

func canonical(name string) string {
	return strings.ToLower(strings.TrimSuffix(name, "."))
}

func fqdn(name string) string { return name + "." }

func (n *Network) soa() Record {
	return Record{Name: fqdn(ClusterDomain), TTL: DNSTTL, Type: TypeSOA,
		Data: "ns.dns." + fqdn(ClusterDomain) + " hostmaster." + fqdn(ClusterDomain) + " " + strconv.FormatInt(n.clock.Now().Unix(), 10) + " 7200 1800 86400 " + strconv.Itoa(DNSTTL)}
}

func (n *Network) nxdomain() Answer {
	return Answer{Rcode: RcodeNXDomain, Authoritative: true, Authority: []Record{n.soa()}}
}

// nodata is NOERROR with nothing of the asked type.
func (n *Network) nodata() Answer {
	return Answer{Rcode: RcodeSuccess, Authoritative: true, Authority: []Record{n.soa()}}
}

// queryCluster answers names under cluster.local.
func (n *Network) queryCluster(name, qtype string) Answer {
	rel := strings.TrimSuffix(strings.TrimSuffix(name, ClusterDomain), ".")
	labels := []string{}
	if rel != "" {
		labels = strings.Split(rel, ".")
	}
	// labels run right to left from the zone: [..., ns, "svc"] or [..., ns, "pod"].
	k := len(labels)
	if k == 0 {
		return n.nodata()
	}
	switch labels[k-1] {
	case "svc":
		return n.queryService(name, qtype, labels[:k-1])
	case "pod":
		return n.queryPod(name, qtype, labels[:k-1])
	}
	return n.nxdomain()
}

// queryService answers <svc>.<ns>.svc, <host>.<svc>.<ns>.svc and
// _<port>._<proto>.<svc>.<ns>.svc.
func (n *Network) queryService(name, qtype string, labels []string) Answer {
	k := len(labels)
	if k == 0 {
		return n.nodata()
	}
	ns := labels[k-1]
	if k == 1 {
		if n.namespaceHasServices(ns) {
			return n.nodata()
		}
		return n.nxdomain()
	}
	svc := n.service(ns, labels[k-2])
	if svc == nil {
		return n.nxdomain()
	}
	switch k {
	case 2:
		return n.serviceRecords(name, qtype, svc)
	case 3:
		return n.endpointRecords(name, qtype, svc, labels[0])
	case 4:
		if strings.HasPrefix(labels[0], "_") && strings.HasPrefix(labels[1], "_") {
			return n.portRecords(name, qtype, svc, labels[0][1:], labels[1][1:])
		}
	}
	return n.nxdomain()
}

func (n *Network) namespaceHasServices(ns string) bool {
	return len(n.services.List(ns)) > 0
}

// serviceAddresses are the A records' addresses of a service: its
// ClusterIP, or a headless service's ready endpoints.
func (n *Network) serviceAddresses(svc *api.Service) []string {
	if ips := clusterIPs(svc); len(ips) > 0 {
		return ips
	}
	var out []string
	seen := map[string]bool{}
	if ep := n.endpointsOf(svc.Namespace, svc.Name); ep != nil {
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				if !seen[a.IP] {
					seen[a.IP] = true
					out = append(out, a.IP)
				}
			}
		}
	}
	return out
}

func (n *Network) serviceRecords(name, qtype string, svc *api.Service) Answer {
	if svc.Spec.Type == api.ServiceTypeExternalName {
		target := fqdn(canonical(svc.Spec.ExternalName))
		ans := Answer{Rcode: RcodeSuccess, Authoritative: true}
		ans.Records = []Record{{Name: fqdn(name), TTL: DNSTTL, Type: TypeCNAME, Data: target}}
		return ans
	}
	addrs := n.serviceAddresses(svc)
	if len(addrs) == 0 {
		return n.nxdomain()
	}
	switch qtype {
	case TypeA, TypeANY:
		return n.addressAnswer(name, addrs)
	case TypeSRV:
		return n.srvAnswer(name, svc, "")
	}
	return n.nodata()
}

// addressAnswer builds A records, shuffled as the loadbalance plugin does.
func (n *Network) addressAnswer(name string, addrs []string) Answer {
	ans := Answer{Rcode: RcodeSuccess, Authoritative: true}
	for _, a := range addrs {
		if ip, err := netip.ParseAddr(a); err == nil && ip.Is4() {
			ans.Records = append(ans.Records, Record{Name: fqdn(name), TTL: DNSTTL, Type: TypeA, Data: a})
		}
	}
	if len(ans.Records) == 0 {
		return n.nodata()
	}
	for i := len(ans.Records) - 1; i > 0; i-- {
		j := n.rand.Intn(i + 1)
		ans.Records[i], ans.Records[j] = ans.Records[j], ans.Records[i]
	}
	return ans
}

// endpointName is the DNS label of an endpoint: its hostname, or its IP
// with dashes.
func endpointName(a api.EndpointAddress) string {
	if a.Hostname != "" {
		return a.Hostname
	}
	return strings.ReplaceAll(a.IP, ".", "-")
}

func (n *Network) endpointRecords(name, qtype string, svc *api.Service, host string) Answer {
	if len(clusterIPs(svc)) > 0 {
		return n.nxdomain()
	}
	ep := n.endpointsOf(svc.Namespace, svc.Name)
	var addrs []string
	if ep != nil {
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				if endpointName(a) == host {
					addrs = append(addrs, a.IP)
				}
			}
		}
	}
	if len(addrs) == 0 {
		return n.nxdomain()
	}
	if qtype != TypeA && qtype != TypeANY {
		return n.nodata()
	}
	return n.addressAnswer(name, addrs[:1])
}

// srvAnswer lists SRV records of a service's ports (all, or the one named).
func (n *Network) srvAnswer(name string, svc *api.Service, portName string) Answer {
	ans := Answer{Rcode: RcodeSuccess, Authoritative: true}
	base := svc.Name + "." + svc.Namespace + ".svc." + ClusterDomain
	var targets []string
	if len(clusterIPs(svc)) > 0 {
		targets = []string{fqdn(base)}
	} else if ep := n.endpointsOf(svc.Namespace, svc.Name); ep != nil {
		seen := map[string]bool{}
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				t := fqdn(endpointName(a) + "." + base)
				if !seen[t] {
					seen[t] = true
					targets = append(targets, t)
				}
			}
		}
		sort.Strings(targets)
	}
	for _, sp := range svc.Spec.Ports {
		if portName != "" && sp.Name != portName {
			continue
		}
		weight := 100
		if len(targets) > 1 {
			weight = 100 / len(targets)
		}
		for _, t := range targets {
			ans.Records = append(ans.Records, Record{Name: fqdn(name), TTL: DNSTTL, Type: TypeSRV,
				Data: "0 " + strconv.Itoa(weight) + " " + strconv.Itoa(int(sp.Port)) + " " + t})
		}
	}
	if len(ans.Records) == 0 {
		return n.nodata()
	}
	return ans
}

func (n *Network) portRecords(name, qtype string, svc *api.Service, port, proto string) Answer {
	for _, sp := range svc.Spec.Ports {
		p := string(sp.Protocol)
		if p == "" {
			p = api.ProtocolTCP
		}
		if sp.Name == port && strings.EqualFold(p, proto) {
			if qtype != TypeSRV && qtype != TypeANY {
				return n.nodata()
			}
			return n.srvAnswer(name, svc, port)
		}
	}
	return n.nxdomain()
}

// queryPod answers <a-b-c-d>.<ns>.pod: with "pods insecure" any well-formed
// dashed address answers, whether a pod has it or not.
func (n *Network) queryPod(name, qtype string, labels []string) Answer {
	if len(labels) != 2 {
		if len(labels) == 1 {
			return n.nodata()
		}
		return n.nxdomain()
	}
	ip, err := netip.ParseAddr(strings.ReplaceAll(labels[0], "-", "."))
	if err != nil || !ip.Is4() {
		return n.nxdomain()
	}
	if qtype != TypeA && qtype != TypeANY {
		return n.nodata()
	}
	return n.addressAnswer(name, []string{ip.String()})
}

// queryReverse answers PTR questions for service and endpoint addresses.
func (n *Network) queryReverse(name, qtype string) Answer {
	ip, ok := ptrToIP(name)
	if !ok {
		return n.forward(name, qtype)
	}
	var target string
	if svc := n.serviceByClusterIP(ip); svc != nil {
		target = svc.Name + "." + svc.Namespace + ".svc." + ClusterDomain
	} else {
		for _, o := range n.endpoints.List("") {
			ep := o.(*api.Endpoints)
			for _, ss := range ep.Subsets {
				for _, a := range append(append([]api.EndpointAddress{}, ss.Addresses...), ss.NotReadyAddresses...) {
					if a.IP == ip && target == "" {
						target = endpointName(a) + "." + ep.Name + "." + ep.Namespace + ".svc." + ClusterDomain
					}
				}
			}
		}
	}
	if target == "" {
		return n.forward(name, qtype)
	}
	if qtype != TypePTR && qtype != TypeANY {
		return n.nodata()
	}
	return Answer{Rcode: RcodeSuccess, Authoritative: true,
		Records: []Record{{Name: fqdn(name), TTL: DNSTTL, Type: TypePTR, Data: fqdn(target)}}}
}

// ptrToIP reads "4.3.2.1.in-addr.arpa" back into "1.2.3.4".
func ptrToIP(name string) (string, bool) {
	parts := strings.Split(strings.TrimSuffix(name, ".in-addr.arpa"), ".")
	if len(parts) != 4 {
		return "", false
	}
	for i, j := 0, 3; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	ip, err := netip.ParseAddr(strings.Join(parts, "."))
	if err != nil || !ip.Is4() {
		return "", false
	}
	return ip.String(), true
}

// ReverseName is the in-addr.arpa name of an IPv4 address.
func ReverseName(ip string) (string, bool) {
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Is4() {
		return "", false
	}
	b := a.As4()
	return strconv.Itoa(int(b[3])) + "." + strconv.Itoa(int(b[2])) + "." + strconv.Itoa(int(b[1])) + "." + strconv.Itoa(int(b[0])) + ".in-addr.arpa", true
}

// forward is what the node's resolver says about names outside the
// cluster: kind's nodes know each other by name; the sandbox has no
// Internet, so everything else does not exist.
func (n *Network) forward(name, qtype string) Answer {
	ans := Answer{Rcode: RcodeNXDomain, RecursionAvailable: true}
	if name == "localhost" {
		ans.Rcode = RcodeSuccess
		if qtype == TypeA || qtype == TypeANY {
			ans.Records = []Record{{Name: fqdn(name), TTL: DNSTTL, Type: TypeA, Data: "127.0.0.1"}}
		}
		return ans
	}
	if node, ok := n.nodes.Get("", name); ok {
		ans.Rcode = RcodeSuccess
		if ip := NodeIP(node.(*api.Node)); ip != "" && (qtype == TypeA || qtype == TypeANY) {
			ans.Records = []Record{{Name: fqdn(name), TTL: 600, Type: TypeA, Data: ip}}
		}
	}
	return ans
}
