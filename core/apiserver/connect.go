package apiserver

// Subresources that reach a node: pods/log (and later exec and attach).
// The API server holds no containers; the simulation plugs its kubelets in.

// LogOptions are pods/log's query parameters.
type LogOptions struct {
	Namespace, Pod, Container string
	Previous, Timestamps      bool
	TailLines                 int64 // -1: all
	SinceSeconds              int64
	LimitBytes                int64
}

// PodConnector reaches a pod's containers through its node.
type PodConnector interface {
	PodLogs(LogOptions) (string, error)
}
