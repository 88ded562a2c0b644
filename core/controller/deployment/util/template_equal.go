package util

import (
	"encoding/json"

	"kubeplay/core/api"
)

// templatesEqual compares two templates field by field through their
// canonical JSON (unset and empty compare as upstream's semantic equality
// treats them after defaulting).
func templatesEqual(a, b *api.PodTemplateSpec) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
