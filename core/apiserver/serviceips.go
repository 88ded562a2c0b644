package apiserver

import (
	"fmt"
	"net/netip"
	"slices"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/field"
	"kubeplay/core/clock"
)

// serviceIPs allocates ClusterIPs from 10.96.0.0/12 and node ports from
// 30000-32767, at random like the real allocators (from the seeded source).
type serviceIPs struct {
	rand *clock.Rand
}

var serviceCIDR = netip.MustParsePrefix("10.96.0.0/12")

func newServiceIPs(r *clock.Rand) *serviceIPs {
	return &serviceIPs{rand: r}
}

func (a *serviceIPs) allocate(s *Server, svc *api.Service) error {
	initIPFamilyFields(svc, nil)
	path := field.NewPath("spec").Child("clusterIPs").Index(0)
	switch ip := svc.Spec.ClusterIP; {
	case svc.Spec.Type == api.ServiceTypeExternalName:
		// An alias for a DNS name gets no cluster IP.
	case ip == "None":
		svc.Spec.ClusterIPs = []string{"None"}
	case ip != "":
		addr, err := netip.ParseAddr(ip)
		if err != nil || !serviceCIDR.Contains(addr) {
			return apierrors.NewInvalid(apierrors.GroupKind{Kind: "Service"}, svc.Name, field.ErrorList{field.Invalid(path, ip, "provided IP is not in the valid range. The range of valid IPs is "+serviceCIDR.String())})
		}
		if a.inUse(s, addr) {
			return apierrors.NewInvalid(apierrors.GroupKind{Kind: "Service"}, svc.Name, field.ErrorList{field.Invalid(path, ip, "provided IP is already allocated")})
		}
		svc.Spec.ClusterIPs = []string{ip}
	default:
		size := 1 << (32 - serviceCIDR.Bits())
		base := serviceCIDR.Addr().As4()
		start := uint32(base[0])<<24 | uint32(base[1])<<16 | uint32(base[2])<<8 | uint32(base[3])
		for tries := 0; ; tries++ {
			// Skip the network address and the first IP, which belongs to
			// the kubernetes Service.
			off := uint32(2 + a.rand.Intn(size-3))
			v := start + off
			addr := netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
			if !a.inUse(s, addr) {
				svc.Spec.ClusterIP = addr.String()
				svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
				break
			}
			if tries > size {
				return apierrors.NewInternalError(fmt.Errorf("range is full"))
			}
		}
	}
	if svc.Spec.Type == api.ServiceTypeNodePort || svc.Spec.Type == api.ServiceTypeLoadBalancer {
		for i := range svc.Spec.Ports {
			if svc.Spec.Ports[i].NodePort == 0 {
				svc.Spec.Ports[i].NodePort = a.nodePort(s)
			}
		}
	}
	return nil
}

func (a *serviceIPs) inUse(s *Server, addr netip.Addr) bool {
	res, _ := s.Registry.Get("", "services")
	for _, o := range s.storeFor(res).objects {
		if o.(*api.Service).Spec.ClusterIP == addr.String() {
			return true
		}
	}
	return false
}

func (a *serviceIPs) nodePort(s *Server) int32 {
	res, _ := s.Registry.Get("", "services")
	used := map[int32]bool{}
	for _, o := range s.storeFor(res).objects {
		for _, p := range o.(*api.Service).Spec.Ports {
			used[p.NodePort] = true
		}
	}
	for {
		p := int32(30000 + a.rand.Intn(2768))
		if !used[p] {
			return p
		}
	}
}

// initIPFamilyFields defaults ipFamilyPolicy and ipFamilies as the service
// allocator of a single-stack IPv4 cluster does: an update keeps the
// policy it had; a new service is SingleStack, except a headless one
// without a selector, which asks for both families (it has no IPs of its
// own, so validation lets it); families not given are the cluster's IPv4.
func initIPFamilyFields(svc, old *api.Service) {
	if svc.Spec.Type == api.ServiceTypeExternalName {
		// Turning into an ExternalName service drops the fields it was
		// given by default, unless the update itself changes them.
		if old != nil && old.Spec.Type != api.ServiceTypeExternalName {
			if svc.Spec.IPFamilyPolicy != nil && old.Spec.IPFamilyPolicy != nil && *svc.Spec.IPFamilyPolicy == *old.Spec.IPFamilyPolicy {
				svc.Spec.IPFamilyPolicy = nil
			}
			if slices.Equal(svc.Spec.IPFamilies, old.Spec.IPFamilies) {
				svc.Spec.IPFamilies = nil
			}
		}
		return
	}
	headlessNoSelector := svc.Spec.ClusterIP == api.ClusterIPNone && len(svc.Spec.Selector) == 0
	if svc.Spec.IPFamilyPolicy == nil {
		p := api.IPFamilyPolicy(api.IPFamilyPolicySingleStack)
		switch {
		case old != nil && old.Spec.IPFamilyPolicy != nil:
			p = *old.Spec.IPFamilyPolicy
		case headlessNoSelector:
			p = api.IPFamilyPolicyRequireDualStack
		}
		svc.Spec.IPFamilyPolicy = &p
	}
	if len(svc.Spec.IPFamilies) == 0 && old != nil && len(old.Spec.IPFamilies) > 0 && svc.Spec.ClusterIP == old.Spec.ClusterIP {
		svc.Spec.IPFamilies = append([]api.IPFamily(nil), old.Spec.IPFamilies...)
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
	}
	if headlessNoSelector && len(svc.Spec.IPFamilies) == 1 && *svc.Spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack {
		other := api.IPFamily(api.IPv6Protocol)
		if svc.Spec.IPFamilies[0] == api.IPv6Protocol {
			other = api.IPv4Protocol
		}
		svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, other)
	}
}
