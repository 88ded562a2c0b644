package api

// Node is a machine that runs pods; its kubelet reports its status.
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       NodeSpec   `json:"spec,omitempty"`
	Status     NodeStatus `json:"status,omitempty"`
}

// NodeSpec is what the cluster asks of a node.
type NodeSpec struct {
	PodCIDR            string            `json:"podCIDR,omitempty"`
	PodCIDRs           []string          `json:"podCIDRs,omitempty"`
	ProviderID         string            `json:"providerID,omitempty"`
	Unschedulable      bool              `json:"unschedulable,omitempty"`
	Taints             []Taint           `json:"taints,omitempty"`
	ConfigSource       *NodeConfigSource `json:"configSource,omitempty"`
	DoNotUseExternalID string            `json:"externalID,omitempty"`
}

// NodeConfigSource is the deprecated dynamic kubelet config reference.
type NodeConfigSource struct {
	ConfigMap *ConfigMapNodeConfigSource `json:"configMap,omitempty"`
}

// ConfigMapNodeConfigSource names the config map of a NodeConfigSource.
type ConfigMapNodeConfigSource struct {
	Namespace        string `json:"namespace"`
	Name             string `json:"name"`
	UID              string `json:"uid,omitempty"`
	ResourceVersion  string `json:"resourceVersion,omitempty"`
	KubeletConfigKey string `json:"kubeletConfigKey"`
}

// NodeStatus is what the kubelet reports about its node.
type NodeStatus struct {
	Capacity        ResourceList         `json:"capacity,omitempty"`
	Allocatable     ResourceList         `json:"allocatable,omitempty"`
	Phase           NodePhase            `json:"phase,omitempty"`
	Conditions      []NodeCondition      `json:"conditions,omitempty"`
	Addresses       []NodeAddress        `json:"addresses,omitempty"`
	DaemonEndpoints NodeDaemonEndpoints  `json:"daemonEndpoints,omitempty"`
	NodeInfo        NodeSystemInfo       `json:"nodeInfo,omitempty"`
	Images          []ContainerImage     `json:"images,omitempty"`
	VolumesInUse    []UniqueVolumeName   `json:"volumesInUse,omitempty"`
	VolumesAttached []AttachedVolume     `json:"volumesAttached,omitempty"`
	Config          *NodeConfigStatus    `json:"config,omitempty"`
	RuntimeHandlers []NodeRuntimeHandler `json:"runtimeHandlers,omitempty"`
	Features        *NodeFeatures        `json:"features,omitempty"`
}

// NodeCondition is one entry of a node's status.conditions.
type NodeCondition struct {
	Type               NodeConditionType `json:"type"`
	Status             ConditionStatus   `json:"status"`
	LastHeartbeatTime  Time              `json:"lastHeartbeatTime,omitempty"`
	LastTransitionTime Time              `json:"lastTransitionTime,omitempty"`
	Reason             string            `json:"reason,omitempty"`
	Message            string            `json:"message,omitempty"`
}

// Node phases, condition types and address types.
const (
	NodePending    = "Pending"
	NodeRunning    = "Running"
	NodeTerminated = "Terminated"

	NodeReady              = "Ready"
	NodeMemoryPressure     = "MemoryPressure"
	NodeDiskPressure       = "DiskPressure"
	NodePIDPressure        = "PIDPressure"
	NodeNetworkUnavailable = "NetworkUnavailable"

	NodeHostName    = "Hostname"
	NodeInternalIP  = "InternalIP"
	NodeExternalIP  = "ExternalIP"
	NodeInternalDNS = "InternalDNS"
	NodeExternalDNS = "ExternalDNS"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type"`
	Address string          `json:"address"`
}

// NodeDaemonEndpoints lists the ports of daemons on the node.
type NodeDaemonEndpoints struct {
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitempty"`
}

// DaemonEndpoint is a daemon's port. The capitalised "Port" is upstream's
// historical wire name.
type DaemonEndpoint struct {
	Port int32 `json:"Port"`
}

// NodeSystemInfo describes the node's software.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID"`
	SystemUUID              string `json:"systemUUID"`
	BootID                  string `json:"bootID"`
	KernelVersion           string `json:"kernelVersion"`
	OSImage                 string `json:"osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion"`
	KubeProxyVersion        string `json:"kubeProxyVersion"`
	OperatingSystem         string `json:"operatingSystem"`
	Architecture            string `json:"architecture"`
}

// ContainerImage is an image present on the node.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}

// AttachedVolume is a volume attached to the node.
type AttachedVolume struct {
	Name       UniqueVolumeName `json:"name"`
	DevicePath string           `json:"devicePath"`
}

// NodeConfigStatus reports the deprecated dynamic kubelet config.
type NodeConfigStatus struct {
	Assigned      *NodeConfigSource `json:"assigned,omitempty"`
	Active        *NodeConfigSource `json:"active,omitempty"`
	LastKnownGood *NodeConfigSource `json:"lastKnownGood,omitempty"`
	Error         string            `json:"error,omitempty"`
}

// NodeRuntimeHandler is a runtime handler and its features.
type NodeRuntimeHandler struct {
	Name     string                      `json:"name"`
	Features *NodeRuntimeHandlerFeatures `json:"features,omitempty"`
}

// NodeRuntimeHandlerFeatures are the features of a runtime handler.
type NodeRuntimeHandlerFeatures struct {
	RecursiveReadOnlyMounts *bool `json:"recursiveReadOnlyMounts,omitempty"`
	UserNamespaces          *bool `json:"userNamespaces,omitempty"`
}

// NodeFeatures are features the node's kubelet implements.
type NodeFeatures struct {
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty"`
}

// GetNodeCondition returns the index and a pointer into status.Conditions of
// the condition of type t, or -1 and nil.
func GetNodeCondition(status *NodeStatus, t string) (int, *NodeCondition) {
	if status == nil {
		return -1, nil
	}
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return i, &status.Conditions[i]
		}
	}
	return -1, nil
}

// IsNodeReady reports whether the node's Ready condition is True.
func IsNodeReady(node *Node) bool {
	if node == nil {
		return false
	}
	_, c := GetNodeCondition(&node.Status, NodeReady)
	return c != nil && c.Status == ConditionTrue
}
