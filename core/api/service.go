package api

import "kubeplay/core/api/intstr"

// Service is a stable virtual IP and DNS name for a set of pods.
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ServiceSpec   `json:"spec,omitempty"`
	Status     ServiceStatus `json:"status,omitempty"`
}

// ServiceSpec is a service's ports, selector and addressing.
type ServiceSpec struct {
	Ports                         []ServicePort                 `json:"ports,omitempty"`
	Selector                      map[string]string             `json:"selector,omitempty"`
	ClusterIP                     string                        `json:"clusterIP,omitempty"`
	ClusterIPs                    []string                      `json:"clusterIPs,omitempty"`
	Type                          ServiceType                   `json:"type,omitempty"`
	ExternalIPs                   []string                      `json:"externalIPs,omitempty"`
	SessionAffinity               ServiceAffinity               `json:"sessionAffinity,omitempty"`
	LoadBalancerIP                string                        `json:"loadBalancerIP,omitempty"`
	LoadBalancerSourceRanges      []string                      `json:"loadBalancerSourceRanges,omitempty"`
	ExternalName                  string                        `json:"externalName,omitempty"`
	ExternalTrafficPolicy         ServiceExternalTrafficPolicy  `json:"externalTrafficPolicy,omitempty"`
	HealthCheckNodePort           int32                         `json:"healthCheckNodePort,omitempty"`
	PublishNotReadyAddresses      bool                          `json:"publishNotReadyAddresses,omitempty"`
	SessionAffinityConfig         *SessionAffinityConfig        `json:"sessionAffinityConfig,omitempty"`
	IPFamilies                    []IPFamily                    `json:"ipFamilies,omitempty"`
	IPFamilyPolicy                *IPFamilyPolicy               `json:"ipFamilyPolicy,omitempty"`
	AllocateLoadBalancerNodePorts *bool                         `json:"allocateLoadBalancerNodePorts,omitempty"`
	LoadBalancerClass             *string                       `json:"loadBalancerClass,omitempty"`
	InternalTrafficPolicy         *ServiceInternalTrafficPolicy `json:"internalTrafficPolicy,omitempty"`
	TrafficDistribution           *string                       `json:"trafficDistribution,omitempty"`
}

// ServicePort maps a service port to a target port of the pods.
type ServicePort struct {
	Name        string             `json:"name,omitempty"`
	Protocol    Protocol           `json:"protocol,omitempty"`
	AppProtocol *string            `json:"appProtocol,omitempty"`
	Port        int32              `json:"port"`
	TargetPort  intstr.IntOrString `json:"targetPort,omitempty"`
	NodePort    int32              `json:"nodePort,omitempty"`
}

// SessionAffinityConfig tunes ClientIP session affinity.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig is how long a client sticks to one endpoint.
type ClientIPConfig struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// ServiceStatus is the load balancer's state and conditions.
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer,omitempty"`
	Conditions   []Condition        `json:"conditions,omitempty"`
}

// LoadBalancerStatus lists a load balancer's ingress points.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty"`
}

// LoadBalancerIngress is one ingress point of a load balancer.
type LoadBalancerIngress struct {
	IP       string              `json:"ip,omitempty"`
	Hostname string              `json:"hostname,omitempty"`
	IPMode   *LoadBalancerIPMode `json:"ipMode,omitempty"`
	Ports    []PortStatus        `json:"ports,omitempty"`
}

// PortStatus reports an error on one load balancer port.
type PortStatus struct {
	Port     int32    `json:"port"`
	Protocol Protocol `json:"protocol"`
	Error    *string  `json:"error,omitempty"`
}

// Service types, affinities, policies and families.
const (
	ServiceTypeClusterIP    = "ClusterIP"
	ServiceTypeNodePort     = "NodePort"
	ServiceTypeLoadBalancer = "LoadBalancer"
	ServiceTypeExternalName = "ExternalName"

	// ClusterIPNone makes a headless service.
	ClusterIPNone = "None"

	ServiceAffinityClientIP = "ClientIP"
	ServiceAffinityNone     = "None"

	DefaultClientIPServiceAffinitySeconds int32 = 10800

	ServiceInternalTrafficPolicyCluster = "Cluster"
	ServiceInternalTrafficPolicyLocal   = "Local"
	ServiceExternalTrafficPolicyCluster = "Cluster"
	ServiceExternalTrafficPolicyLocal   = "Local"

	IPv4Protocol    = "IPv4"
	IPv6Protocol    = "IPv6"
	IPFamilyUnknown = ""

	IPFamilyPolicySingleStack      = "SingleStack"
	IPFamilyPolicyPreferDualStack  = "PreferDualStack"
	IPFamilyPolicyRequireDualStack = "RequireDualStack"

	LoadBalancerIPModeVIP   = "VIP"
	LoadBalancerIPModeProxy = "Proxy"
)
