package api

import "time"

// Pod is a group of containers scheduled together on one node.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec   `json:"spec,omitempty"`
	Status     PodStatus `json:"status,omitempty"`
}

// PodSpec is the desired state of a pod.
type PodSpec struct {
	Volumes                       []Volume                   `json:"volumes,omitempty"`
	InitContainers                []Container                `json:"initContainers,omitempty"`
	Containers                    []Container                `json:"containers"`
	EphemeralContainers           []EphemeralContainer       `json:"ephemeralContainers,omitempty"`
	RestartPolicy                 RestartPolicy              `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64                     `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64                     `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     DNSPolicy                  `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string          `json:"nodeSelector,omitempty"`
	ServiceAccountName            string                     `json:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount      string                     `json:"serviceAccount,omitempty"`
	AutomountServiceAccountToken  *bool                      `json:"automountServiceAccountToken,omitempty"`
	NodeName                      string                     `json:"nodeName,omitempty"`
	HostNetwork                   bool                       `json:"hostNetwork,omitempty"`
	HostPID                       bool                       `json:"hostPID,omitempty"`
	HostIPC                       bool                       `json:"hostIPC,omitempty"`
	ShareProcessNamespace         *bool                      `json:"shareProcessNamespace,omitempty"`
	SecurityContext               *PodSecurityContext        `json:"securityContext,omitempty"`
	ImagePullSecrets              []LocalObjectReference     `json:"imagePullSecrets,omitempty"`
	Hostname                      string                     `json:"hostname,omitempty"`
	Subdomain                     string                     `json:"subdomain,omitempty"`
	Affinity                      *Affinity                  `json:"affinity,omitempty"`
	SchedulerName                 string                     `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration               `json:"tolerations,omitempty"`
	HostAliases                   []HostAlias                `json:"hostAliases,omitempty"`
	PriorityClassName             string                     `json:"priorityClassName,omitempty"`
	Priority                      *int32                     `json:"priority,omitempty"`
	DNSConfig                     *PodDNSConfig              `json:"dnsConfig,omitempty"`
	ReadinessGates                []PodReadinessGate         `json:"readinessGates,omitempty"`
	RuntimeClassName              *string                    `json:"runtimeClassName,omitempty"`
	EnableServiceLinks            *bool                      `json:"enableServiceLinks,omitempty"`
	PreemptionPolicy              *PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	Overhead                      ResourceList               `json:"overhead,omitempty"`
	TopologySpreadConstraints     []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	SetHostnameAsFQDN             *bool                      `json:"setHostnameAsFQDN,omitempty"`
	OS                            *PodOS                     `json:"os,omitempty"`
	HostUsers                     *bool                      `json:"hostUsers,omitempty"`
	SchedulingGates               []PodSchedulingGate        `json:"schedulingGates,omitempty"`
	ResourceClaims                []PodResourceClaim         `json:"resourceClaims,omitempty"`
	Resources                     *ResourceRequirements      `json:"resources,omitempty"`
}

// Pod-level values.
const (
	RestartPolicyAlways    = "Always"
	RestartPolicyOnFailure = "OnFailure"
	RestartPolicyNever     = "Never"

	DNSClusterFirstWithHostNet = "ClusterFirstWithHostNet"
	DNSClusterFirst            = "ClusterFirst"
	DNSDefault                 = "Default"
	DNSNone                    = "None"

	PreemptLowerPriority = "PreemptLowerPriority"
	PreemptNever         = "Never"

	DefaultSchedulerName                 = "default-scheduler"
	DefaultTerminationGracePeriodSeconds = 30
	DefaultEnableServiceLinks            = true
)

// EphemeralContainer is a debugging container added to a running pod.
type EphemeralContainer struct {
	EphemeralContainerCommon `json:",inline"`
	TargetContainerName      string `json:"targetContainerName,omitempty"`
}

