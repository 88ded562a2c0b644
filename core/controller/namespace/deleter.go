package namespace

import (
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/clock"
)

// ResourcesRemainingError says content is still terminating; Estimate is
// how many seconds it may take.
type ResourcesRemainingError struct {
	Estimate int64
	Message  string
}

func (e *ResourcesRemainingError) Error() string { return e.Message }

// resourcesDeleter empties a namespace resource by resource, as upstream's
// namespacedResourcesDeleter does.
type resourcesDeleter struct {
	client client.Interface
	clock  *clock.Clock
}

// Delete runs one pass over a terminating namespace.
func (d *resourcesDeleter) Delete(ns *api.Namespace) error {
	if ns.DeletionTimestamp == nil || ns.Status.Phase != api.NamespaceTerminating {
		return nil
	}
	if !hasSpecFinalizer(ns) {
		return nil
	}
	remaining, estimate, err := d.deleteAllContent(ns)
	if err != nil {
		return err
	}
	if err := d.updateConditions(ns, remaining); err != nil {
		return err
	}
	if len(remaining) > 0 {
		return &ResourcesRemainingError{Estimate: estimate, Message: fmt.Sprintf("some content remains in the namespace, estimate %d seconds before it is removed", estimate)}
	}
	return d.finalizeNamespace(ns)
}

func hasSpecFinalizer(ns *api.Namespace) bool {
	for _, f := range ns.Spec.Finalizers {
		if f == api.FinalizerKubernetes {
			return true
		}
	}
	return false
}

// deleteAllContent deletes every object in the namespace and reports what
// is still there (terminating pods, objects held by finalizers) by resource.
func (d *resourcesDeleter) deleteAllContent(ns *api.Namespace) (map[string]int, int64, error) {
	remaining := map[string]int{}
	var estimate int64
	for _, res := range d.client.Registry().All() {
		if !res.Namespaced || !canDelete(res) {
			continue
		}
		objs, _ := d.client.List(res, ns.Name, apiserver.ListOptions{})
		if len(objs) == 0 {
			continue
		}
		if res.Group == "" && res.Name == "pods" {
			estimate = max(estimate, estimateGracefulTermination(objs))
		}
		for _, o := range objs {
			if o.GetObjectMeta().DeletionTimestamp != nil {
				continue
			}
			bg := api.DeletePropagationBackground
			if _, err := d.client.Delete(res, ns.Name, o.GetObjectMeta().Name, api.DeleteOptions{PropagationPolicy: &bg}); err != nil && !apierrors.IsNotFound(err) {
				return nil, 0, err
			}
		}
		if left, _ := d.client.List(res, ns.Name, apiserver.ListOptions{}); len(left) > 0 {
			remaining[res.GroupResource().String()] = len(left)
		}
	}
	return remaining, estimate, nil
}

func canDelete(res *apiserver.Resource) bool {
	for _, v := range res.Verbs {
		if v == "delete" {
			return true
		}
	}
	return false
}

// estimateGracefulTermination is the longest grace period among pods that
// have not finished.
func estimateGracefulTermination(pods []api.Object) int64 {
	var est int64
	for _, o := range pods {
		p := o.(*api.Pod)
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g > est {
			est = *g
		}
	}
	return est
}

// updateConditions records on the namespace what is holding it up.
func (d *resourcesDeleter) updateConditions(ns *api.Namespace, remaining map[string]int) error {
	cur := ns.DeepCopy()
	now := api.NewTime(d.clock.Now())
	set := func(typ, status, reason, message string) {
		for i := range cur.Status.Conditions {
			c := &cur.Status.Conditions[i]
			if c.Type == typ {
				if c.Status != status {
					c.LastTransitionTime = now
				}
				c.Status, c.Reason, c.Message = status, reason, message
				return
			}
		}
		cur.Status.Conditions = append(cur.Status.Conditions, api.NamespaceCondition{Type: typ, Status: status, LastTransitionTime: now, Reason: reason, Message: message})
	}
	set(api.NamespaceDeletionDiscoveryFailure, "False", "ResourcesDiscovered", "All resources successfully discovered")
	set(api.NamespaceDeletionGVParsingFailure, "False", "ParsedGroupVersions", "All legacy kube types successfully parsed")
	set(api.NamespaceDeletionContentFailure, "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization")
	if len(remaining) == 0 {
		set(api.NamespaceContentRemaining, "False", "ContentRemoved", "All content successfully removed")
	} else {
		var parts []string
		for gr, n := range remaining {
			parts = append(parts, fmt.Sprintf("%s has %d resource instances", gr, n))
		}
		sort.Strings(parts)
		set(api.NamespaceContentRemaining, "True", "SomeResourcesRemain", "Some resources are remaining: "+strings.Join(parts, ", "))
	}
	set(api.NamespaceFinalizersRemaining, "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished")
	_, err := client.UpdateStatus(d.client, cur)
	return err
}

// finalizeNamespace removes the "kubernetes" finalizer through the
// finalize subresource; the API server then deletes the namespace.
func (d *resourcesDeleter) finalizeNamespace(ns *api.Namespace) error {
	latest, err := client.Get[*api.Namespace](d.client, "", ns.Name)
	if err != nil {
		return nil
	}
	cur := latest.DeepCopy()
	var keep []string
	for _, f := range cur.Spec.Finalizers {
		if f != api.FinalizerKubernetes {
			keep = append(keep, f)
		}
	}
	cur.Spec.Finalizers = keep
	_, err = d.client.Update(client.ResourceFor[*api.Namespace](d.client), "", cur, apiserver.UpdateOptions{Subresource: "finalize"})
	return err
}
