package api

import (
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

// Container is one container of a pod (also an init or sidecar container).
type Container struct {
	Name                     string                   `json:"name"`
	Image                    string                   `json:"image,omitempty"`
	Command                  []string                 `json:"command,omitempty"`
	Args                     []string                 `json:"args,omitempty"`
	WorkingDir               string                   `json:"workingDir,omitempty"`
	Ports                    []ContainerPort          `json:"ports,omitempty"`
	EnvFrom                  []EnvFromSource          `json:"envFrom,omitempty"`
	Env                      []EnvVar                 `json:"env,omitempty"`
	Resources                ResourceRequirements     `json:"resources,omitempty"`
	ResizePolicy             []ContainerResizePolicy  `json:"resizePolicy,omitempty"`
	RestartPolicy            *ContainerRestartPolicy  `json:"restartPolicy,omitempty"`
	VolumeMounts             []VolumeMount            `json:"volumeMounts,omitempty"`
	VolumeDevices            []VolumeDevice           `json:"volumeDevices,omitempty"`
	LivenessProbe            *Probe                   `json:"livenessProbe,omitempty"`
	ReadinessProbe           *Probe                   `json:"readinessProbe,omitempty"`
	StartupProbe             *Probe                   `json:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle               `json:"lifecycle,omitempty"`
	TerminationMessagePath   string                   `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          PullPolicy               `json:"imagePullPolicy,omitempty"`
	SecurityContext          *SecurityContext         `json:"securityContext,omitempty"`
	Stdin                    bool                     `json:"stdin,omitempty"`
	StdinOnce                bool                     `json:"stdinOnce,omitempty"`
	TTY                      bool                     `json:"tty,omitempty"`
}

// Container-level values.
const (
	// TerminationMessagePathDefault is where a container's exit message is read.
	TerminationMessagePathDefault = "/dev/termination-log"

	TerminationMessageReadFile              = "File"
	TerminationMessageFallbackToLogsOnError = "FallbackToLogsOnError"

	PullAlways       = "Always"
	PullNever        = "Never"
	PullIfNotPresent = "IfNotPresent"

	// ContainerRestartPolicyAlways on an init container makes it a sidecar.
	ContainerRestartPolicyAlways = "Always"

	// Resize restart policies (upstream's NotRequired and RestartContainer).
	ResizeNotRequired      = "NotRequired"
	ResizeRestartContainer = "RestartContainer"
)

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int32    `json:"hostPort,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// Protocols of ports.
const (
	ProtocolTCP  = "TCP"
	ProtocolUDP  = "UDP"
	ProtocolSCTP = "SCTP"
)

// VolumeMount mounts a pod volume into a container.
type VolumeMount struct {
	Name              string                 `json:"name"`
	ReadOnly          bool                   `json:"readOnly,omitempty"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty"`
	MountPath         string                 `json:"mountPath"`
	SubPath           string                 `json:"subPath,omitempty"`
	MountPropagation  *MountPropagationMode  `json:"mountPropagation,omitempty"`
	SubPathExpr       string                 `json:"subPathExpr,omitempty"`
}

// Mount propagation modes.
const (
	MountPropagationNone            = "None"
	MountPropagationHostToContainer = "HostToContainer"
	MountPropagationBidirectional   = "Bidirectional"
)

// VolumeDevice maps a raw block volume into a container.
type VolumeDevice struct {
	Name       string `json:"name"`
	DevicePath string `json:"devicePath"`
}

// EnvVar is one environment variable, literal or from a source.
type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

// EnvVarSource says where an environment variable's value comes from.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty"`
}

// ObjectFieldSelector selects a pod field ("metadata.name", "status.podIP").
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath"`
}

// ResourceFieldSelector selects a container's limit or request.
type ResourceFieldSelector struct {
	ContainerName string            `json:"containerName,omitempty"`
	Resource      string            `json:"resource"`
	Divisor       resource.Quantity `json:"divisor,omitempty"`
}

// ConfigMapKeySelector selects one key of a config map.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// SecretKeySelector selects one key of a secret.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// EnvFromSource imports every key of a config map or secret.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty"`
}

