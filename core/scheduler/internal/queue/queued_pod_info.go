package queue

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
)

// QueuedPodInfo is a pod waiting in the scheduling queue, with what the
// queue knows about its attempts.
type QueuedPodInfo struct {
	*framework.PodInfo
	// Timestamp is when the pod entered the queue, or last failed; it
	// orders equal priorities and starts the backoff.
	Timestamp time.Time
	// Attempts counts scheduling attempts (pops).
	Attempts int
	// InitialAttemptTimestamp is the first pop.
	InitialAttemptTimestamp *time.Time
	// UnschedulablePlugins rejected the pod in its last attempt; only
	// events they care about move it back to be retried.
	UnschedulablePlugins map[string]bool
	PendingPlugins       map[string]bool
	// GatingPlugin holds the pod back before it may be attempted at all.
	GatingPlugin string
	seq          uint64
}

// Gated reports a pod a PreEnqueue plugin holds back.
func (p *QueuedPodInfo) Gated() bool { return p.GatingPlugin != "" }

func key(pod *api.Pod) string { return pod.Namespace + "/" + pod.Name }
