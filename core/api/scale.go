package api

// Scale is autoscaling/v1 Scale: the body of a workload's scale subresource.
type Scale struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ScaleSpec   `json:"spec,omitempty"`
	Status     ScaleStatus `json:"status,omitempty"`
}

// ScaleSpec is the desired replica count.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// ScaleStatus is the observed count and the pods' selector in string form.
type ScaleStatus struct {
	Replicas int32  `json:"replicas"`
	Selector string `json:"selector,omitempty"`
}
