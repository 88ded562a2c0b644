package util

import "kubeplay/core/api"

// templatesEqual is upstream's comparison of two templates (after the
// hash label is taken out): Semantic.DeepEqual, where an unset list or map
// and an empty one are the same template.
func templatesEqual(a, b *api.PodTemplateSpec) bool { return api.SemanticEqual(a, b) }
