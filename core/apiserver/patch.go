package apiserver

import (
	"encoding/json"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver/patch"
)

// Patch types, as the Content-Type of a PATCH request names them.
const (
	JSONPatchType           = "application/json-patch+json"
	MergePatchType          = "application/merge-patch+json"
	StrategicMergePatchType = "application/strategic-merge-patch+json"
)

// PatchOptions tune a patch.
type PatchOptions struct {
	DryRun      bool
	Subresource string // "" or "status"
}

// Patch applies a JSON, merge or strategic merge patch to the stored
// object and writes the result through Update, so admission and
// validation run as for any write.
func (s *Server) Patch(res *Resource, namespace, name, patchType string, data []byte, opts PatchOptions) (api.Object, error) {
	cur, err := s.Get(res, namespace, name)
	if err != nil {
		return nil, err
	}
	var schema patch.Schema
	if patchType == StrategicMergePatchType {
		schema = patch.KindSchema(res.Kind)
	}
	obj, ok := patchFields(cur, patchType, data, schema)
	if !ok {
		if obj, err = patchWhole(res, cur, patchType, data, schema); err != nil {
			return nil, err
		}
	}
	m := obj.GetObjectMeta()
	// A patch applies to the object it read, whatever the body claims.
	m.Name, m.Namespace = cur.GetObjectMeta().Name, cur.GetObjectMeta().Namespace
	if m.ResourceVersion == "" {
		m.ResourceVersion = cur.GetObjectMeta().ResourceVersion
	}
	return s.Update(res, namespace, obj, UpdateOptions{DryRun: opts.DryRun, Subresource: opts.Subresource})
}

// patchWhole applies a patch to the whole object: encoded to JSON, patched,
// decoded into a new object.
func patchWhole(res *Resource, cur api.Object, patchType string, data []byte, schema patch.Schema) (api.Object, error) {
	original, err := json.Marshal(cur)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	switch patchType {
	case JSONPatchType:
		patched, err = patch.JSONPatch(original, data)
	case MergePatchType:
		patched, err = patch.MergePatch(original, data)
	case StrategicMergePatchType:
		patched, err = patch.StrategicMergePatch(original, data, schema)
	default:
		return nil, apierrors.NewUnsupportedMediaType(patchType)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	obj, _ := api.New(res.APIVersion(), res.Kind)
	if err := json.Unmarshal(patched, obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return obj, nil
}
