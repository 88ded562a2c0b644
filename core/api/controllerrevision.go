package api

// ControllerRevision is an immutable snapshot of a StatefulSet's or
// DaemonSet's template; data is the patch the controller recorded.
type ControllerRevision struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Data       RawExtension `json:"data,omitempty"`
	Revision   int64        `json:"revision"`
}
