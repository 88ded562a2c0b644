// Package names holds the plugins' names as upstream spells them.
package names

// Plugin names.
const (
	PrioritySort                    = "PrioritySort"
	SchedulingGates                 = "SchedulingGates"
	NodeName                        = "NodeName"
	NodeUnschedulable               = "NodeUnschedulable"
	NodePorts                       = "NodePorts"
	NodeResourcesFit                = "NodeResourcesFit"
	NodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"
	NodeAffinity                    = "NodeAffinity"
	TaintToleration                 = "TaintToleration"
	InterPodAffinity                = "InterPodAffinity"
	PodTopologySpread               = "PodTopologySpread"
	ImageLocality                   = "ImageLocality"
	VolumeBinding                   = "VolumeBinding"
	DefaultPreemption               = "DefaultPreemption"
	DefaultBinder                   = "DefaultBinder"
)
