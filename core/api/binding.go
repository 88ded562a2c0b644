package api

// Binding assigns a pod to a node (the scheduler posts it to pods/binding).
type Binding struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Target     ObjectReference `json:"target"`
}
