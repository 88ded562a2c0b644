package fake

import (
	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// Node is a node with allocatable cpu, memory and pods ("4", "8Gi", "110")
// and the given labels plus its hostname label.
func Node(name string, labels map[string]string, alloc ...string) *api.Node {
	cpu, mem, pods := "4", "8Gi", "110"
	if len(alloc) > 0 {
		cpu = alloc[0]
	}
	if len(alloc) > 1 {
		mem = alloc[1]
	}
	if len(alloc) > 2 {
		pods = alloc[2]
	}
	l := map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		l[k] = v
	}
	rl := api.ResourceList{
		api.ResourceCPU:    resource.MustParse(cpu),
		api.ResourceMemory: resource.MustParse(mem),
		api.ResourcePods:   resource.MustParse(pods),
	}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: l}, Status: api.NodeStatus{Capacity: rl, Allocatable: rl}}
}

// Pod is a one-container pod in namespace "default" with the given labels.
func Pod(name string, labels map[string]string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

// On returns a copy of pod bound to node.
func On(pod *api.Pod, node string) *api.Pod {
	p := pod.DeepCopy()
	p.Spec.NodeName = node
	return p
}

// Requests sets the first container's requests from name/quantity pairs.
func Requests(pod *api.Pod, kv ...string) *api.Pod {
	rl := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		rl[kv[i]] = resource.MustParse(kv[i+1])
	}
	pod.Spec.Containers[0].Resources.Requests = rl
	return pod
}
