// Code generated from the type declarations of k8s.io/api v0.32.4 (core/v1) and
// k8s.io/apimachinery v0.32.4 (meta/v1, resource, intstr, types); DO NOT EDIT.

package hashutil

// upstreamStructs lists every struct type reachable from v1.PodTemplateSpec,
// one a line: its reflect type string, then its fields in declaration order
// as Name:json:type, the JSON name left empty where it is the field's name
// with the first letter lowered. It is text rather than a map literal
// because a literal of this size is 64 KB of WebAssembly, which V8 compiles
// twice (the second time optimised, as it runs long) during the page's
// start, where the cluster's first Deployment is hashed.
const upstreamStructs = `v1.AWSElasticBlockStoreVolumeSource VolumeID::string FSType:fsType:string Partition::int32 ReadOnly::bool
v1.Affinity NodeAffinity::*v1.NodeAffinity PodAffinity::*v1.PodAffinity PodAntiAffinity::*v1.PodAntiAffinity
v1.AppArmorProfile Type::v1.AppArmorProfileType LocalhostProfile::*string
v1.AzureDiskVolumeSource DiskName::string DataDiskURI:diskURI:string CachingMode::*v1.AzureDataDiskCachingMode FSType:fsType:*string ReadOnly::*bool Kind::*v1.AzureDataDiskKind
v1.AzureFileVolumeSource SecretName::string ShareName::string ReadOnly::bool
v1.CSIVolumeSource Driver::string ReadOnly::*bool FSType:fsType:*string VolumeAttributes::map[string]string NodePublishSecretRef::*v1.LocalObjectReference
v1.Capabilities Add::[]v1.Capability Drop::[]v1.Capability
v1.CephFSVolumeSource Monitors::[]string Path::string User::string SecretFile::string SecretRef::*v1.LocalObjectReference ReadOnly::bool
v1.CinderVolumeSource VolumeID::string FSType:fsType:string ReadOnly::bool SecretRef::*v1.LocalObjectReference
v1.ClusterTrustBundleProjection Name::*string SignerName::*string LabelSelector::*v1.LabelSelector Optional::*bool Path::string
v1.ConfigMapEnvSource LocalObjectReference:,inline:v1.LocalObjectReference Optional::*bool
v1.ConfigMapKeySelector LocalObjectReference:,inline:v1.LocalObjectReference Key::string Optional::*bool
v1.ConfigMapProjection LocalObjectReference:,inline:v1.LocalObjectReference Items::[]v1.KeyToPath Optional::*bool
v1.ConfigMapVolumeSource LocalObjectReference:,inline:v1.LocalObjectReference Items::[]v1.KeyToPath DefaultMode::*int32 Optional::*bool
v1.Container Name::string Image::string Command::[]string Args::[]string WorkingDir::string Ports::[]v1.ContainerPort EnvFrom::[]v1.EnvFromSource Env::[]v1.EnvVar Resources::v1.ResourceRequirements ResizePolicy::[]v1.ContainerResizePolicy RestartPolicy::*v1.ContainerRestartPolicy VolumeMounts::[]v1.VolumeMount VolumeDevices::[]v1.VolumeDevice LivenessProbe::*v1.Probe ReadinessProbe::*v1.Probe StartupProbe::*v1.Probe Lifecycle::*v1.Lifecycle TerminationMessagePath::string TerminationMessagePolicy::v1.TerminationMessagePolicy ImagePullPolicy::v1.PullPolicy SecurityContext::*v1.SecurityContext Stdin::bool StdinOnce::bool TTY:tty:bool
v1.ContainerPort Name::string HostPort::int32 ContainerPort::int32 Protocol::v1.Protocol HostIP::string
v1.ContainerResizePolicy ResourceName::v1.ResourceName RestartPolicy::v1.ResourceResizeRestartPolicy
v1.DownwardAPIProjection Items::[]v1.DownwardAPIVolumeFile
v1.DownwardAPIVolumeFile Path::string FieldRef::*v1.ObjectFieldSelector ResourceFieldRef::*v1.ResourceFieldSelector Mode::*int32
v1.DownwardAPIVolumeSource Items::[]v1.DownwardAPIVolumeFile DefaultMode::*int32
v1.EmptyDirVolumeSource Medium::v1.StorageMedium SizeLimit::*resource.Quantity
v1.EnvFromSource Prefix::string ConfigMapRef::*v1.ConfigMapEnvSource SecretRef::*v1.SecretEnvSource
v1.EnvVar Name::string Value::string ValueFrom::*v1.EnvVarSource
v1.EnvVarSource FieldRef::*v1.ObjectFieldSelector ResourceFieldRef::*v1.ResourceFieldSelector ConfigMapKeyRef::*v1.ConfigMapKeySelector SecretKeyRef::*v1.SecretKeySelector
v1.EphemeralContainer EphemeralContainerCommon:,inline:v1.EphemeralContainerCommon TargetContainerName::string
v1.EphemeralContainerCommon Name::string Image::string Command::[]string Args::[]string WorkingDir::string Ports::[]v1.ContainerPort EnvFrom::[]v1.EnvFromSource Env::[]v1.EnvVar Resources::v1.ResourceRequirements ResizePolicy::[]v1.ContainerResizePolicy RestartPolicy::*v1.ContainerRestartPolicy VolumeMounts::[]v1.VolumeMount VolumeDevices::[]v1.VolumeDevice LivenessProbe::*v1.Probe ReadinessProbe::*v1.Probe StartupProbe::*v1.Probe Lifecycle::*v1.Lifecycle TerminationMessagePath::string TerminationMessagePolicy::v1.TerminationMessagePolicy ImagePullPolicy::v1.PullPolicy SecurityContext::*v1.SecurityContext Stdin::bool StdinOnce::bool TTY:tty:bool
v1.EphemeralVolumeSource VolumeClaimTemplate::*v1.PersistentVolumeClaimTemplate
v1.ExecAction Command::[]string
v1.FCVolumeSource TargetWWNs::[]string Lun::*int32 FSType:fsType:string ReadOnly::bool WWIDs:wwids:[]string
v1.FieldsV1 Raw:-:[]uint8
v1.FlexVolumeSource Driver::string FSType:fsType:string SecretRef::*v1.LocalObjectReference ReadOnly::bool Options::map[string]string
v1.FlockerVolumeSource DatasetName::string DatasetUUID::string
v1.GCEPersistentDiskVolumeSource PDName:pdName:string FSType:fsType:string Partition::int32 ReadOnly::bool
v1.GRPCAction Port::int32 Service::*string
v1.GitRepoVolumeSource Repository::string Revision::string Directory::string
v1.GlusterfsVolumeSource EndpointsName:endpoints:string Path::string ReadOnly::bool
v1.HTTPGetAction Path::string Port::intstr.IntOrString Host::string Scheme::v1.URIScheme HTTPHeaders:httpHeaders:[]v1.HTTPHeader
v1.HTTPHeader Name::string Value::string
v1.HostAlias IP:ip:string Hostnames::[]string
v1.HostPathVolumeSource Path::string Type::*v1.HostPathType
v1.ISCSIVolumeSource TargetPortal::string IQN:iqn:string Lun::int32 ISCSIInterface:iscsiInterface:string FSType:fsType:string ReadOnly::bool Portals::[]string DiscoveryCHAPAuth:chapAuthDiscovery:bool SessionCHAPAuth:chapAuthSession:bool SecretRef::*v1.LocalObjectReference InitiatorName::*string
v1.ImageVolumeSource Reference::string PullPolicy::v1.PullPolicy
v1.KeyToPath Key::string Path::string Mode::*int32
v1.LabelSelector MatchLabels::map[string]string MatchExpressions::[]v1.LabelSelectorRequirement
v1.LabelSelectorRequirement Key::string Operator::v1.LabelSelectorOperator Values::[]string
v1.Lifecycle PostStart::*v1.LifecycleHandler PreStop::*v1.LifecycleHandler
v1.LifecycleHandler Exec::*v1.ExecAction HTTPGet:httpGet:*v1.HTTPGetAction TCPSocket:tcpSocket:*v1.TCPSocketAction Sleep::*v1.SleepAction
v1.LocalObjectReference Name::string
v1.ManagedFieldsEntry Manager::string Operation::v1.ManagedFieldsOperationType APIVersion:apiVersion:string Time::*v1.Time FieldsType::string FieldsV1::*v1.FieldsV1 Subresource::string
v1.NFSVolumeSource Server::string Path::string ReadOnly::bool
v1.NodeAffinity RequiredDuringSchedulingIgnoredDuringExecution::*v1.NodeSelector PreferredDuringSchedulingIgnoredDuringExecution::[]v1.PreferredSchedulingTerm
v1.NodeSelector NodeSelectorTerms::[]v1.NodeSelectorTerm
v1.NodeSelectorRequirement Key::string Operator::v1.NodeSelectorOperator Values::[]string
v1.NodeSelectorTerm MatchExpressions::[]v1.NodeSelectorRequirement MatchFields::[]v1.NodeSelectorRequirement
v1.ObjectFieldSelector APIVersion:apiVersion:string FieldPath::string
v1.ObjectMeta Name::string GenerateName::string Namespace::string SelfLink::string UID:uid:types.UID ResourceVersion::string Generation::int64 CreationTimestamp::v1.Time DeletionTimestamp::*v1.Time DeletionGracePeriodSeconds::*int64 Labels::map[string]string Annotations::map[string]string OwnerReferences::[]v1.OwnerReference Finalizers::[]string ManagedFields::[]v1.ManagedFieldsEntry
v1.OwnerReference APIVersion:apiVersion:string Kind::string Name::string UID:uid:types.UID Controller::*bool BlockOwnerDeletion::*bool
v1.PersistentVolumeClaimSpec AccessModes::[]v1.PersistentVolumeAccessMode Selector::*v1.LabelSelector Resources::v1.VolumeResourceRequirements VolumeName::string StorageClassName::*string VolumeMode::*v1.PersistentVolumeMode DataSource::*v1.TypedLocalObjectReference DataSourceRef::*v1.TypedObjectReference VolumeAttributesClassName::*string
v1.PersistentVolumeClaimTemplate ObjectMeta:metadata:v1.ObjectMeta Spec::v1.PersistentVolumeClaimSpec
v1.PersistentVolumeClaimVolumeSource ClaimName::string ReadOnly::bool
v1.PhotonPersistentDiskVolumeSource PdID::string FSType:fsType:string
v1.PodAffinity RequiredDuringSchedulingIgnoredDuringExecution::[]v1.PodAffinityTerm PreferredDuringSchedulingIgnoredDuringExecution::[]v1.WeightedPodAffinityTerm
v1.PodAffinityTerm LabelSelector::*v1.LabelSelector Namespaces::[]string TopologyKey::string NamespaceSelector::*v1.LabelSelector MatchLabelKeys::[]string MismatchLabelKeys::[]string
v1.PodAntiAffinity RequiredDuringSchedulingIgnoredDuringExecution::[]v1.PodAffinityTerm PreferredDuringSchedulingIgnoredDuringExecution::[]v1.WeightedPodAffinityTerm
v1.PodDNSConfig Nameservers::[]string Searches::[]string Options::[]v1.PodDNSConfigOption
v1.PodDNSConfigOption Name::string Value::*string
v1.PodOS Name::v1.OSName
v1.PodReadinessGate ConditionType::v1.PodConditionType
v1.PodResourceClaim Name::string ResourceClaimName::*string ResourceClaimTemplateName::*string
v1.PodSchedulingGate Name::string
v1.PodSecurityContext SELinuxOptions:seLinuxOptions:*v1.SELinuxOptions WindowsOptions::*v1.WindowsSecurityContextOptions RunAsUser::*int64 RunAsGroup::*int64 RunAsNonRoot::*bool SupplementalGroups::[]int64 SupplementalGroupsPolicy::*v1.SupplementalGroupsPolicy FSGroup:fsGroup:*int64 Sysctls::[]v1.Sysctl FSGroupChangePolicy:fsGroupChangePolicy:*v1.PodFSGroupChangePolicy SeccompProfile::*v1.SeccompProfile AppArmorProfile::*v1.AppArmorProfile SELinuxChangePolicy:seLinuxChangePolicy:*v1.PodSELinuxChangePolicy
v1.PodSpec Volumes::[]v1.Volume InitContainers::[]v1.Container Containers::[]v1.Container EphemeralContainers::[]v1.EphemeralContainer RestartPolicy::v1.RestartPolicy TerminationGracePeriodSeconds::*int64 ActiveDeadlineSeconds::*int64 DNSPolicy:dnsPolicy:v1.DNSPolicy NodeSelector::map[string]string ServiceAccountName::string DeprecatedServiceAccount:serviceAccount:string AutomountServiceAccountToken::*bool NodeName::string HostNetwork::bool HostPID::bool HostIPC::bool ShareProcessNamespace::*bool SecurityContext::*v1.PodSecurityContext ImagePullSecrets::[]v1.LocalObjectReference Hostname::string Subdomain::string Affinity::*v1.Affinity SchedulerName::string Tolerations::[]v1.Toleration HostAliases::[]v1.HostAlias PriorityClassName::string Priority::*int32 DNSConfig:dnsConfig:*v1.PodDNSConfig ReadinessGates::[]v1.PodReadinessGate RuntimeClassName::*string EnableServiceLinks::*bool PreemptionPolicy::*v1.PreemptionPolicy Overhead::v1.ResourceList TopologySpreadConstraints::[]v1.TopologySpreadConstraint SetHostnameAsFQDN::*bool OS:os:*v1.PodOS HostUsers::*bool SchedulingGates::[]v1.PodSchedulingGate ResourceClaims::[]v1.PodResourceClaim Resources::*v1.ResourceRequirements
v1.PodTemplateSpec ObjectMeta:metadata:v1.ObjectMeta Spec::v1.PodSpec
v1.PortworxVolumeSource VolumeID::string FSType:fsType:string ReadOnly::bool
v1.PreferredSchedulingTerm Weight::int32 Preference::v1.NodeSelectorTerm
v1.Probe ProbeHandler:,inline:v1.ProbeHandler InitialDelaySeconds::int32 TimeoutSeconds::int32 PeriodSeconds::int32 SuccessThreshold::int32 FailureThreshold::int32 TerminationGracePeriodSeconds::*int64
v1.ProbeHandler Exec::*v1.ExecAction HTTPGet:httpGet:*v1.HTTPGetAction TCPSocket:tcpSocket:*v1.TCPSocketAction GRPC:grpc:*v1.GRPCAction
v1.ProjectedVolumeSource Sources::[]v1.VolumeProjection DefaultMode::*int32
v1.QuobyteVolumeSource Registry::string Volume::string ReadOnly::bool User::string Group::string Tenant::string
v1.RBDVolumeSource CephMonitors:monitors:[]string RBDImage:image:string FSType:fsType:string RBDPool:pool:string RadosUser:user:string Keyring::string SecretRef::*v1.LocalObjectReference ReadOnly::bool
v1.ResourceClaim Name::string Request::string
v1.ResourceFieldSelector ContainerName::string Resource::string Divisor::resource.Quantity
v1.ResourceRequirements Limits::v1.ResourceList Requests::v1.ResourceList Claims::[]v1.ResourceClaim
v1.SELinuxOptions User::string Role::string Type::string Level::string
v1.ScaleIOVolumeSource Gateway::string System::string SecretRef::*v1.LocalObjectReference SSLEnabled:sslEnabled:bool ProtectionDomain::string StoragePool::string StorageMode::string VolumeName::string FSType:fsType:string ReadOnly::bool
v1.SeccompProfile Type::v1.SeccompProfileType LocalhostProfile::*string
v1.SecretEnvSource LocalObjectReference:,inline:v1.LocalObjectReference Optional::*bool
v1.SecretKeySelector LocalObjectReference:,inline:v1.LocalObjectReference Key::string Optional::*bool
v1.SecretProjection LocalObjectReference:,inline:v1.LocalObjectReference Items::[]v1.KeyToPath Optional::*bool
v1.SecretVolumeSource SecretName::string Items::[]v1.KeyToPath DefaultMode::*int32 Optional::*bool
v1.SecurityContext Capabilities::*v1.Capabilities Privileged::*bool SELinuxOptions:seLinuxOptions:*v1.SELinuxOptions WindowsOptions::*v1.WindowsSecurityContextOptions RunAsUser::*int64 RunAsGroup::*int64 RunAsNonRoot::*bool ReadOnlyRootFilesystem::*bool AllowPrivilegeEscalation::*bool ProcMount::*v1.ProcMountType SeccompProfile::*v1.SeccompProfile AppArmorProfile::*v1.AppArmorProfile
v1.ServiceAccountTokenProjection Audience::string ExpirationSeconds::*int64 Path::string
v1.SleepAction Seconds::int64
v1.StorageOSVolumeSource VolumeName::string VolumeNamespace::string FSType:fsType:string ReadOnly::bool SecretRef::*v1.LocalObjectReference
v1.Sysctl Name::string Value::string
v1.TCPSocketAction Port::intstr.IntOrString Host::string
v1.Toleration Key::string Operator::v1.TolerationOperator Value::string Effect::v1.TaintEffect TolerationSeconds::*int64
v1.TopologySpreadConstraint MaxSkew::int32 TopologyKey::string WhenUnsatisfiable::v1.UnsatisfiableConstraintAction LabelSelector::*v1.LabelSelector MinDomains::*int32 NodeAffinityPolicy::*v1.NodeInclusionPolicy NodeTaintsPolicy::*v1.NodeInclusionPolicy MatchLabelKeys::[]string
v1.TypedLocalObjectReference APIGroup:apiGroup:*string Kind::string Name::string
v1.TypedObjectReference APIGroup:apiGroup:*string Kind::string Name::string Namespace::*string
v1.Volume Name::string VolumeSource:,inline:v1.VolumeSource
v1.VolumeDevice Name::string DevicePath::string
v1.VolumeMount Name::string ReadOnly::bool RecursiveReadOnly::*v1.RecursiveReadOnlyMode MountPath::string SubPath::string MountPropagation::*v1.MountPropagationMode SubPathExpr::string
v1.VolumeProjection Secret::*v1.SecretProjection DownwardAPI::*v1.DownwardAPIProjection ConfigMap::*v1.ConfigMapProjection ServiceAccountToken::*v1.ServiceAccountTokenProjection ClusterTrustBundle::*v1.ClusterTrustBundleProjection
v1.VolumeResourceRequirements Limits::v1.ResourceList Requests::v1.ResourceList
v1.VolumeSource HostPath::*v1.HostPathVolumeSource EmptyDir::*v1.EmptyDirVolumeSource GCEPersistentDisk:gcePersistentDisk:*v1.GCEPersistentDiskVolumeSource AWSElasticBlockStore:awsElasticBlockStore:*v1.AWSElasticBlockStoreVolumeSource GitRepo::*v1.GitRepoVolumeSource Secret::*v1.SecretVolumeSource NFS:nfs:*v1.NFSVolumeSource ISCSI:iscsi:*v1.ISCSIVolumeSource Glusterfs::*v1.GlusterfsVolumeSource PersistentVolumeClaim::*v1.PersistentVolumeClaimVolumeSource RBD:rbd:*v1.RBDVolumeSource FlexVolume::*v1.FlexVolumeSource Cinder::*v1.CinderVolumeSource CephFS:cephfs:*v1.CephFSVolumeSource Flocker::*v1.FlockerVolumeSource DownwardAPI::*v1.DownwardAPIVolumeSource FC:fc:*v1.FCVolumeSource AzureFile::*v1.AzureFileVolumeSource ConfigMap::*v1.ConfigMapVolumeSource VsphereVolume::*v1.VsphereVirtualDiskVolumeSource Quobyte::*v1.QuobyteVolumeSource AzureDisk::*v1.AzureDiskVolumeSource PhotonPersistentDisk::*v1.PhotonPersistentDiskVolumeSource Projected::*v1.ProjectedVolumeSource PortworxVolume::*v1.PortworxVolumeSource ScaleIO::*v1.ScaleIOVolumeSource StorageOS:storageos:*v1.StorageOSVolumeSource CSI:csi:*v1.CSIVolumeSource Ephemeral::*v1.EphemeralVolumeSource Image::*v1.ImageVolumeSource
v1.VsphereVirtualDiskVolumeSource VolumePath::string FSType:fsType:string StoragePolicyName::string StoragePolicyID::string
v1.WeightedPodAffinityTerm Weight::int32 PodAffinityTerm::v1.PodAffinityTerm
v1.WindowsSecurityContextOptions GMSACredentialSpecName:gmsaCredentialSpecName:*string GMSACredentialSpec:gmsaCredentialSpec:*string RunAsUserName::*string HostProcess::*bool`

// upstreamStringTypes are the named string types a template's fields hold.
const upstreamStringTypes = `v1.AppArmorProfileType v1.AzureDataDiskCachingMode v1.AzureDataDiskKind v1.Capability
v1.ContainerRestartPolicy v1.DNSPolicy v1.HostPathType v1.LabelSelectorOperator
v1.ManagedFieldsOperationType v1.MountPropagationMode v1.NodeInclusionPolicy
v1.NodeSelectorOperator v1.OSName v1.PersistentVolumeAccessMode v1.PersistentVolumeMode
v1.PodConditionType v1.PodFSGroupChangePolicy v1.PodSELinuxChangePolicy
v1.PreemptionPolicy v1.ProcMountType v1.Protocol v1.PullPolicy v1.RecursiveReadOnlyMode
v1.ResourceName v1.ResourceResizeRestartPolicy v1.RestartPolicy v1.SeccompProfileType
v1.StorageMedium v1.SupplementalGroupsPolicy v1.TaintEffect v1.TerminationMessagePolicy
v1.TolerationOperator v1.URIScheme v1.UnsatisfiableConstraintAction`
