package api

// PersistentVolume is a piece of storage in the cluster.
type PersistentVolume struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PersistentVolumeSpec   `json:"spec,omitempty"`
	Status     PersistentVolumeStatus `json:"status,omitempty"`
}

// PersistentVolumeSpec is a volume's size, source, access and binding.
type PersistentVolumeSpec struct {
	Capacity                      ResourceList `json:"capacity,omitempty"`
	PersistentVolumeSource        `json:",inline"`
	AccessModes                   []PersistentVolumeAccessMode  `json:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference              `json:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy PersistentVolumeReclaimPolicy `json:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string                        `json:"storageClassName,omitempty"`
	MountOptions                  []string                      `json:"mountOptions,omitempty"`
	VolumeMode                    *PersistentVolumeMode         `json:"volumeMode,omitempty"`
	NodeAffinity                  *VolumeNodeAffinity           `json:"nodeAffinity,omitempty"`
	VolumeAttributesClassName     *string                       `json:"volumeAttributesClassName,omitempty"`
}

// PersistentVolumeSource is where a persistent volume's data lives; exactly
// one is set. Cloud and legacy in-tree sources are left out.
type PersistentVolumeSource struct {
	HostPath *HostPathVolumeSource      `json:"hostPath,omitempty"`
	NFS      *NFSVolumeSource           `json:"nfs,omitempty"`
	Local    *LocalVolumeSource         `json:"local,omitempty"`
	CSI      *CSIPersistentVolumeSource `json:"csi,omitempty"`
}

// LocalVolumeSource is a disk or directory of one node.
type LocalVolumeSource struct {
	Path   string  `json:"path"`
	FSType *string `json:"fsType,omitempty"`
}

// CSIPersistentVolumeSource is a volume managed by a CSI driver.
type CSIPersistentVolumeSource struct {
	Driver                     string            `json:"driver"`
	VolumeHandle               string            `json:"volumeHandle"`
	ReadOnly                   bool              `json:"readOnly,omitempty"`
	FSType                     string            `json:"fsType,omitempty"`
	VolumeAttributes           map[string]string `json:"volumeAttributes,omitempty"`
	ControllerPublishSecretRef *SecretReference  `json:"controllerPublishSecretRef,omitempty"`
	NodeStageSecretRef         *SecretReference  `json:"nodeStageSecretRef,omitempty"`
	NodePublishSecretRef       *SecretReference  `json:"nodePublishSecretRef,omitempty"`
	ControllerExpandSecretRef  *SecretReference  `json:"controllerExpandSecretRef,omitempty"`
	NodeExpandSecretRef        *SecretReference  `json:"nodeExpandSecretRef,omitempty"`
}

// VolumeNodeAffinity limits the nodes that can reach a volume.
type VolumeNodeAffinity struct {
	Required *NodeSelector `json:"required,omitempty"`
}

// PersistentVolumeStatus is a volume's phase.
type PersistentVolumeStatus struct {
	Phase                   PersistentVolumePhase `json:"phase,omitempty"`
	Message                 string                `json:"message,omitempty"`
	Reason                  string                `json:"reason,omitempty"`
	LastPhaseTransitionTime *Time                 `json:"lastPhaseTransitionTime,omitempty"`
}

// PersistentVolumeClaim is a user's request for storage.
type PersistentVolumeClaim struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PersistentVolumeClaimSpec   `json:"spec,omitempty"`
	Status     PersistentVolumeClaimStatus `json:"status,omitempty"`
}

// PersistentVolumeClaimSpec is the requested size, access and class.
type PersistentVolumeClaimSpec struct {
	AccessModes               []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Selector                  *LabelSelector               `json:"selector,omitempty"`
	Resources                 VolumeResourceRequirements   `json:"resources,omitempty"`
	VolumeName                string                       `json:"volumeName,omitempty"`
	StorageClassName          *string                      `json:"storageClassName,omitempty"`
	VolumeMode                *PersistentVolumeMode        `json:"volumeMode,omitempty"`
	DataSource                *TypedLocalObjectReference   `json:"dataSource,omitempty"`
	DataSourceRef             *TypedObjectReference        `json:"dataSourceRef,omitempty"`
	VolumeAttributesClassName *string                      `json:"volumeAttributesClassName,omitempty"`
}

// VolumeResourceRequirements is a claim's storage request and limit.
type VolumeResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// PersistentVolumeClaimStatus is a claim's phase and bound capacity.
type PersistentVolumeClaimStatus struct {
	Phase                            PersistentVolumeClaimPhase       `json:"phase,omitempty"`
	AccessModes                      []PersistentVolumeAccessMode     `json:"accessModes,omitempty"`
	Capacity                         ResourceList                     `json:"capacity,omitempty"`
	Conditions                       []PersistentVolumeClaimCondition `json:"conditions,omitempty"`
	AllocatedResources               ResourceList                     `json:"allocatedResources,omitempty"`
	AllocatedResourceStatuses        map[string]string                `json:"allocatedResourceStatuses,omitempty"`
	CurrentVolumeAttributesClassName *string                          `json:"currentVolumeAttributesClassName,omitempty"`
	ModifyVolumeStatus               *ModifyVolumeStatus              `json:"modifyVolumeStatus,omitempty"`
}

// PersistentVolumeClaimCondition reports resizing and modification.
type PersistentVolumeClaimCondition struct {
	Type               PersistentVolumeClaimConditionType `json:"type"`
	Status             ConditionStatus                    `json:"status"`
	LastProbeTime      Time                               `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time                               `json:"lastTransitionTime,omitempty"`
	Reason             string                             `json:"reason,omitempty"`
	Message            string                             `json:"message,omitempty"`
}

// ModifyVolumeStatus reports a volume attributes class change.
type ModifyVolumeStatus struct {
	TargetVolumeAttributesClassName string                                  `json:"targetVolumeAttributesClassName,omitempty"`
	Status                          PersistentVolumeClaimModifyVolumeStatus `json:"status"`
}

// Access modes, reclaim policies, volume modes and phases.
const (
	ReadWriteOnce    = "ReadWriteOnce"
	ReadOnlyMany     = "ReadOnlyMany"
	ReadWriteMany    = "ReadWriteMany"
	ReadWriteOncePod = "ReadWriteOncePod"

	PersistentVolumeReclaimRecycle = "Recycle"
	PersistentVolumeReclaimDelete  = "Delete"
	PersistentVolumeReclaimRetain  = "Retain"

	PersistentVolumeBlock      = "Block"
	PersistentVolumeFilesystem = "Filesystem"

	VolumePending   = "Pending"
	VolumeAvailable = "Available"
	VolumeBound     = "Bound"
	VolumeReleased  = "Released"
	VolumeFailed    = "Failed"

	ClaimPending = "Pending"
	ClaimBound   = "Bound"
	ClaimLost    = "Lost"

	PersistentVolumeClaimResizing                = "Resizing"
	PersistentVolumeClaimFileSystemResizePending = "FileSystemResizePending"
)

// Annotations of the volume binder and provisioners.
const (
	BetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"
	MountOptionAnnotation      = "volume.beta.kubernetes.io/mount-options"

	AnnBindCompleted          = "pv.kubernetes.io/bind-completed"
	AnnBoundByController      = "pv.kubernetes.io/bound-by-controller"
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	AnnStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	AnnSelectedNode           = "volume.kubernetes.io/selected-node"

	PVCProtectionFinalizer = "kubernetes.io/pvc-protection"
	PVProtectionFinalizer  = "kubernetes.io/pv-protection"
)
