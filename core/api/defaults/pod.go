package defaults

import (
	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// defaultPod applies the Pod-only defaults, then those every pod template gets.
func defaultPod(pod *api.Pod) {
	spec := &pod.Spec
	// Requests default to limits only on Pods: a template keeps what was
	// written, and its pods get the copy when they are created.
	for _, cs := range [][]api.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			requestsFromLimits(&cs[i].Resources)
		}
	}
	if spec.EnableServiceLinks == nil {
		spec.EnableServiceLinks = ptr(api.DefaultEnableServiceLinks)
	}
	if spec.HostNetwork {
		for _, cs := range [][]api.Container{spec.Containers, spec.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if p := &cs[i].Ports[j]; p.HostPort == 0 {
						p.HostPort = p.ContainerPort
					}
				}
			}
		}
	}
	defaultPodSpec(spec)
	if spec.Resources != nil {
		roundResourceList(spec.Resources.Limits)
		roundResourceList(spec.Resources.Requests)
	}
	for _, statuses := range [][]api.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for i := range statuses {
			roundResourceList(statuses[i].AllocatedResources)
			if r := statuses[i].Resources; r != nil {
				roundResourceList(r.Limits)
				roundResourceList(r.Requests)
			}
		}
	}
}

// requestsFromLimits copies each limit without a request into requests.
func requestsFromLimits(r *api.ResourceRequirements) {
	if r.Limits == nil {
		return
	}
	if r.Requests == nil {
		r.Requests = api.ResourceList{}
	}
	for name, limit := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			r.Requests[name] = limit
		}
	}
}

// defaultPodTemplateSpec defaults the pod spec of a template (workloads,
// PodTemplate): everything of a Pod's except the Pod-only defaults.
func defaultPodTemplateSpec(t *api.PodTemplateSpec) { defaultPodSpec(&t.Spec) }

// defaultPodSpec is upstream's SetDefaults_PodSpec plus the defaults of
// everything a pod spec holds.
func defaultPodSpec(spec *api.PodSpec) {
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = api.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = api.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &api.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		spec.TerminationGracePeriodSeconds = ptr[int64](api.DefaultTerminationGracePeriodSeconds)
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = api.DefaultSchedulerName
	}
	for i := range spec.Volumes {
		defaultVolume(&spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		defaultContainer(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		defaultContainer(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		defaultContainer((*api.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundResourceList(spec.Overhead)
}

// defaultContainer is SetDefaults_Container and the defaults of its parts.
func defaultContainer(c *api.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicy(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = api.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = api.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = api.ProtocolTCP
		}
	}
	for i := range c.Env {
		if vf := c.Env[i].ValueFrom; vf != nil && vf.FieldRef != nil {
			defaultFieldRef(vf.FieldRef)
		}
	}
	roundResourceList(c.Resources.Limits)
	roundResourceList(c.Resources.Requests)
	for _, p := range []*api.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			defaultProbe(p)
		}
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*api.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil && h.HTTPGet != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

func defaultProbe(p *api.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if p.HTTPGet != nil {
		defaultHTTPGet(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptr("")
	}
}

func defaultHTTPGet(h *api.HTTPGetAction) {
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = api.URISchemeHTTP
	}
}

func defaultFieldRef(f *api.ObjectFieldSelector) {
	if f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// defaultVolume: a volume naming no source is an emptyDir; sources get
// their modes and types.
func defaultVolume(v *api.Volume) {
	s := &v.VolumeSource
	if *s == (api.VolumeSource{}) {
		s.EmptyDir = &api.EmptyDirVolumeSource{}
	}
	if s.HostPath != nil && s.HostPath.Type == nil {
		s.HostPath.Type = ptr(api.HostPathUnset)
	}
	if s.Secret != nil && s.Secret.DefaultMode == nil {
		s.Secret.DefaultMode = ptr(api.SecretVolumeSourceDefaultMode)
	}
	if s.ConfigMap != nil && s.ConfigMap.DefaultMode == nil {
		s.ConfigMap.DefaultMode = ptr(api.ConfigMapVolumeSourceDefaultMode)
	}
	if d := s.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = ptr(api.DownwardAPIVolumeSourceDefaultMode)
		}
		defaultDownwardAPIFiles(d.Items)
	}
	if p := s.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = ptr(api.ProjectedVolumeSourceDefaultMode)
		}
		for i := range p.Sources {
			src := &p.Sources[i]
			if src.DownwardAPI != nil {
				defaultDownwardAPIFiles(src.DownwardAPI.Items)
			}
			if t := src.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				t.ExpirationSeconds = ptr[int64](3600) // one hour
			}
		}
	}
	if e := s.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		defaultPVCSpec(&e.VolumeClaimTemplate.Spec)
	}
}

func defaultDownwardAPIFiles(items []api.DownwardAPIVolumeFile) {
	for i := range items {
		if items[i].FieldRef != nil {
			defaultFieldRef(items[i].FieldRef)
		}
	}
}

// roundResourceList rounds every quantity up to whole milli-units, as the
// API has always stored them ("0.0001" cpu is stored as "1m").
func roundResourceList(rl api.ResourceList) {
	for name, q := range rl {
		if !q.RoundUp(resource.Milli) {
			rl[name] = q
		}
	}
}
