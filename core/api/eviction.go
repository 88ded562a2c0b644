package api

// Eviction is policy/v1 Eviction: posted to pods/eviction to delete a pod
// if its disruption budgets allow.
type Eviction struct {
	TypeMeta      `json:",inline"`
	ObjectMeta    `json:"metadata,omitempty"`
	DeleteOptions *DeleteOptions `json:"deleteOptions,omitempty"`
}
