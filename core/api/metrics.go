package api

// PodMetrics and NodeMetrics are metrics.k8s.io/v1beta1, what
// metrics-server serves: recent CPU and memory use, read by kubectl top and
// the HorizontalPodAutoscaler. They are computed when read, never stored.

// PodMetrics is one pod's use, per container.
type PodMetrics struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Timestamp  Time               `json:"timestamp"`
	Window     string             `json:"window"`
	Containers []ContainerMetrics `json:"containers"`
}

// ContainerMetrics is one container's use.
type ContainerMetrics struct {
	Name  string       `json:"name"`
	Usage ResourceList `json:"usage"`
}

// NodeMetrics is one node's use.
type NodeMetrics struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Timestamp  Time         `json:"timestamp"`
	Window     string       `json:"window"`
	Usage      ResourceList `json:"usage"`
}
