// Package apiserver is kubeplay's API server: the resource registry, storage
// with resourceVersions and watches, admission, graceful deletion with
// finalizers, patches, subresources, and the REST handler on Kubernetes' paths.
package apiserver

import (
	"sort"
	"strings"
)

// Resource describes one served resource, as discovery reports it.
type Resource struct {
	Group      string
	Version    string
	Name       string // plural: "deployments"
	Singular   string
	Kind       string
	ShortNames []string
	Namespaced bool
	Categories []string
	Verbs      []string
	// Status is true when the resource has a status subresource: main
	// updates keep the stored status and status updates keep everything else.
	Status bool
	// Generation is true when spec changes bump metadata.generation.
	Generation bool
	// Scale is true when the resource has a scale subresource.
	Scale bool
	// Computed resources (metrics.k8s.io) are answered by the server's
	// MetricsProvider when read and stored nowhere.
	Computed bool
}

// GroupResource names a resource without its version: "deployments.apps".
type GroupResource struct {
	Group, Resource string
}

func (g GroupResource) String() string {
	if g.Group == "" {
		return g.Resource
	}
	return g.Resource + "." + g.Group
}

// GroupResource returns the resource's group and plural name.
func (r *Resource) GroupResource() GroupResource { return GroupResource{r.Group, r.Name} }

