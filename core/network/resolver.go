package network

import (
	"errors"
	"net/netip"
	"strings"

	"kubeplay/core/api"
)

// ResolvConf is a client's /etc/resolv.conf.
type ResolvConf struct {
	Nameservers []string
	Search      []string
	Ndots       int
}

// PodResolvConf is what the kubelet writes for a ClusterFirst pod.
func PodResolvConf(namespace string) ResolvConf {
	return ResolvConf{
		Nameservers: []string{DNSServiceIP},
		Search:      []string{namespace + ".svc." + ClusterDomain, "svc." + ClusterDomain, ClusterDomain},
		Ndots:       5,
	}
}

// NodeResolvConf is a kind node's: the docker network's resolver, no search.
func NodeResolvConf() ResolvConf {
	return ResolvConf{Nameservers: []string{NodeResolverIP}, Ndots: 1}
}

// String is the file's text.
func (rc ResolvConf) String() string {
	var b strings.Builder
	if len(rc.Search) > 0 {
		b.WriteString("search " + strings.Join(rc.Search, " ") + "\n")
	}
	for _, ns := range rc.Nameservers {
		b.WriteString("nameserver " + ns + "\n")
	}
	if rc.Ndots != 1 {
		b.WriteString("options ndots:" + itoa(rc.Ndots) + "\n")
	}
	return b.String()
}

// Candidates are the names a stub resolver tries for name, in order: with
// fewer dots than ndots the search list comes first, else the name as
// given; a final dot means the name alone.
func (rc ResolvConf) Candidates(name string) []string {
	if strings.HasSuffix(name, ".") {
		return []string{strings.TrimSuffix(name, ".")}
	}
	var searched []string
	for _, s := range rc.Search {
		searched = append(searched, name+"."+s)
	}
	if strings.Count(name, ".") >= rc.Ndots {
		return append([]string{name}, searched...)
	}
	return append(searched, name)
}

// DNSError is a failed lookup, worded as Go's resolver words it.
type DNSError struct {
	Name string
	// NotFound: every candidate name came back NXDOMAIN (or empty).
	NotFound bool
	// Err is the transport failure when no server answered.
	Err error
}

func (e *DNSError) Error() string {
	if e.NotFound {
		return "lookup " + e.Name + ": no such host"
	}
	return "lookup " + e.Name + ": " + e.Err.Error()
}

// Exchange sends one question to a nameserver. The cluster DNS (the
// kube-dns ClusterIP, or a CoreDNS pod) answers while CoreDNS has a ready
// endpoint; the node resolver knows the nodes; other servers never reply.
func (n *Network) Exchange(server, name, qtype string) (Answer, error) {
	addr, err := netip.ParseAddr(server)
	if err != nil {
		return Answer{}, ErrTimeout
	}
	server = addr.String()
	switch {
	case server == NodeResolverIP:
		return n.forward(canonical(name), strings.ToUpper(qtype)), nil
	case server == DNSServiceIP || n.isCoreDNSPod(server):
		if err := n.coreDNSUp(server); err != nil {
			return Answer{}, err
		}
		return n.Query(name, qtype), nil
	}
	return Answer{}, ErrTimeout
}

func (n *Network) kubeDNS() *api.Service { return n.service("kube-system", "kube-dns") }

func (n *Network) isCoreDNSPod(ip string) bool {
	ep := n.endpointsOf("kube-system", "kube-dns")
	if ep == nil {
		return false
	}
	for _, ss := range ep.Subsets {
		for _, a := range ss.Addresses {
			if a.IP == ip {
				return true
			}
		}
	}
	return false
}

// coreDNSUp reports whether DNS queries to server get an answer: a
// cluster without a kube-dns Service (a bare test cluster) always
// answers; otherwise its Service needs a ready endpoint, and kube-proxy
// rejects queries to a Service that has none.
func (n *Network) coreDNSUp(server string) error {
	svc := n.kubeDNS()
	if svc == nil || server != DNSServiceIP {
		return nil
	}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		if sp.Port == 53 && (sp.Protocol == api.ProtocolUDP || len(svc.Spec.Ports) == 1) {
			if len(n.readyEndpoints(svc, sp)) > 0 {
				return nil
			}
			return ErrConnectionRefused
		}
	}
	if len(n.serviceAddressesReady(svc)) > 0 {
		return nil
	}
	return ErrConnectionRefused
}

func (n *Network) serviceAddressesReady(svc *api.Service) []string {
	var out []string
	if ep := n.endpointsOf(svc.Namespace, svc.Name); ep != nil {
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				out = append(out, a.IP)
			}
		}
	}
	return out
}

// Lookup resolves name to IPv4 addresses through rc, trying each
// candidate name on each nameserver in turn. It returns the name that
// answered.
func (n *Network) Lookup(rc ResolvConf, name string) (found string, addrs []string, err error) {
	if ip, perr := netip.ParseAddr(name); perr == nil {
		return name, []string{ip.String()}, nil
	}
	if strings.EqualFold(strings.TrimSuffix(name, "."), "localhost") {
		return "localhost", []string{"127.0.0.1"}, nil
	}
	if !validHostname(name) {
		return "", nil, &DNSError{Name: name, NotFound: true}
	}
	var transport error
	answered := false
	for _, cand := range rc.Candidates(name) {
		for _, server := range rc.Nameservers {
			ans, xerr := n.Exchange(server, cand, TypeA)
			if xerr != nil {
				transport = xerr
				continue
			}
			answered = true
			var out []string
			target := cand
			for _, r := range ans.Records {
				switch r.Type {
				case TypeA:
					out = append(out, r.Data)
				case TypeCNAME:
					target = canonical(r.Data)
				}
			}
			if len(out) > 0 {
				return cand, out, nil
			}
			if target != cand && ans.Rcode == RcodeSuccess {
				// A CNAME out of the cluster (ExternalName): follow it once.
				if f, a, ferr := n.Lookup(ResolvConf{Nameservers: rc.Nameservers, Ndots: 1}, target+"."); ferr == nil {
					return f, a, nil
				}
			}
			break
		}
	}
	if !answered && transport != nil {
		return "", nil, &DNSError{Name: name, Err: transport}
	}
	return "", nil, &DNSError{Name: name, NotFound: true}
}

// Resolve is Lookup with a pod's resolv.conf in namespace fromNamespace
// ("" for a node's).
func (n *Network) Resolve(name, fromNamespace string) ([]string, error) {
	rc := NodeResolvConf()
	if fromNamespace != "" {
		rc = PodResolvConf(fromNamespace)
	}
	_, addrs, err := n.Lookup(rc, name)
	return addrs, err
}

// IsNotFound reports whether err is a lookup that found nothing.
func IsNotFound(err error) bool {
	var de *DNSError
	return errors.As(err, &de) && de.NotFound
}

// validHostname accepts what a stub resolver would send: dot-separated
// labels of letters, digits, '-' and '_', each 1-63 long.
func validHostname(name string) bool {
	name = strings.TrimSuffix(name, ".")
	if name == "" || len(name) > 253 {
		return false
	}
	for _, l := range strings.Split(name, ".") {
		if l == "" || len(l) > 63 {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
