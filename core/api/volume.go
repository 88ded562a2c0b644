package api

import "kubeplay/core/api/resource"

// Volume is a named volume in a pod, mountable by its containers.
type Volume struct {
	Name         string `json:"name"`
	VolumeSource `json:",inline"`
}

// VolumeSource says where a pod volume's content comes from; exactly one is set.
// Cloud-provider and in-tree network volume types upstream still lists are
// left out: kubeplay has no clouds.
type VolumeSource struct {
	HostPath              *HostPathVolumeSource              `json:"hostPath,omitempty"`
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty"`
	NFS                   *NFSVolumeSource                   `json:"nfs,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	DownwardAPI           *DownwardAPIVolumeSource           `json:"downwardAPI,omitempty"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty"`
	CSI                   *CSIVolumeSource                   `json:"csi,omitempty"`
	Ephemeral             *EphemeralVolumeSource             `json:"ephemeral,omitempty"`
	Image                 *ImageVolumeSource                 `json:"image,omitempty"`
}

// PersistentVolumeClaimVolumeSource mounts a claim of the pod's namespace.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// HostPathVolumeSource mounts a path of the node.
type HostPathVolumeSource struct {
	Path string        `json:"path"`
	Type *HostPathType `json:"type,omitempty"`
}

// Host path types.
const (
	HostPathUnset             = ""
	HostPathDirectoryOrCreate = "DirectoryOrCreate"
	HostPathDirectory         = "Directory"
	HostPathFileOrCreate      = "FileOrCreate"
	HostPathFile              = "File"
	HostPathSocket            = "Socket"
	HostPathCharDev           = "CharDevice"
	HostPathBlockDev          = "BlockDevice"
)

// EmptyDirVolumeSource is a scratch directory that lives as long as the pod.
type EmptyDirVolumeSource struct {
	Medium    StorageMedium      `json:"medium,omitempty"`
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
}

// Storage media of an emptyDir.
const (
	StorageMediumDefault         = ""
	StorageMediumMemory          = "Memory"
	StorageMediumHugePages       = "HugePages"
	StorageMediumHugePagesPrefix = "HugePages-"
)

// SecretVolumeSource projects a secret's keys as files.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty"`
}

// Default file modes of projected files (0644).
const (
	SecretVolumeSourceDefaultMode      int32 = 0644
	ConfigMapVolumeSourceDefaultMode   int32 = 0644
	ProjectedVolumeSourceDefaultMode   int32 = 0644
	DownwardAPIVolumeSourceDefaultMode int32 = 0644
)

// NFSVolumeSource mounts an NFS export.
type NFSVolumeSource struct {
	Server   string `json:"server"`
	Path     string `json:"path"`
	ReadOnly bool   `json:"readOnly,omitempty"`
}

// ConfigMapVolumeSource projects a config map's keys as files.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	DefaultMode          *int32      `json:"defaultMode,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// KeyToPath maps one key to a file path inside the volume.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	Mode *int32 `json:"mode,omitempty"`
}

// DownwardAPIVolumeSource writes pod fields and resources into files.
type DownwardAPIVolumeSource struct {
	Items       []DownwardAPIVolumeFile `json:"items,omitempty"`
	DefaultMode *int32                  `json:"defaultMode,omitempty"`
}

// DownwardAPIVolumeFile is one file of a downward API volume.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	Mode             *int32                 `json:"mode,omitempty"`
}

// ProjectedVolumeSource merges several sources into one directory (the
// service account token volume every pod gets is one).
type ProjectedVolumeSource struct {
	Sources     []VolumeProjection `json:"sources"`
	DefaultMode *int32             `json:"defaultMode,omitempty"`
}

// VolumeProjection is one source of a projected volume.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
	ClusterTrustBundle  *ClusterTrustBundleProjection  `json:"clusterTrustBundle,omitempty"`
}

// SecretProjection is a secret inside a projected volume.
type SecretProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// ConfigMapProjection is a config map inside a projected volume.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// DownwardAPIProjection is downward API files inside a projected volume.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// ServiceAccountTokenProjection is a bound service account token file.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	Path              string `json:"path"`
}

// ClusterTrustBundleProjection is a trust bundle file.
type ClusterTrustBundleProjection struct {
	Name          *string        `json:"name,omitempty"`
	SignerName    *string        `json:"signerName,omitempty"`
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	Optional      *bool          `json:"optional,omitempty"`
	Path          string         `json:"path"`
}

// CSIVolumeSource is an inline CSI volume.
type CSIVolumeSource struct {
	Driver               string                `json:"driver"`
	ReadOnly             *bool                 `json:"readOnly,omitempty"`
	FSType               *string               `json:"fsType,omitempty"`
	VolumeAttributes     map[string]string     `json:"volumeAttributes,omitempty"`
	NodePublishSecretRef *LocalObjectReference `json:"nodePublishSecretRef,omitempty"`
}

// EphemeralVolumeSource is a claim created for the pod and deleted with it.
type EphemeralVolumeSource struct {
	VolumeClaimTemplate *PersistentVolumeClaimTemplate `json:"volumeClaimTemplate,omitempty"`
}

// PersistentVolumeClaimTemplate is the claim an ephemeral volume creates.
type PersistentVolumeClaimTemplate struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PersistentVolumeClaimSpec `json:"spec"`
}

// ImageVolumeSource mounts an OCI image's content.
type ImageVolumeSource struct {
	Reference  string     `json:"reference,omitempty"`
	PullPolicy PullPolicy `json:"pullPolicy,omitempty"`
}
