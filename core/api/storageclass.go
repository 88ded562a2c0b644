package api

// StorageClass is storage.k8s.io/v1 StorageClass: how to provision volumes.
type StorageClass struct {
	TypeMeta             `json:",inline"`
	ObjectMeta           `json:"metadata,omitempty"`
	Provisioner          string                         `json:"provisioner"`
	Parameters           map[string]string              `json:"parameters,omitempty"`
	ReclaimPolicy        *PersistentVolumeReclaimPolicy `json:"reclaimPolicy,omitempty"`
	MountOptions         []string                       `json:"mountOptions,omitempty"`
	AllowVolumeExpansion *bool                          `json:"allowVolumeExpansion,omitempty"`
	VolumeBindingMode    *VolumeBindingMode             `json:"volumeBindingMode,omitempty"`
	AllowedTopologies    []TopologySelectorTerm         `json:"allowedTopologies,omitempty"`
}

// Volume binding modes and the default-class annotation.
const (
	VolumeBindingImmediate            = "Immediate"
	VolumeBindingWaitForFirstConsumer = "WaitForFirstConsumer"

	IsDefaultStorageClassAnnotation     = "storageclass.kubernetes.io/is-default-class"
	BetaIsDefaultStorageClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)
