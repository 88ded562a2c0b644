package api

// Well-known labels and annotations that several components read.
const (
	LabelHostname             = "kubernetes.io/hostname"
	LabelOSStable             = "kubernetes.io/os"
	LabelArchStable           = "kubernetes.io/arch"
	LabelTopologyZone         = "topology.kubernetes.io/zone"
	LabelTopologyRegion       = "topology.kubernetes.io/region"
	LabelInstanceTypeStable   = "node.kubernetes.io/instance-type"
	LabelNodeExcludeBalancers = "node.kubernetes.io/exclude-from-external-load-balancers"
	LabelMetadataName         = "kubernetes.io/metadata.name"

	// LastAppliedConfigAnnotation is what kubectl apply records.
	LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// ChangeCauseAnnotation is what --record and rollout history's CHANGE-CAUSE use.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
	// MirrorPodAnnotation marks a static pod's mirror in the API.
	MirrorPodAnnotation = "kubernetes.io/config.mirror"
)
