package validation

import (
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/intstr"
)

// The node port range the allocator hands out from (kube-apiserver's
// --service-node-port-range default).
const (
	nodePortMin = 30000
	nodePortMax = 32767

	maxClientIPServiceAffinitySeconds = 86400
)

var (
	supportedServiceTypes    = []string{api.ServiceTypeClusterIP, api.ServiceTypeExternalName, api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort}
	supportedSessionAffinity = []string{api.ServiceAffinityClientIP, api.ServiceAffinityNone}
	supportedTrafficPolicies = []string{api.ServiceExternalTrafficPolicyCluster, api.ServiceExternalTrafficPolicyLocal}
)

func isHeadlessService(s *api.Service) bool {
	return len(s.Spec.ClusterIPs) == 1 && s.Spec.ClusterIPs[0] == api.ClusterIPNone ||
		len(s.Spec.ClusterIPs) == 0 && s.Spec.ClusterIP == api.ClusterIPNone
}

// servicePortKey prints a (protocol, port) pair as upstream's %#v of the
// core.ServicePort it uses as a map key.
type servicePortKey struct {
	protocol string
	port     int32
}

func (k servicePortKey) String() string {
	return fmt.Sprintf(`core.ServicePort{Name:"", Protocol:%q, AppProtocol:(*string)(nil), Port:%d, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`, k.protocol, k.port)
}

func serviceProtocol(p string) string {
	if p == "" {
		return api.ProtocolTCP // defaulted
	}
	return p
}

// ValidateService checks a Service (create, and the whole object on update).
func ValidateService(svc *api.Service) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMeta(&svc.ObjectMeta, true, NameIsDNS1035Label, metaPath)
	specPath := field.NewPath("spec")
	spec := &svc.Spec
	headless := isHeadlessService(svc)
	if len(spec.Ports) == 0 && !headless && spec.Type != api.ServiceTypeExternalName {
		errs = append(errs, field.Required(specPath.Child("ports"), ""))
	}
	errs = append(errs, validateServiceTypeFields(spec, headless, specPath)...)
	names := map[string]bool{}
	portsPath := specPath.Child("ports")
	for i := range spec.Ports {
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, portsPath.Index(i))...)
	}
	if spec.Selector != nil {
		errs = append(errs, ValidateLabels(spec.Selector, specPath.Child("selector"))...)
	}
	errs = append(errs, validateSessionAffinity(spec, specPath)...)
	errs = append(errs, validateClusterIPsRelatedFields(svc)...)
	errs = append(errs, validateExternalIPs(spec.ExternalIPs, specPath.Child("externalIPs"))...)
	if t := spec.Type; t != "" && !contains(supportedServiceTypes, t) {
		errs = append(errs, field.NotSupported(specPath.Child("type"), t, supportedServiceTypes))
	}
	errs = append(errs, validateServicePortSet(spec, portsPath)...)
	errs = append(errs, validateLoadBalancerFields(spec, specPath)...)
	errs = append(errs, validateTrafficPolicies(spec, specPath)...)
	errs = append(errs, validateNodePortRange(spec.Ports, portsPath)...)
	return errs
}

// validateServiceTypeFields checks what a service's type rules out.
func validateServiceTypeFields(spec *api.ServiceSpec, headless bool, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch spec.Type {
	case api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort:
		if headless {
			errs = append(errs, field.Invalid(specPath.Child("clusterIPs").Index(0), api.ClusterIPNone,
				"may not be set to 'None' for "+spec.Type+" services"))
		}
	case api.ServiceTypeExternalName:
		if len(spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(specPath.Child("clusterIPs"), "may not be set for ExternalName services"))
		}
		if len(spec.IPFamilies) > 0 {
			errs = append(errs, field.Forbidden(specPath.Child("ipFamilies"), "may not be set for ExternalName services"))
		}
		if spec.IPFamilyPolicy != nil {
			errs = append(errs, field.Forbidden(specPath.Child("ipFamilyPolicy"), "may not be set for ExternalName services"))
		}
		if cname := strings.TrimSuffix(spec.ExternalName, "."); cname != "" {
			errs = append(errs, validateDNS1123Subdomain(cname, specPath.Child("externalName"))...)
		} else {
			errs = append(errs, field.Required(specPath.Child("externalName"), ""))
		}
	}
	return errs
}

