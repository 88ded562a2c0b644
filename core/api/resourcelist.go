package api

import "kubeplay/core/api/resource"

// ResourceList maps a resource name ("cpu", "memory", "pods") to a quantity.
type ResourceList map[ResourceName]resource.Quantity

// Resource names of compute resources and of quota.
const (
	ResourceCPU              = "cpu"
	ResourceMemory           = "memory"
	ResourceStorage          = "storage"
	ResourceEphemeralStorage = "ephemeral-storage"
	ResourcePods             = "pods"

	ResourceServices                 = "services"
	ResourceReplicationControllers   = "replicationcontrollers"
	ResourceQuotas                   = "resourcequotas"
	ResourceSecrets                  = "secrets"
	ResourceConfigMaps               = "configmaps"
	ResourcePersistentVolumeClaims   = "persistentvolumeclaims"
	ResourceServicesNodePorts        = "services.nodeports"
	ResourceServicesLoadBalancers    = "services.loadbalancers"
	ResourceRequestsCPU              = "requests.cpu"
	ResourceRequestsMemory           = "requests.memory"
	ResourceRequestsStorage          = "requests.storage"
	ResourceRequestsEphemeralStorage = "requests.ephemeral-storage"
	ResourceLimitsCPU                = "limits.cpu"
	ResourceLimitsMemory             = "limits.memory"
	ResourceLimitsEphemeralStorage   = "limits.ephemeral-storage"
)

// Cpu returns the "cpu" quantity, zero when absent.
func (rl ResourceList) Cpu() resource.Quantity { return rl[ResourceCPU] }

// Memory returns the "memory" quantity, zero when absent.
func (rl ResourceList) Memory() resource.Quantity { return rl[ResourceMemory] }

// Pods returns the "pods" quantity, zero when absent.
func (rl ResourceList) Pods() resource.Quantity { return rl[ResourcePods] }

// Storage returns the "storage" quantity, zero when absent.
func (rl ResourceList) Storage() resource.Quantity { return rl[ResourceStorage] }
