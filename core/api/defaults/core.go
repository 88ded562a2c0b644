package defaults

import "kubeplay/core/api"

// defaultNamespace labels a named namespace with its name and marks it Active.
func defaultNamespace(ns *api.Namespace) {
	if ns.Name != "" {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[api.LabelMetadataName] = ns.Name
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = api.NamespaceActive
	}
}

// defaultNode: allocatable defaults to capacity.
func defaultNode(n *api.Node) {
	st := &n.Status
	if st.Allocatable == nil && st.Capacity != nil {
		st.Allocatable = make(api.ResourceList, len(st.Capacity))
		for name, q := range st.Capacity {
			st.Allocatable[name] = q
		}
	}
	roundResourceList(st.Capacity)
	roundResourceList(st.Allocatable)
}