func validateSessionAffinity(spec *api.ServiceSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sa := spec.SessionAffinity; sa != "" && !contains(supportedSessionAffinity, sa) {
		errs = append(errs, field.NotSupported(specPath.Child("sessionAffinity"), sa, supportedSessionAffinity))
	}
	switch spec.SessionAffinity {
	case api.ServiceAffinityClientIP:
		// A missing config is defaulted (10800s).
		if c := spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
			if t := *c.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPServiceAffinitySeconds {
				errs = append(errs, field.Invalid(specPath.Child("sessionAffinityConfig").Child("clientIP").Child("timeoutSeconds"), t,
					fmt.Sprintf("must be greater than 0 and less than %d", maxClientIPServiceAffinitySeconds)))
			}
		}
	case api.ServiceAffinityNone:
		if spec.SessionAffinityConfig != nil {
			errs = append(errs, field.Forbidden(specPath.Child("sessionAffinityConfig"), "must not be set when session affinity is None"))
		}
	}
	return errs
}

func validateExternalIPs(ips []string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ip := range ips {
		p := fldPath.Index(i)
		if !isValidIP(ip) {
			errs = append(errs, field.Invalid(p, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
		} else {
			errs = append(errs, validateNonSpecialIP(ip, p)...)
		}
	}
	return errs
}

// validateServicePortSet checks the ports together: node ports a
// ClusterIP service may not have, and ports and node ports given twice.
func validateServicePortSet(spec *api.ServiceSpec, portsPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.Type == api.ServiceTypeClusterIP || spec.Type == "" {
		for i := range spec.Ports {
			if spec.Ports[i].NodePort != 0 {
				errs = append(errs, field.Forbidden(portsPath.Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	nodePorts := map[servicePortKey]bool{}
	for i, p := range spec.Ports {
		if p.NodePort == 0 {
			continue
		}
		k := servicePortKey{serviceProtocol(p.Protocol), p.NodePort}
		if nodePorts[k] {
			errs = append(errs, field.Duplicate(portsPath.Index(i).Child("nodePort"), p.NodePort))
		}
		nodePorts[k] = true
	}
	ports := map[servicePortKey]bool{}
	for i, p := range spec.Ports {
		k := servicePortKey{serviceProtocol(p.Protocol), p.Port}
		if ports[k] {
			errs = append(errs, field.Duplicate(portsPath.Index(i), k))
		}
		ports[k] = true
	}
	return errs
}

func validateLoadBalancerFields(spec *api.ServiceSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.LoadBalancerSourceRanges) > 0 {
		p := specPath.Child("LoadBalancerSourceRanges")
		if spec.Type != api.ServiceTypeLoadBalancer {
			errs = append(errs, field.Forbidden(p, "may only be used when `type` is 'LoadBalancer'"))
		}
		for i, v := range spec.LoadBalancerSourceRanges {
			if v = strings.TrimSpace(v); !isValidCIDR(v) {
				errs = append(errs, field.Invalid(p.Index(i), v, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"))
			}
		}
	}
	if spec.AllocateLoadBalancerNodePorts != nil && spec.Type != api.ServiceTypeLoadBalancer {
		errs = append(errs, field.Forbidden(specPath.Child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
	}
	if spec.LoadBalancerClass != nil {
		if spec.Type == api.ServiceTypeLoadBalancer {
			errs = append(errs, validateQualifiedName(*spec.LoadBalancerClass, specPath.Child("loadBalancerClass"))...)
		} else {
			errs = append(errs, field.Forbidden(specPath.Child("loadBalancerClass"), "may only be used when `type` is 'LoadBalancer'"))
		}
	}
	return errs
}

func validateTrafficPolicies(spec *api.ServiceSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	externallyAccessible := spec.Type == api.ServiceTypeLoadBalancer || spec.Type == api.ServiceTypeNodePort ||
		(spec.Type == api.ServiceTypeClusterIP || spec.Type == "") && len(spec.ExternalIPs) > 0
	if !externallyAccessible {
		if spec.ExternalTrafficPolicy != "" {
			errs = append(errs, field.Invalid(specPath.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, "may only be set for externally-accessible services"))
		}
	} else if p := spec.ExternalTrafficPolicy; p != "" && !contains(supportedTrafficPolicies, p) {
		errs = append(errs, field.NotSupported(specPath.Child("externalTrafficPolicy"), p, supportedTrafficPolicies))
	}
	needsHealthCheck := spec.Type == api.ServiceTypeLoadBalancer && spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal
	if !needsHealthCheck && spec.HealthCheckNodePort != 0 {
		errs = append(errs, field.Invalid(specPath.Child("healthCheckNodePort"), spec.HealthCheckNodePort,
			"may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
	} else if needsHealthCheck && spec.HealthCheckNodePort != 0 {
		for _, m := range IsValidPortNum(int(spec.HealthCheckNodePort)) {
			errs = append(errs, field.Invalid(specPath.Child("healthCheckNodePort"), spec.HealthCheckNodePort, m))
		}
	}
	if p := spec.InternalTrafficPolicy; p != nil && !contains(supportedTrafficPolicies, *p) {
		errs = append(errs, field.NotSupported(specPath.Child("internalTrafficPolicy"), *p, supportedTrafficPolicies))
	}
	if td := spec.TrafficDistribution; td != nil && *td != "PreferClose" {
		errs = append(errs, field.NotSupported(specPath.Child("trafficDistribution"), *td, []string{"PreferClose"}))
	}
	return errs
}

func validateNodePortRange(ports []api.ServicePort, portsPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	// The node port allocator's range check (it runs before validation upstream).
	for i, p := range ports {
		if p.NodePort != 0 && (p.NodePort < nodePortMin || p.NodePort > nodePortMax) {
			errs = append(errs, field.Invalid(portsPath.Index(i).Child("nodePort"), p.NodePort,
				fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d", nodePortMin, nodePortMax)))
		}
	}
	return errs
}

func validateServicePort(sp *api.ServicePort, requireName bool, names map[string]bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && sp.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	} else if sp.Name != "" {
		errs = append(errs, validateDNS1123Label(sp.Name, fldPath.Child("name"))...)
		if names[sp.Name] {
			errs = append(errs, field.Duplicate(fldPath.Child("name"), sp.Name))
		} else {
			names[sp.Name] = true
		}
	}
	for _, m := range IsValidPortNum(int(sp.Port)) {
		errs = append(errs, field.Invalid(fldPath.Child("port"), sp.Port, m))
	}
	if sp.Protocol != "" && !contains(supportedPortProtocols, sp.Protocol) {
		errs = append(errs, field.NotSupported(fldPath.Child("protocol"), sp.Protocol, supportedPortProtocols))
	}
	// An unset targetPort is defaulted to the port.
	if !(sp.TargetPort.Type == intstr.Int && sp.TargetPort.IntVal == 0) {
		errs = append(errs, ValidatePortNumOrName(sp.TargetPort, fldPath.Child("targetPort"))...)
	}
	if sp.AppProtocol != nil {
		errs = append(errs, validateQualifiedName(*sp.AppProtocol, fldPath.Child("appProtocol"))...)
	}
	return errs
}

func validateNonSpecialIP(s string, fldPath *field.Path) field.ErrorList {
	ip := parseIPSloppy(s)
	if ip == nil {
		return field.ErrorList{field.Invalid(fldPath, s, "must be a valid IP address")}
	}
	var errs field.ErrorList
	if ip.IsUnspecified() {
		errs = append(errs, field.Invalid(fldPath, s, fmt.Sprintf("may not be unspecified (%v)", s)))
	}
	if ip.IsLoopback() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	}
	if ip.IsLinkLocalUnicast() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	}
	if ip.IsLinkLocalMulticast() {
		errs = append(errs, field.Invalid(fldPath, s, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

func validateClusterIPsRelatedFields(svc *api.Service) field.ErrorList {
	spec := &svc.Spec
	if spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	var errs field.ErrorList
	specPath := field.NewPath("spec")
	ipsPath := specPath.Child("clusterIPs")
	if spec.ClusterIP != "" {
		if len(spec.ClusterIPs) == 0 {
			errs = append(errs, field.Required(ipsPath, ""))
		} else if spec.ClusterIPs[0] != spec.ClusterIP {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "first value must match `clusterIP`"))
		}
	} else if len(spec.ClusterIPs) != 0 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[string]bool{}
	for i, f := range spec.IPFamilies {
		if f != api.IPv4Protocol && f != api.IPv6Protocol {
			errs = append(errs, field.NotSupported(specPath.Child("ipFamilies").Index(i), f, []string{api.IPv4Protocol, api.IPv6Protocol}))
		}
		if seen[f] {
			errs = append(errs, field.Duplicate(specPath.Child("ipFamilies").Index(i), f))
		}
		seen[f] = true
	}
	if p := spec.IPFamilyPolicy; p != nil {
		valid := []string{api.IPFamilyPolicyPreferDualStack, api.IPFamilyPolicyRequireDualStack, api.IPFamilyPolicySingleStack}
		if !contains(valid, *p) {
			errs = append(errs, field.NotSupported(specPath.Child("ipFamilyPolicy"), *p, valid))
		}
	}
	bad := false
	for i, ip := range spec.ClusterIPs {
		if i == 0 && ip == api.ClusterIPNone {
			if len(spec.ClusterIPs) > 1 {
				bad = true
				errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "'None' must be the first and only value"))
			}
			continue
		}
		if !isValidIP(ip) {
			bad = true
			errs = append(errs, field.Invalid(ipsPath.Index(i), ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
		}
	}
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may only hold up to 2 values"))
	}
	if bad {
		return errs
	}
	if len(spec.ClusterIPs) > 1 {
		v4 := 0
		for _, ip := range spec.ClusterIPs {
			if parseIPSloppy(ip).To4() != nil {
				v4++
			}
		}
		if v4 != 1 || len(spec.ClusterIPs) != 2 {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may specify no more than one IP for each IP family"))
		}
	}
	if !isHeadlessService(svc) {
		for i, ip := range spec.ClusterIPs {
			if i >= len(spec.IPFamilies) {
				break
			}
			is6 := parseIPSloppy(ip).To4() == nil
			if spec.IPFamilies[i] == api.IPv4Protocol && is6 {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i)))
			}
			if spec.IPFamilies[i] == api.IPv6Protocol && !is6 {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i)))
			}
		}
	}
	return errs
}

// ValidateServiceUpdate checks an update: cluster IPs, IP families and the
// load balancer class may not change once set.
func ValidateServiceUpdate(svc, old *api.Service) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	ipsPath := field.NewPath("spec").Child("clusterIPs")
	if svc.Spec.Type != api.ServiceTypeExternalName && old.Spec.Type != api.ServiceTypeExternalName &&
		!(isHeadlessService(svc) && isHeadlessService(old)) {
		n, o := svc.Spec.ClusterIPs, old.Spec.ClusterIPs
		switch {
		case len(o) == len(n):
			for i := range o {
				if o[i] != n[i] {
					errs = append(errs, field.Invalid(ipsPath.Index(i), n, "may not change once set"))
				}
			}
		case len(o) > len(n):
			if len(n) == 0 {
				errs = append(errs, field.Invalid(ipsPath.Index(0), n, "primary clusterIP can not be unset"))
			}
			if len(o) > 0 && len(n) > 0 && n[0] != o[0] {
				errs = append(errs, field.Invalid(ipsPath.Index(0), n, "may not change once set"))
			}
			if len(n) == 1 && (svc.Spec.IPFamilyPolicy == nil || *svc.Spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack) {
				errs = append(errs, field.Invalid(field.NewPath("spec").Child("ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary clusterIP"))
			}
		default:
			if len(o) > 0 && n[0] != o[0] {
				errs = append(errs, field.Invalid(ipsPath.Index(0), n, "may not change once set"))
			}
		}
	}
	if svc.Spec.Type != api.ServiceTypeExternalName && old.Spec.Type != api.ServiceTypeExternalName &&
		isHeadlessService(svc) == isHeadlessService(old) && !isHeadlessService(svc) {
		n, o := svc.Spec.IPFamilies, old.Spec.IPFamilies
		famPath := field.NewPath("spec").Child("ipFamilies").Index(0)
		switch {
		case len(o) == len(n):
			for i := range o {
				if o[i] != n[i] {
					errs = append(errs, field.Invalid(famPath, n, "may not change once set"))
				}
			}
		case len(o) > len(n):
			if len(svc.Spec.ClusterIPs) == 0 {
				errs = append(errs, field.Invalid(famPath, n, "primary ipFamily can not be unset"))
			}
			if len(n) > 0 && n[0] != o[0] {
				errs = append(errs, field.Invalid(famPath, svc.Spec.ClusterIPs, "may not change once set"))
			}
			if len(n) == 1 && (svc.Spec.IPFamilyPolicy == nil || *svc.Spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack) {
				errs = append(errs, field.Invalid(field.NewPath("spec").Child("ipFamilyPolicy"), svc.Spec.IPFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary ipFamily"))
			}
		default:
			if len(o) > 0 && len(n) > 0 && n[0] != o[0] {
				errs = append(errs, field.Invalid(famPath, svc.Spec.ClusterIPs, "may not change once set"))
			}
		}
	}
	if svc.Spec.Type == api.ServiceTypeLoadBalancer && old.Spec.Type == api.ServiceTypeLoadBalancer &&
		!api.SemanticEqual(svc.Spec.LoadBalancerClass, old.Spec.LoadBalancerClass) {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("loadBalancerClass"), svc.Spec.LoadBalancerClass, "may not change once set"))
	}
	needs := func(s *api.Service) bool {
		return s.Spec.Type == api.ServiceTypeLoadBalancer && s.Spec.ExternalTrafficPolicy == api.ServiceExternalTrafficPolicyLocal
	}
	if needs(old) && needs(svc) && svc.Spec.HealthCheckNodePort != old.Spec.HealthCheckNodePort {
		errs = append(errs, field.Forbidden(field.NewPath("spec").Child("healthCheckNodePort"), "field is immutable"))
	}
	return append(errs, ValidateService(svc)...)
}
