package apiserver

import (
	"encoding/json"
	"fmt"
	"reflect"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver/patch"
)

// The scale subresource: a workload's replicas as an autoscaling/v1 Scale,
// what kubectl scale and the HPA read and write.

func scaleOf(obj api.Object) (*api.Scale, error) {
	v := reflect.ValueOf(obj).Elem()
	spec, status := v.FieldByName("Spec"), v.FieldByName("Status")
	if !spec.IsValid() {
		return nil, apierrors.NewBadRequest("the object has no scale subresource")
	}
	sc := &api.Scale{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}}
	m := obj.GetObjectMeta()
	sc.ObjectMeta = api.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp}
	if r := spec.FieldByName("Replicas"); r.IsValid() && !r.IsNil() {
		sc.Spec.Replicas = int32(r.Elem().Int())
	}
	if status.IsValid() {
		if r := status.FieldByName("Replicas"); r.IsValid() {
			sc.Status.Replicas = int32(r.Int())
		}
	}
	if s := spec.FieldByName("Selector"); s.IsValid() && !s.IsNil() {
		if ls, ok := s.Interface().(*api.LabelSelector); ok {
			if sel, err := labels.SelectorFromLabelSelector(ls); err == nil {
				sc.Status.Selector = sel.String()
			}
		}
	}
	return sc, nil
}

// GetScale reads a workload's scale.
func (s *Server) GetScale(res *Resource, namespace, name string) (*api.Scale, error) {
	if !res.Scale {
		return nil, apierrors.NewNotFoundMessage()
	}
	obj, err := s.Get(res, namespace, name)
	if err != nil {
		return nil, err
	}
	return scaleOf(obj)
}

// UpdateScale sets a workload's replicas from a Scale.
func (s *Server) UpdateScale(res *Resource, namespace, name string, sc *api.Scale, dryRun bool) (*api.Scale, error) {
	if !res.Scale {
		return nil, apierrors.NewNotFoundMessage()
	}
	cur, err := s.Get(res, namespace, name)
	if err != nil {
		return nil, err
	}
	m := cur.GetObjectMeta()
	if sc.ResourceVersion != "" && sc.ResourceVersion != m.ResourceVersion {
		return nil, apierrors.NewConflict(gr(res), name, fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	if sc.Spec.Replicas < 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("Scale.autoscaling %q is invalid: spec.replicas: Invalid value: %d: must be greater than or equal to 0", name, sc.Spec.Replicas))
	}
	obj := cur.DeepCopyObject()
	r := reflect.ValueOf(obj).Elem().FieldByName("Spec").FieldByName("Replicas")
	n := sc.Spec.Replicas
	r.Set(reflect.ValueOf(&n))
	updated, err := s.Update(res, namespace, obj, UpdateOptions{DryRun: dryRun})
	if err != nil {
		return nil, err
	}
	return scaleOf(updated)
}

// PatchScale applies a patch to a workload's Scale.
func (s *Server) PatchScale(res *Resource, namespace, name, patchType string, data []byte, dryRun bool) (*api.Scale, error) {
	sc, err := s.GetScale(res, namespace, name)
	if err != nil {
		return nil, err
	}
	original, _ := json.Marshal(sc)
	var patched []byte
	switch patchType {
	case JSONPatchType:
		patched, err = patch.JSONPatch(original, data)
	case MergePatchType, StrategicMergePatchType:
		patched, err = patch.MergePatch(original, data)
	default:
		return nil, apierrors.NewUnsupportedMediaType(patchType)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	var out api.Scale
	if err := json.Unmarshal(patched, &out); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return s.UpdateScale(res, namespace, name, &out, dryRun)
}
