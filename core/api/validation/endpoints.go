package validation

import (
	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateEndpoints checks an Endpoints object.
func ValidateEndpoints(ep *api.Endpoints) field.ErrorList {
	errs := ValidateObjectMeta(&ep.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	for i := range ep.Subsets {
		ss := &ep.Subsets[i]
		p := field.NewPath("subsets").Index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(p, "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, validateEndpointAddress(&ss.Addresses[j], p.Child("addresses").Index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, validateEndpointAddress(&ss.NotReadyAddresses[j], p.Child("notReadyAddresses").Index(j))...)
		}
		for j, port := range ss.Ports {
			pp := p.Child("ports").Index(j)
			if len(ss.Ports) > 1 && port.Name == "" {
				errs = append(errs, field.Required(pp.Child("name"), ""))
			} else if port.Name != "" {
				errs = append(errs, validateDNS1123Label(port.Name, pp.Child("name"))...)
			}
			for _, m := range IsValidPortNum(int(port.Port)) {
				errs = append(errs, field.Invalid(pp.Child("port"), port.Port, m))
			}
			if port.Protocol != "" && !contains(supportedPortProtocols, port.Protocol) {
				errs = append(errs, field.NotSupported(pp.Child("protocol"), port.Protocol, supportedPortProtocols))
			}
		}
	}
	return errs
}

func validateEndpointAddress(a *api.EndpointAddress, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !isValidIP(a.IP) {
		errs = append(errs, field.Invalid(fldPath.Child("ip"), a.IP, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"))
	}
	if a.Hostname != "" {
		errs = append(errs, validateDNS1123Label(a.Hostname, fldPath.Child("hostname"))...)
	}
	if a.NodeName != nil {
		for _, m := range NameIsDNSSubdomain(*a.NodeName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("nodeName"), *a.NodeName, m))
		}
	}
	return append(errs, validateNonSpecialIP(a.IP, fldPath.Child("ip"))...)
}

// ValidateEndpointSlice checks the parts of an EndpointSlice the cluster writes.
func ValidateEndpointSlice(es *api.EndpointSlice) field.ErrorList {
	errs := ValidateObjectMeta(&es.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	types := []string{api.AddressTypeFQDN, api.AddressTypeIPv4, api.AddressTypeIPv6}
	if !contains(types, es.AddressType) {
		errs = append(errs, field.NotSupported(field.NewPath("addressType"), es.AddressType, types))
	}
	for i, ep := range es.Endpoints {
		p := field.NewPath("endpoints").Index(i)
		if len(ep.Addresses) == 0 {
			errs = append(errs, field.Required(p.Child("addresses"), "must contain at least 1 address"))
		}
	}
	return errs
}