// ConfigMapEnvSource names the config map of an envFrom.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// SecretEnvSource names the secret of an envFrom.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// ResourceRequirements are a container's limits and requests.
type ResourceRequirements struct {
	Limits   ResourceList    `json:"limits,omitempty"`
	Requests ResourceList    `json:"requests,omitempty"`
	Claims   []ResourceClaim `json:"claims,omitempty"`
}

// ResourceClaim names a pod resource claim a container uses.
type ResourceClaim struct {
	Name    string `json:"name"`
	Request string `json:"request,omitempty"`
}

// ContainerResizePolicy says whether resizing a resource restarts the container.
type ContainerResizePolicy struct {
	ResourceName  ResourceName                `json:"resourceName"`
	RestartPolicy ResourceResizeRestartPolicy `json:"restartPolicy"`
}

// Probe is a liveness, readiness or startup check.
type Probe struct {
	ProbeHandler                  `json:",inline"`
	InitialDelaySeconds           int32  `json:"initialDelaySeconds,omitempty"`
	TimeoutSeconds                int32  `json:"timeoutSeconds,omitempty"`
	PeriodSeconds                 int32  `json:"periodSeconds,omitempty"`
	SuccessThreshold              int32  `json:"successThreshold,omitempty"`
	FailureThreshold              int32  `json:"failureThreshold,omitempty"`
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// ProbeHandler is the action a probe runs; exactly one is set.
type ProbeHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	GRPC      *GRPCAction      `json:"grpc,omitempty"`
}

// Lifecycle holds a container's postStart and preStop hooks.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty"`
}

// LifecycleHandler is the action a hook runs; exactly one is set.
type LifecycleHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	Sleep     *SleepAction     `json:"sleep,omitempty"`
}

// ExecAction runs a command inside the container.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// HTTPGetAction sends a GET to the pod; 200-399 is success.
type HTTPGetAction struct {
	Path        string             `json:"path,omitempty"`
	Port        intstr.IntOrString `json:"port"`
	Host        string             `json:"host,omitempty"`
	Scheme      URIScheme          `json:"scheme,omitempty"`
	HTTPHeaders []HTTPHeader       `json:"httpHeaders,omitempty"`
}

// URI schemes of an HTTP probe.
const (
	URISchemeHTTP  = "HTTP"
	URISchemeHTTPS = "HTTPS"
)

// HTTPHeader is one header of an HTTP probe.
type HTTPHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// TCPSocketAction opens a TCP connection; connecting is success.
type TCPSocketAction struct {
	Port intstr.IntOrString `json:"port"`
	Host string             `json:"host,omitempty"`
}

// GRPCAction calls the gRPC health service.
type GRPCAction struct {
	Port    int32   `json:"port"`
	Service *string `json:"service"`
}

// SleepAction pauses before the container is stopped.
type SleepAction struct {
	Seconds int64 `json:"seconds"`
}

// SecurityContext is a container's security settings.
type SecurityContext struct {
	Capabilities             *Capabilities                  `json:"capabilities,omitempty"`
	Privileged               *bool                          `json:"privileged,omitempty"`
	SELinuxOptions           *SELinuxOptions                `json:"seLinuxOptions,omitempty"`
	WindowsOptions           *WindowsSecurityContextOptions `json:"windowsOptions,omitempty"`
	RunAsUser                *int64                         `json:"runAsUser,omitempty"`
	RunAsGroup               *int64                         `json:"runAsGroup,omitempty"`
	RunAsNonRoot             *bool                          `json:"runAsNonRoot,omitempty"`
	ReadOnlyRootFilesystem   *bool                          `json:"readOnlyRootFilesystem,omitempty"`
	AllowPrivilegeEscalation *bool                          `json:"allowPrivilegeEscalation,omitempty"`
	ProcMount                *ProcMountType                 `json:"procMount,omitempty"`
	SeccompProfile           *SeccompProfile                `json:"seccompProfile,omitempty"`
	AppArmorProfile          *AppArmorProfile               `json:"appArmorProfile,omitempty"`
}

// Capabilities adds and drops Linux capabilities.
type Capabilities struct {
	Add  []Capability `json:"add,omitempty"`
	Drop []Capability `json:"drop,omitempty"`
}

