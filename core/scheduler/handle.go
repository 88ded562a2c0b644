package scheduler

import (
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/scheduler/framework"
)

// handle gives plugins the cycle's snapshot and the objects they read
// through the shared informers.
type handle struct {
	lister                      framework.NodeInfoLister
	nsInf, svcInf, rsInf, ssInf *client.Informer
	pvcInf, pvInf, scInf        *client.Informer
}

func (h *handle) NodeInfos() framework.NodeInfoLister { return h.lister }

func (h *handle) NamespaceLabels(ns string) labels.Set {
	o, ok := h.nsInf.Get("", ns)
	if !ok {
		return nil
	}
	return labels.Set(o.(*api.Namespace).Labels)
}

func (h *handle) NamespacesMatching(sel labels.Selector) []string {
	var out []string
	for _, o := range h.nsInf.List("") {
		n := o.(*api.Namespace)
		if sel.Matches(labels.Set(n.Labels)) {
			out = append(out, n.Name)
		}
	}
	sort.Strings(out)
	return out
}

func (h *handle) Services(ns string) []*api.Service {
	var out []*api.Service
	for _, o := range h.svcInf.List(ns) {
		out = append(out, o.(*api.Service))
	}
	return out
}

func (h *handle) ReplicaSet(ns, name string) (*api.ReplicaSet, bool) {
	o, ok := h.rsInf.Get(ns, name)
	if !ok {
		return nil, false
	}
	return o.(*api.ReplicaSet), true
}

func (h *handle) StatefulSet(ns, name string) (*api.StatefulSet, bool) {
	o, ok := h.ssInf.Get(ns, name)
	if !ok {
		return nil, false
	}
	return o.(*api.StatefulSet), true
}

// PersistentVolumeClaim, PersistentVolume and StorageClass are what
// VolumeBinding reads.
func (h *handle) PersistentVolumeClaim(ns, name string) (*api.PersistentVolumeClaim, bool) {
	o, ok := h.pvcInf.Get(ns, name)
	if !ok {
		return nil, false
	}
	return o.(*api.PersistentVolumeClaim), true
}

func (h *handle) PersistentVolume(name string) (*api.PersistentVolume, bool) {
	o, ok := h.pvInf.Get("", name)
	if !ok {
		return nil, false
	}
	return o.(*api.PersistentVolume), true
}

func (h *handle) StorageClass(name string) (*api.StorageClass, bool) {
	o, ok := h.scInf.Get("", name)
	if !ok {
		return nil, false
	}
	return o.(*api.StorageClass), true
}
