package history

import (
	"encoding/json"
	"fmt"

	"kubeplay/core/api"
)

// TemplatePatch is the data a StatefulSet or DaemonSet revision records:
// a strategic merge patch that replaces spec.template. Going through a
// generic map sorts every key, so the bytes (and so the revision's hash
// and name) are upstream's for the same template.
func TemplatePatch(template *api.PodTemplateSpec) ([]byte, error) {
	b, err := json.Marshal(template)
	if err != nil {
		return nil, err
	}
	var t map[string]any
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	if t == nil {
		t = map[string]any{}
	}
	t["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": t}})
}

// TemplateFromPatch reads back the template a revision's data replaces.
func TemplateFromPatch(data []byte) (*api.PodTemplateSpec, error) {
	var p struct {
		Spec struct {
			Template *api.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	if p.Spec.Template == nil {
		return nil, fmt.Errorf("revision data has no spec.template")
	}
	return p.Spec.Template, nil
}
