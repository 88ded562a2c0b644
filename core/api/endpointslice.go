package api

// EndpointSlice is discovery.k8s.io/v1 EndpointSlice: a slice of a
// service's endpoints.
type EndpointSlice struct {
	TypeMeta    `json:",inline"`
	ObjectMeta  `json:"metadata,omitempty"`
	AddressType AddressType         `json:"addressType"`
	Endpoints   []Endpoint          `json:"endpoints"`
	Ports       []EndpointSlicePort `json:"ports"`
}

// Endpoint is one backend of an EndpointSlice.
type Endpoint struct {
	Addresses          []string           `json:"addresses"`
	Conditions         EndpointConditions `json:"conditions,omitempty"`
	Hostname           *string            `json:"hostname,omitempty"`
	TargetRef          *ObjectReference   `json:"targetRef,omitempty"`
	DeprecatedTopology map[string]string  `json:"deprecatedTopology,omitempty"`
	NodeName           *string            `json:"nodeName,omitempty"`
	Zone               *string            `json:"zone,omitempty"`
	Hints              *EndpointHints     `json:"hints,omitempty"`
}

// EndpointConditions are an endpoint's ready, serving and terminating flags.
type EndpointConditions struct {
	Ready       *bool `json:"ready,omitempty"`
	Serving     *bool `json:"serving,omitempty"`
	Terminating *bool `json:"terminating,omitempty"`
}

// EndpointHints are topology-aware routing hints.
type EndpointHints struct {
	ForZones []ForZone `json:"forZones,omitempty"`
}

// ForZone names a zone an endpoint should serve.
type ForZone struct {
	Name string `json:"name"`
}

// EndpointSlicePort is discovery/v1 EndpointPort (renamed here because
// core/v1 EndpointPort shares the package).
type EndpointSlicePort struct {
	Name        *string   `json:"name,omitempty"`
	Protocol    *Protocol `json:"protocol,omitempty"`
	Port        *int32    `json:"port,omitempty"`
	AppProtocol *string   `json:"appProtocol,omitempty"`
}

// Address types and the labels the EndpointSlice controller sets.
const (
	AddressTypeIPv4 = "IPv4"
	AddressTypeIPv6 = "IPv6"
	AddressTypeFQDN = "FQDN"

	LabelServiceName = "kubernetes.io/service-name"
	LabelManagedBy   = "endpointslice.kubernetes.io/managed-by"
)