// APIVersion is "v1" or "apps/v1".
func (r *Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

var (
	verbsAll      = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	verbsNoDelCol = []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	verbsCreate   = []string{"create"}
)

// resourceTable is every served resource, in discovery order (group order as
// a real v1.32 apiserver lists them, resources alphabetical within a group).
var resourceTable = []Resource{
	{Version: "v1", Name: "bindings", Singular: "binding", Kind: "Binding", Namespaced: true, Verbs: verbsCreate},
	{Version: "v1", Name: "componentstatuses", Singular: "componentstatus", Kind: "ComponentStatus", ShortNames: []string{"cs"}, Verbs: []string{"get", "list"}},
	{Version: "v1", Name: "configmaps", Singular: "configmap", Kind: "ConfigMap", ShortNames: []string{"cm"}, Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "endpoints", Singular: "endpoints", Kind: "Endpoints", ShortNames: []string{"ep"}, Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"}, Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "namespaces", Singular: "namespace", Kind: "Namespace", ShortNames: []string{"ns"}, Verbs: verbsNoDelCol, Status: true},
	{Version: "v1", Name: "nodes", Singular: "node", Kind: "Node", ShortNames: []string{"no"}, Verbs: verbsAll, Status: true},
	{Version: "v1", Name: "persistentvolumeclaims", Singular: "persistentvolumeclaim", Kind: "PersistentVolumeClaim", ShortNames: []string{"pvc"}, Namespaced: true, Verbs: verbsAll, Status: true},
	{Version: "v1", Name: "persistentvolumes", Singular: "persistentvolume", Kind: "PersistentVolume", ShortNames: []string{"pv"}, Verbs: verbsAll, Status: true},
	{Version: "v1", Name: "pods", Singular: "pod", Kind: "Pod", ShortNames: []string{"po"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true},
	{Version: "v1", Name: "podtemplates", Singular: "podtemplate", Kind: "PodTemplate", Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "resourcequotas", Singular: "resourcequota", Kind: "ResourceQuota", ShortNames: []string{"quota"}, Namespaced: true, Verbs: verbsAll, Status: true},
	{Version: "v1", Name: "secrets", Singular: "secret", Kind: "Secret", Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "serviceaccounts", Singular: "serviceaccount", Kind: "ServiceAccount", ShortNames: []string{"sa"}, Namespaced: true, Verbs: verbsAll},
	{Version: "v1", Name: "services", Singular: "service", Kind: "Service", ShortNames: []string{"svc"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true},
	{Group: "apps", Version: "v1", Name: "controllerrevisions", Singular: "controllerrevision", Kind: "ControllerRevision", Namespaced: true, Verbs: verbsAll},
	{Group: "apps", Version: "v1", Name: "daemonsets", Singular: "daemonset", Kind: "DaemonSet", ShortNames: []string{"ds"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true},
	{Group: "apps", Version: "v1", Name: "deployments", Singular: "deployment", Kind: "Deployment", ShortNames: []string{"deploy"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true, Scale: true},
	{Group: "apps", Version: "v1", Name: "replicasets", Singular: "replicaset", Kind: "ReplicaSet", ShortNames: []string{"rs"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true, Scale: true},
	{Group: "apps", Version: "v1", Name: "statefulsets", Singular: "statefulset", Kind: "StatefulSet", ShortNames: []string{"sts"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true, Scale: true},
	{Group: "autoscaling", Version: "v2", Name: "horizontalpodautoscalers", Singular: "horizontalpodautoscaler", Kind: "HorizontalPodAutoscaler", ShortNames: []string{"hpa"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true},
	{Group: "batch", Version: "v1", Name: "cronjobs", Singular: "cronjob", Kind: "CronJob", ShortNames: []string{"cj"}, Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true},
	{Group: "batch", Version: "v1", Name: "jobs", Singular: "job", Kind: "Job", Namespaced: true, Categories: []string{"all"}, Verbs: verbsAll, Status: true, Generation: true},
	{Group: "coordination.k8s.io", Version: "v1", Name: "leases", Singular: "lease", Kind: "Lease", Namespaced: true, Verbs: verbsAll},
	{Group: "discovery.k8s.io", Version: "v1", Name: "endpointslices", Singular: "endpointslice", Kind: "EndpointSlice", Namespaced: true, Verbs: verbsAll},
	{Group: "policy", Version: "v1", Name: "poddisruptionbudgets", Singular: "poddisruptionbudget", Kind: "PodDisruptionBudget", ShortNames: []string{"pdb"}, Namespaced: true, Verbs: verbsAll, Status: true, Generation: true},
	{Group: "metrics.k8s.io", Version: "v1beta1", Name: "nodes", Singular: "", Kind: "NodeMetrics", Verbs: []string{"get", "list"}, Computed: true},
	{Group: "metrics.k8s.io", Version: "v1beta1", Name: "pods", Singular: "", Kind: "PodMetrics", Namespaced: true, Verbs: []string{"get", "list"}, Computed: true},
	{Group: "storage.k8s.io", Version: "v1", Name: "storageclasses", Singular: "storageclass", Kind: "StorageClass", ShortNames: []string{"sc"}, Verbs: verbsAll},
}

// extraVersions are further versions a group serves for a resource stored
// in its preferred version above (autoscaling/v1 HPAs are stored as v2).
var extraVersions = []struct{ group, version, resource string }{
	{"autoscaling", "v1", "horizontalpodautoscalers"},
}

// Registry answers which resource a name, short name, kind or
// group-qualified spelling means, as kubectl's RESTMapper does.
type Registry struct {
	resources []*Resource
	byGR      map[GroupResource]*Resource
}

// NewRegistry builds the registry of every served resource.
func NewRegistry() *Registry {
	r := &Registry{byGR: map[GroupResource]*Resource{}}
	for i := range resourceTable {
		res := resourceTable[i]
		r.resources = append(r.resources, &res)
		r.byGR[res.GroupResource()] = &res
	}
	return r
}

// All lists the served resources in discovery order.
func (r *Registry) All() []*Resource { return r.resources }

// Get finds a resource by group and plural name.
func (r *Registry) Get(group, resource string) (*Resource, bool) {
	res, ok := r.byGR[GroupResource{group, resource}]
	return res, ok
}

// ForKind finds the resource serving apiVersion/kind; the apiVersion must be
// one the group serves.
func (r *Registry) ForKind(apiVersion, kind string) (*Resource, bool) {
	group, version := splitAPIVersion(apiVersion)
	for _, res := range r.resources {
		if res.Group == group && res.Kind == kind && r.ServesVersion(res, version) {
			return res, true
		}
	}
	return nil, false
}

// ForGoKind finds the resource storing a kind by its Go type name; the
// autoscaling/v1 HPA type is stored as the v2 kind.
func (r *Registry) ForGoKind(name string) (*Resource, bool) {
	if name == "HorizontalPodAutoscalerV1" {
		name = "HorizontalPodAutoscaler"
	}
	for _, res := range r.resources {
		if res.Kind == name {
			return res, true
		}
	}
	return nil, false
}

// ServesVersion reports whether res is served at version.
func (r *Registry) ServesVersion(res *Resource, version string) bool {
	if res.Version == version {
		return true
	}
	for _, v := range extraVersions {
		if v.group == res.Group && v.resource == res.Name && v.version == version {
			return true
		}
	}
	return false
}

// Versions lists the versions res is served at, preferred first.
func (r *Registry) Versions(res *Resource) []string {
	out := []string{res.Version}
	for _, v := range extraVersions {
		if v.group == res.Group && v.resource == res.Name {
			out = append(out, v.version)
		}
	}
	return out
}

// GroupVersions lists "v1" and "group/version" for every served version,
// sorted: discovery's view, as kubectl api-versions prints it.
func (r *Registry) GroupVersions() []string {
	seen := map[string]bool{}
	var out []string
	for _, res := range r.resources {
		for _, v := range r.Versions(res) {
			gv := v
			if res.Group != "" {
				gv = res.Group + "/" + v
			}
			if !seen[gv] {
				seen[gv] = true
				out = append(out, gv)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Groups lists the served API groups ("" for core) in discovery order.
func (r *Registry) Groups() []string {
	var out []string
	seen := map[string]bool{}
	for _, res := range r.resources {
		if !seen[res.Group] {
			seen[res.Group] = true
			out = append(out, res.Group)
		}
	}
	return out
}

// Resolve maps what a user typed ("po", "Deployment", "deployments.apps",
// "deployment.v1.apps", "leases.coordination.k8s.io") to a resource.
func (r *Registry) Resolve(name string) (*Resource, bool) {
	lower := strings.ToLower(name)
	head, group, version := lower, "", ""
	if i := strings.IndexByte(lower, '.'); i >= 0 {
		head = lower[:i]
		rest := lower[i+1:]
		// "deployment.v1.apps": a version segment follows the name.
		if j := strings.IndexByte(rest, '.'); j >= 0 && looksLikeVersion(rest[:j]) {
			version, group = rest[:j], rest[j+1:]
		} else if looksLikeVersion(rest) && r.hasGroupVersion("", rest) {
			version = rest
		} else {
			group = rest
		}
	}
	var match *Resource
	for _, res := range r.resources {
		if !r.nameMatches(res, head) {
			continue
		}
		if strings.Contains(lower, ".") && res.Group != group {
			continue
		}
		if version != "" && !r.ServesVersion(res, version) {
			continue
		}
		if match == nil || preferred(res, match) {
			match = res
		}
	}
	return match, match != nil
}

func (r *Registry) nameMatches(res *Resource, s string) bool {
	if s == res.Name || s == res.Singular || s == strings.ToLower(res.Kind) {
		return true
	}
	for _, sn := range res.ShortNames {
		if s == sn {
			return true
		}
	}
	return false
}

func (r *Registry) hasGroupVersion(group, version string) bool {
	for _, res := range r.resources {
		if res.Group == group && r.ServesVersion(res, version) {
			return true
		}
	}
	return false
}

// preferred breaks ties between groups serving the same name as kubectl
// does: the core group wins.
func preferred(a, b *Resource) bool { return a.Group == "" && b.Group != "" }

func looksLikeVersion(s string) bool {
	return len(s) >= 2 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9'
}

func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// Category lists the resources in a category such as "all", in the order
// kubectl prints them for `kubectl get all`.
func (r *Registry) Category(name string) []*Resource {
	order := map[string]int{"pods": 0, "services": 1, "daemonsets": 2, "deployments": 3, "replicasets": 4, "statefulsets": 5, "horizontalpodautoscalers": 6, "cronjobs": 7, "jobs": 8}
	var out []*Resource
	for _, res := range r.resources {
		for _, c := range res.Categories {
			if c == name {
				out = append(out, res)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Name] < order[out[j].Name] })
	return out
}
