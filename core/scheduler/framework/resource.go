package framework

import (
	"maps"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// Defaults the scheduler assumes for a container that sets no request, when
// scoring only: without them every best-effort pod would look free and
// pile onto one node.
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MB
)

// Resource is an amount of compute resources in the scheduler's units:
// millicores, bytes, a pod count, and whole units of anything else.
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int
	ScalarResources  map[string]int64
}

// NewResource converts a resource list.
func NewResource(rl api.ResourceList) *Resource {
	r := &Resource{}
	r.Add(rl)
	return r
}

// Add adds a resource list.
func (r *Resource) Add(rl api.ResourceList) {
	if r == nil {
		return
	}
	for name, q := range rl {
		r.addOne(name, q)
	}
}

func (r *Resource) addOne(name string, q resource.Quantity) {
	switch name {
	case api.ResourceCPU:
		r.MilliCPU += q.MilliValue()
	case api.ResourceMemory:
		r.Memory += q.Value()
	case api.ResourceEphemeralStorage:
		r.EphemeralStorage += q.Value()
	case api.ResourcePods:
		r.AllowedPodNumber += int(q.Value())
	default:
		if r.ScalarResources == nil {
			r.ScalarResources = map[string]int64{}
		}
		r.ScalarResources[name] += q.Value()
	}
}

// PodRequestsResource is NewResource(PodRequests(pod, opts)), summed
// straight from the container for the usual pod (one container, no init
// containers, no overhead) rather than through a new list: the scheduler
// asks it of every pod it places and scores.
func PodRequestsResource(pod *api.Pod, opts PodRequestsOptions) *Resource {
	if len(pod.Spec.Containers) != 1 || len(pod.Spec.InitContainers) > 0 || len(pod.Spec.Overhead) > 0 {
		return NewResource(PodRequests(pod, opts))
	}
	reqs := pod.Spec.Containers[0].Resources.Requests
	r := NewResource(reqs)
	for name, q := range opts.NonMissing {
		if _, ok := reqs[name]; !ok {
			r.addOne(name, q)
		}
	}
	return r
}

// Clone copies the resource.
func (r *Resource) Clone() *Resource {
	out := *r
	if r.ScalarResources != nil {
		out.ScalarResources = make(map[string]int64, len(r.ScalarResources))
		for k, v := range r.ScalarResources {
			out.ScalarResources[k] = v
		}
	}
	return &out
}

// Equal says whether r and o hold the same amounts (a missing scalar
// resource and an empty map are the same as none).
func (r *Resource) Equal(o *Resource) bool {
	return r.MilliCPU == o.MilliCPU && r.Memory == o.Memory && r.EphemeralStorage == o.EphemeralStorage &&
		r.AllowedPodNumber == o.AllowedPodNumber && maps.Equal(r.ScalarResources, o.ScalarResources)
}

// ScalarNames are the names of the scalar resources, sorted.
func (r *Resource) ScalarNames() []string {
	names := make([]string, 0, len(r.ScalarResources))
	for k := range r.ScalarResources {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Get returns the amount of one resource in the scheduler's units.
func (r *Resource) Get(name string) int64 {
	switch name {
	case api.ResourceCPU:
		return r.MilliCPU
	case api.ResourceMemory:
		return r.Memory
	case api.ResourceEphemeralStorage:
		return r.EphemeralStorage
	case api.ResourcePods:
		return int64(r.AllowedPodNumber)
	}
	return r.ScalarResources[name]
}

// ResourceKey names a resource for Resource.Value: the native ones by a
// number, so that reading one for every scored node compares no strings.
type ResourceKey struct {
	native int8 // 1 cpu, 2 memory, 3 ephemeral-storage, 4 pods; 0 another
	name   string
}

// KeyFor is the key of the resource name.
func KeyFor(name string) ResourceKey {
	switch name {
	case api.ResourceCPU:
		return ResourceKey{1, name}
	case api.ResourceMemory:
		return ResourceKey{2, name}
	case api.ResourceEphemeralStorage:
		return ResourceKey{3, name}
	case api.ResourcePods:
		return ResourceKey{4, name}
	}
	return ResourceKey{0, name}
}

// Native says whether the key is cpu, memory, ephemeral-storage or pods.
func (k ResourceKey) Native() bool { return k.native != 0 }

// Value is Get(k's name).
func (r *Resource) Value(k ResourceKey) int64 {
	switch k.native {
	case 1:
		return r.MilliCPU
	case 2:
		return r.Memory
	case 3:
		return r.EphemeralStorage
	case 4:
		return int64(r.AllowedPodNumber)
	}
	return r.ScalarResources[k.name]
}

// PodRequestsOptions tunes PodRequests.
type PodRequestsOptions struct {
	// NonMissing fills in a container's request for these resources when the
	// container does not set one (the scoring defaults).
	NonMissing api.ResourceList
}

// PodRequests is what a pod asks of a node, as upstream computes it: the
// sum of its app containers and sidecars, or the largest init container
// step if that is bigger, plus the pod overhead.
func PodRequests(pod *api.Pod, opts PodRequestsOptions) api.ResourceList {
	if len(pod.Spec.Containers) == 1 && len(pod.Spec.InitContainers) == 0 && len(pod.Spec.Overhead) == 0 {
		// The usual pod: its one container's requests, in one new map.
		return containerRequests(&pod.Spec.Containers[0], opts)
	}
	reqs := api.ResourceList{}
	for i := range pod.Spec.Containers {
		addList(reqs, containerRequests(&pod.Spec.Containers[i], opts))
	}
	sidecars := api.ResourceList{}
	initMax := api.ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		step := containerRequests(c, opts)
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			// A sidecar keeps running beside the app containers and the later init containers.
			addList(reqs, step)
			addList(sidecars, step)
			step = copyList(sidecars)
		} else {
			addList(step, sidecars)
		}
		maxList(initMax, step)
	}
	maxList(reqs, initMax)
	addList(reqs, pod.Spec.Overhead)
	return reqs
}

func containerRequests(c *api.Container, opts PodRequestsOptions) api.ResourceList {
	out := copyList(c.Resources.Requests)
	for name, q := range opts.NonMissing {
		if _, ok := out[name]; !ok {
			out[name] = q
		}
	}
	return out
}

func copyList(rl api.ResourceList) api.ResourceList {
	out := make(api.ResourceList, len(rl))
	for k, v := range rl {
		out[k] = v
	}
	return out
}

func addList(dst, src api.ResourceList) {
	for name, q := range src {
		cur, ok := dst[name]
		if !ok {
			dst[name] = q
			continue
		}
		cur.Add(q)
		dst[name] = cur
	}
}

func maxList(dst, src api.ResourceList) {
	for name, q := range src {
		if cur, ok := dst[name]; !ok || q.Cmp(cur) > 0 {
			dst[name] = q
		}
	}
}

// NonZeroDefaults are the scoring defaults as a resource list.
func NonZeroDefaults() api.ResourceList {
	return api.ResourceList{
		api.ResourceCPU:    *resource.NewMilliQuantity(DefaultMilliCPURequest, resource.DecimalSI),
		api.ResourceMemory: *resource.NewQuantity(DefaultMemoryRequest, resource.DecimalSI),
	}
}

// ComputePodResourceRequest is the pod's request for the fit filter (no defaults).
func ComputePodResourceRequest(pod *api.Pod) *Resource {
	return PodRequestsResource(pod, PodRequestsOptions{})
}
