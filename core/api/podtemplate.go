package api

// PodTemplateSpec is the pod a controller stamps out.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodSpec `json:"spec,omitempty"`
}

// PodTemplate is a stored pod template (core/v1 PodTemplate).
type PodTemplate struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Template   PodTemplateSpec `json:"template,omitempty"`
}
