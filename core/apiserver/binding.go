package apiserver

import (
	"fmt"
	"maps"
	"slices"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/field"
)

// Bind is the pods/binding subresource: the scheduler's one way to place a
// pod. It sets spec.nodeName (which no update may change) and the
// PodScheduled condition in a single write, and refuses a pod that is
// already placed or is being deleted.
func (s *Server) Bind(namespace string, b *api.Binding) error {
	pods, _ := s.Registry.Get("", "pods")
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		return apierrors.NewInvalid(apierrors.GroupKind{Kind: "Binding"}, b.Name,
			field.ErrorList{field.NotSupported(field.NewPath("target").Child("kind"), b.Target.Kind, []string{"Node", "<empty>"})})
	}
	if b.Target.Name == "" {
		return apierrors.NewInvalid(apierrors.GroupKind{Kind: "Binding"}, b.Name,
			field.ErrorList{field.Required(field.NewPath("target").Child("name"), "")})
	}
	old, ok := s.storeFor(pods).get(namespace, b.Name)
	if !ok {
		return apierrors.NewNotFound(gr(pods), b.Name)
	}
	// The bound version shares what it does not change with old; the
	// annotations and conditions it changes are copied first.
	bound := *old.(*api.Pod)
	pod := &bound
	if pod.DeletionTimestamp != nil {
		return apierrors.NewConflict(gr(pods), b.Name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", b.Name))
	}
	if pod.Spec.NodeName != "" {
		return apierrors.NewConflict(gr(pods), b.Name, fmt.Errorf("pod %s is already assigned to node %q", b.Name, pod.Spec.NodeName))
	}
	if b.ResourceVersion != "" && b.ResourceVersion != pod.ResourceVersion {
		return apierrors.NewConflict(gr(pods), b.Name, fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	pod.Spec.NodeName = b.Target.Name
	if len(b.Annotations) > 0 {
		pod.Annotations = maps.Clone(pod.Annotations)
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		maps.Copy(pod.Annotations, b.Annotations)
	}
	pod.Status.Conditions = slices.Clone(pod.Status.Conditions)
	api.UpdatePodCondition(&pod.Status, &api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, s.now())
	s.commit(pods, WatchEvent{Type: Modified, Object: pod, Old: old})
	return nil
}
