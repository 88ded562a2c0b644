package defaults

import (
	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
)

// defaultService is SetDefaults_Service. Cluster IPs, ipFamilies and
// ipFamilyPolicy are not defaults: the registry allocates them on create.
func defaultService(svc *api.Service) {
	spec := &svc.Spec
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = api.ServiceAffinityNone
	}
	if spec.SessionAffinity == api.ServiceAffinityNone {
		spec.SessionAffinityConfig = nil
	}
	if spec.SessionAffinity == api.ServiceAffinityClientIP {
		c := spec.SessionAffinityConfig
		if c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			spec.SessionAffinityConfig = &api.SessionAffinityConfig{
				ClientIP: &api.ClientIPConfig{TimeoutSeconds: ptr(api.DefaultClientIPServiceAffinitySeconds)},
			}
		}
	}
	if spec.Type == "" {
		spec.Type = api.ServiceTypeClusterIP
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = api.ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if externallyAccessible(spec) && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = api.ServiceExternalTrafficPolicyCluster
	}
	if spec.InternalTrafficPolicy == nil {
		switch spec.Type {
		case api.ServiceTypeClusterIP, api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer:
			spec.InternalTrafficPolicy = ptr(api.ServiceInternalTrafficPolicyCluster)
		}
	}
	if spec.Type == api.ServiceTypeLoadBalancer {
		if spec.AllocateLoadBalancerNodePorts == nil {
			spec.AllocateLoadBalancerNodePorts = ptr(true)
		}
		for i := range svc.Status.LoadBalancer.Ingress {
			if ing := &svc.Status.LoadBalancer.Ingress[i]; ing.IP != "" && ing.IPMode == nil {
				ing.IPMode = ptr(api.LoadBalancerIPModeVIP)
			}
		}
	}
}

// externallyAccessible: reachable from outside the cluster through node
// ports, a load balancer or external IPs.
func externallyAccessible(spec *api.ServiceSpec) bool {
	return spec.Type == api.ServiceTypeLoadBalancer || spec.Type == api.ServiceTypeNodePort ||
		(spec.Type == api.ServiceTypeClusterIP && len(spec.ExternalIPs) > 0)
}

func defaultEndpoints(ep *api.Endpoints) {
	for i := range ep.Subsets {
		for j := range ep.Subsets[i].Ports {
			if p := &ep.Subsets[i].Ports[j]; p.Protocol == "" {
				p.Protocol = api.ProtocolTCP
			}
		}
	}
}

// defaultEndpointSlice is discovery/v1's: ports get a name ("") and protocol.
func defaultEndpointSlice(s *api.EndpointSlice) {
	for i := range s.Ports {
		p := &s.Ports[i]
		if p.Name == nil {
			p.Name = ptr("")
		}
		if p.Protocol == nil {
			p.Protocol = ptr(api.ProtocolTCP)
		}
	}
}