// SELinuxOptions are SELinux labels.
type SELinuxOptions struct {
	User  string `json:"user,omitempty"`
	Role  string `json:"role,omitempty"`
	Type  string `json:"type,omitempty"`
	Level string `json:"level,omitempty"`
}

// WindowsSecurityContextOptions are Windows-only settings.
type WindowsSecurityContextOptions struct {
	GMSACredentialSpecName *string `json:"gmsaCredentialSpecName,omitempty"`
	GMSACredentialSpec     *string `json:"gmsaCredentialSpec,omitempty"`
	RunAsUserName          *string `json:"runAsUserName,omitempty"`
	HostProcess            *bool   `json:"hostProcess,omitempty"`
}

// SeccompProfile selects a seccomp profile.
type SeccompProfile struct {
	Type             SeccompProfileType `json:"type"`
	LocalhostProfile *string            `json:"localhostProfile,omitempty"`
}

// AppArmorProfile selects an AppArmor profile.
type AppArmorProfile struct {
	Type             AppArmorProfileType `json:"type"`
	LocalhostProfile *string             `json:"localhostProfile,omitempty"`
}

// Seccomp and AppArmor profile types, and proc mount types.
const (
	SeccompProfileTypeUnconfined     = "Unconfined"
	SeccompProfileTypeRuntimeDefault = "RuntimeDefault"
	SeccompProfileTypeLocalhost      = "Localhost"

	AppArmorProfileTypeUnconfined     = "Unconfined"
	AppArmorProfileTypeRuntimeDefault = "RuntimeDefault"
	AppArmorProfileTypeLocalhost      = "Localhost"

	DefaultProcMount  = "Default"
	UnmaskedProcMount = "Unmasked"
)

// ContainerStatus is the kubelet's report on one container.
type ContainerStatus struct {
	Name                     string                `json:"name"`
	State                    ContainerState        `json:"state,omitempty"`
	LastTerminationState     ContainerState        `json:"lastState,omitempty"`
	Ready                    bool                  `json:"ready"`
	RestartCount             int32                 `json:"restartCount"`
	Image                    string                `json:"image"`
	ImageID                  string                `json:"imageID"`
	ContainerID              string                `json:"containerID,omitempty"`
	Started                  *bool                 `json:"started,omitempty"`
	AllocatedResources       ResourceList          `json:"allocatedResources,omitempty"`
	Resources                *ResourceRequirements `json:"resources,omitempty"`
	VolumeMounts             []VolumeMountStatus   `json:"volumeMounts,omitempty"`
	User                     *ContainerUser        `json:"user,omitempty"`
	AllocatedResourcesStatus []ResourceStatus      `json:"allocatedResourcesStatus,omitempty"`
}

// ContainerState is one of waiting, running or terminated (at most one set).
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting: not yet running (ContainerCreating, CrashLoopBackOff …).
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning: running since startedAt.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated: exited (Completed, Error, OOMKilled …).
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode"`
	Signal      int32  `json:"signal,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Message     string `json:"message,omitempty"`
	StartedAt   Time   `json:"startedAt,omitempty"`
	FinishedAt  Time   `json:"finishedAt,omitempty"`
	ContainerID string `json:"containerID,omitempty"`
}

// VolumeMountStatus reports a mount as the runtime made it.
type VolumeMountStatus struct {
	Name              string                 `json:"name"`
	MountPath         string                 `json:"mountPath"`
	ReadOnly          bool                   `json:"readOnly,omitempty"`
	RecursiveReadOnly *RecursiveReadOnlyMode `json:"recursiveReadOnly,omitempty"`
}

// ContainerUser is the identity a container's first process runs as.
type ContainerUser struct {
	Linux *LinuxContainerUser `json:"linux,omitempty"`
}

// LinuxContainerUser is a Linux uid, gid and groups.
type LinuxContainerUser struct {
	UID                int64   `json:"uid"`
	GID                int64   `json:"gid"`
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty"`
}

// ResourceStatus reports the health of devices allocated to a container.
type ResourceStatus struct {
	Name      ResourceName     `json:"name"`
	Resources []ResourceHealth `json:"resources,omitempty"`
}

// ResourceHealth is one device's health.
type ResourceHealth struct {
	ResourceID ResourceID           `json:"resourceID"`
	Health     ResourceHealthStatus `json:"health,omitempty"`
}
