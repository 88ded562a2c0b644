package api

// Upstream's named string types, kept as aliases of string: fields read as
// in k8s.io/api (Phase PodPhase), code written with upstream's spelling
// compiles (`p := PersistentVolumeReclaimDelete; ReclaimPolicy: &p`), and
// values move between fields, maps and literals without conversions.
type (
	ConditionStatus = string
	FinalizerName   = string
	ResourceName    = string
	Protocol        = string
	Capability      = string

	PodPhase                      = string
	PodConditionType              = string
	PodQOSClass                   = string
	PodResizeStatus               = string
	RestartPolicy                 = string
	ContainerRestartPolicy        = string
	DNSPolicy                     = string
	PullPolicy                    = string
	PreemptionPolicy              = string
	TerminationMessagePolicy      = string
	URIScheme                     = string
	MountPropagationMode          = string
	RecursiveReadOnlyMode         = string
	ResourceResizeRestartPolicy   = string
	ResourceHealthStatus          = string
	ResourceID                    = string
	OSName                        = string
	UnsatisfiableConstraintAction = string
	NodeInclusionPolicy           = string
	PodFSGroupChangePolicy        = string
	SupplementalGroupsPolicy      = string
	PodSELinuxChangePolicy        = string
	SeccompProfileType            = string
	AppArmorProfileType           = string
	ProcMountType                 = string
	StorageMedium                 = string
	HostPathType                  = string

	TaintEffect          = string
	TolerationOperator   = string
	NodeSelectorOperator = string
	NodePhase            = string
	NodeConditionType    = string
	NodeAddressType      = string
	UniqueVolumeName     = string

	NamespacePhase         = string
	NamespaceConditionType = string
	SecretType             = string
	ResourceQuotaScope     = string
	ScopeSelectorOperator  = string

	ServiceType                  = string
	ServiceAffinity              = string
	ServiceInternalTrafficPolicy = string
	ServiceExternalTrafficPolicy = string
	IPFamily                     = string
	IPFamilyPolicy               = string
	LoadBalancerIPMode           = string

	PersistentVolumeAccessMode              = string
	PersistentVolumePhase                   = string
	PersistentVolumeClaimPhase              = string
	PersistentVolumeReclaimPolicy           = string
	PersistentVolumeMode                    = string
	PersistentVolumeClaimConditionType      = string
	PersistentVolumeClaimModifyVolumeStatus = string
	VolumeBindingMode                       = string

	DeploymentStrategyType                   = string
	DeploymentConditionType                  = string
	ReplicaSetConditionType                  = string
	StatefulSetUpdateStrategyType            = string
	StatefulSetConditionType                 = string
	PodManagementPolicyType                  = string
	PersistentVolumeClaimRetentionPolicyType = string
	DaemonSetUpdateStrategyType              = string
	DaemonSetConditionType                   = string

	JobConditionType                    = string
	CompletionMode                      = string
	PodFailurePolicyAction              = string
	PodFailurePolicyOnExitCodesOperator = string
	PodReplacementPolicy                = string
	ConcurrencyPolicy                   = string

	MetricSourceType                     = string
	MetricTargetType                     = string
	HorizontalPodAutoscalerConditionType = string
	ScalingPolicySelect                  = string
	HPAScalingPolicyType                 = string

	UnhealthyPodEvictionPolicyType = string
	CoordinatedLeaseStrategy       = string
	AddressType                    = string

	LabelSelectorOperator = string
	DeletionPropagation   = string
)