// EphemeralContainerCommon has Container's fields; upstream keeps the two
// structs separate so their docs can differ.
type EphemeralContainerCommon struct {
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

// The two must stay field-for-field identical, as upstream asserts.
var _ = Container(EphemeralContainerCommon{})

// PodSecurityContext is the pod-wide security settings.
type PodSecurityContext struct {
	SELinuxOptions           *SELinuxOptions                `json:"seLinuxOptions,omitempty"`
	WindowsOptions           *WindowsSecurityContextOptions `json:"windowsOptions,omitempty"`
	RunAsUser                *int64                         `json:"runAsUser,omitempty"`
	RunAsGroup               *int64                         `json:"runAsGroup,omitempty"`
	RunAsNonRoot             *bool                          `json:"runAsNonRoot,omitempty"`
	SupplementalGroups       []int64                        `json:"supplementalGroups,omitempty"`
	SupplementalGroupsPolicy *SupplementalGroupsPolicy      `json:"supplementalGroupsPolicy,omitempty"`
	FSGroup                  *int64                         `json:"fsGroup,omitempty"`
	Sysctls                  []Sysctl                       `json:"sysctls,omitempty"`
	FSGroupChangePolicy      *PodFSGroupChangePolicy        `json:"fsGroupChangePolicy,omitempty"`
	SeccompProfile           *SeccompProfile                `json:"seccompProfile,omitempty"`
	AppArmorProfile          *AppArmorProfile               `json:"appArmorProfile,omitempty"`
	SELinuxChangePolicy      *PodSELinuxChangePolicy        `json:"seLinuxChangePolicy,omitempty"`
}

// Sysctl is one kernel parameter set for the pod.
type Sysctl struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HostAlias is an /etc/hosts entry.
type HostAlias struct {
	IP        string   `json:"ip"`
	Hostnames []string `json:"hostnames,omitempty"`
}

// PodDNSConfig adds resolver settings to the pod's resolv.conf.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty"`
	Searches    []string             `json:"searches,omitempty"`
	Options     []PodDNSConfigOption `json:"options,omitempty"`
}

// PodDNSConfigOption is one resolv.conf option.
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty"`
	Value *string `json:"value,omitempty"`
}

// PodReadinessGate is an extra condition the pod must have True to be Ready.
type PodReadinessGate struct {
	ConditionType PodConditionType `json:"conditionType"`
}

// PodOS names the pod's operating system.
type PodOS struct {
	Name OSName `json:"name"`
}

// PodSchedulingGate holds a pod back from scheduling while present.
type PodSchedulingGate struct {
	Name string `json:"name"`
}

// PodResourceClaim references a dynamic resource claim.
type PodResourceClaim struct {
	Name                      string  `json:"name"`
	ResourceClaimName         *string `json:"resourceClaimName,omitempty"`
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty"`
}

// PodResourceClaimStatus names the claim generated for a template.
type PodResourceClaimStatus struct {
	Name              string  `json:"name"`
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
}

// TopologySpreadConstraint spreads matching pods across a topology.
type TopologySpreadConstraint struct {
	MaxSkew            int32                         `json:"maxSkew"`
	TopologyKey        string                        `json:"topologyKey"`
	WhenUnsatisfiable  UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector                `json:"labelSelector,omitempty"`
	MinDomains         *int32                        `json:"minDomains,omitempty"`
	NodeAffinityPolicy *NodeInclusionPolicy          `json:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *NodeInclusionPolicy          `json:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string                      `json:"matchLabelKeys,omitempty"`
}

// Topology spread values.
const (
	DoNotSchedule  = "DoNotSchedule"
	ScheduleAnyway = "ScheduleAnyway"

	NodeInclusionPolicyIgnore = "Ignore"
	NodeInclusionPolicyHonor  = "Honor"
)

// PodStatus is what the scheduler and kubelet observed of a pod.
type PodStatus struct {
	Phase                      PodPhase                 `json:"phase,omitempty"`
	Conditions                 []PodCondition           `json:"conditions,omitempty"`
	Message                    string                   `json:"message,omitempty"`
	Reason                     string                   `json:"reason,omitempty"`
	NominatedNodeName          string                   `json:"nominatedNodeName,omitempty"`
	HostIP                     string                   `json:"hostIP,omitempty"`
	HostIPs                    []HostIP                 `json:"hostIPs,omitempty"`
	PodIP                      string                   `json:"podIP,omitempty"`
	PodIPs                     []PodIP                  `json:"podIPs,omitempty"`
	StartTime                  *Time                    `json:"startTime,omitempty"`
	InitContainerStatuses      []ContainerStatus        `json:"initContainerStatuses,omitempty"`
	ContainerStatuses          []ContainerStatus        `json:"containerStatuses,omitempty"`
	QOSClass                   PodQOSClass              `json:"qosClass,omitempty"`
	EphemeralContainerStatuses []ContainerStatus        `json:"ephemeralContainerStatuses,omitempty"`
	Resize                     PodResizeStatus          `json:"resize,omitempty"`
	ResourceClaimStatuses      []PodResourceClaimStatus `json:"resourceClaimStatuses,omitempty"`
}

// HostIP is one IP of the pod's node.
type HostIP struct {
	IP string `json:"ip"`
}

// PodIP is one IP of the pod.
type PodIP struct {
	IP string `json:"ip"`
}

// PodCondition is one entry of status.conditions.
type PodCondition struct {
	Type               PodConditionType `json:"type"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitempty"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Pod condition types.
const (
	ContainersReady           = "ContainersReady"
	PodInitialized            = "Initialized"
	PodReady                  = "Ready"
	PodScheduled              = "PodScheduled"
	DisruptionTarget          = "DisruptionTarget"
	PodReadyToStartContainers = "PodReadyToStartContainers"
)

// Reasons of pod conditions.
const (
	PodReasonUnschedulable         = "Unschedulable"
	PodReasonSchedulingGated       = "SchedulingGated"
	PodReasonSchedulerError        = "SchedulerError"
	PodReasonTerminationByKubelet  = "TerminationByKubelet"
	PodReasonPreemptionByScheduler = "PreemptionByScheduler"
)

// QoS classes.
const (
	PodQOSGuaranteed = "Guaranteed"
	PodQOSBurstable  = "Burstable"
	PodQOSBestEffort = "BestEffort"
)

// GetPodCondition returns the index and a pointer into status.Conditions of
// the condition of type t, or -1 and nil.
func GetPodCondition(status *PodStatus, t string) (int, *PodCondition) {
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

// GetPodReadyCondition returns the pod's Ready condition, or nil.
func GetPodReadyCondition(status *PodStatus) *PodCondition {
	_, c := GetPodCondition(status, PodReady)
	return c
}

// UpdatePodCondition sets a condition in status and reports whether anything
// changed. lastTransitionTime becomes now only when the status value changes
// (or the condition is new); an unchanged status keeps the old transition time.
func UpdatePodCondition(status *PodStatus, condition *PodCondition, now Time) bool {
	condition.LastTransitionTime = now
	i, old := GetPodCondition(status, condition.Type)
	if old == nil {
		status.Conditions = append(status.Conditions, *condition)
		return true
	}
	if condition.Status == old.Status {
		condition.LastTransitionTime = old.LastTransitionTime
	}
	same := condition.Status == old.Status &&
		condition.Reason == old.Reason &&
		condition.Message == old.Message &&
		condition.LastProbeTime.Equal(old.LastProbeTime.Time) &&
		condition.LastTransitionTime.Equal(old.LastTransitionTime.Time)
	status.Conditions[i] = *condition
	return !same
}

// IsPodReady reports whether the pod's Ready condition is True.
func IsPodReady(pod *Pod) bool {
	if pod == nil {
		return false
	}
	c := GetPodReadyCondition(&pod.Status)
	return c != nil && c.Status == ConditionTrue
}

// IsPodAvailable reports whether the pod has been Ready for at least
// minReadySeconds at now (a pod just Ready with minReadySeconds 0 counts).
func IsPodAvailable(pod *Pod, minReadySeconds int32, now Time) bool {
	if !IsPodReady(pod) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := GetPodReadyCondition(&pod.Status)
	d := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(d).Before(now.Time)
}

// IsPodTerminal reports whether the pod reached Succeeded or Failed.
func IsPodTerminal(pod *Pod) bool {
	return pod.Status.Phase == PodSucceeded || pod.Status.Phase == PodFailed
}

// ContainerStatusFor is the status of the named container (init or app),
// nil when the kubelet has not reported one.
func (p *Pod) ContainerStatusFor(name string) *ContainerStatus {
	for _, list := range [][]ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// SameContainerLive reports whether the named container is still the one
// with containerID and has not terminated: a followed log stream stays
// open while it is (a restart starts a new container, and a new log).
func (p *Pod) SameContainerLive(name, containerID string) bool {
	s := p.ContainerStatusFor(name)
	return s != nil && s.ContainerID == containerID && s.State.Terminated == nil
}
