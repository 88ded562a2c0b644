package kubelet

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/vfs"
)

// podState is what the kubelet knows of a pod it runs: the sandbox, each
// container's runtime state and probe results. The API status is derived
// from it (status.go).
type podState struct {
	uid, key string
	pod      *api.Pod
	// sandbox
	sandboxAt    time.Time // when the sandbox is (or was) ready
	sandboxReady bool
	ip           string
	volumes      []mountedVolume // set up so far, in the spec's order
	volumeErr    string          // a volume that cannot be set up yet (FailedMount)
	procs        *runtime.ProcessTable
	startTime    time.Time
	initCs       []*containerState
	cs           []*containerState
	// termination
	killing     bool
	deleted     bool // the final delete was sent
	terminalSet bool
	cleanupAt   time.Time // when the terminated pod's volumes are unmounted
}

func (ps *podState) all() []*containerState {
	out := make([]*containerState, 0, len(ps.initCs)+len(ps.cs))
	return append(append(out, ps.initCs...), ps.cs...)
}

// containers is every container the pod runs, for lookups.
func (ps *podState) containers() []*containerState { return ps.all() }

type containerPhase int

const (
	phaseWaiting containerPhase = iota
	phaseRunning
	phaseTerminated
)

// containerState is one container of a pod across its restarts.
type containerState struct {
	name string
	// spec is the container as the pod was when the kubelet took it on:
	// a pointer into that pod object rather than a copy, as nothing
	// changes an object from an informer in place.
	spec    *api.Container
	init    bool
	phase   containerPhase
	current *runtime.Container // the running or last exited instance
	prev    *runtime.Container // the instance before current (--previous)
	// waiting
	waitingReason, waitingMessage string
	// terminated (this instance) and the one before a restart
	terminated     *api.ContainerStateTerminated
	lastTerminated *api.ContainerStateTerminated
	restartCount   int32
	startedAt      time.Time
	everStarted    bool
	ready          bool // readiness probe result (true without a probe)
	started        bool // startup probe result (true without a probe)
	probes         []*probeWorker
	// killReason is why the kubelet is stopping it (liveness failure).
	killReason string
	killing    bool
	// backoffPassed is set once a restart got past the crash-loop back-off.
	backoffPassed bool
	// finishedAt is when the last instance ended, at full precision.
	finishedAt time.Time
	// name of the container instance for the podState's current pod (the
	// terminated instance's ID stays in the status).
	containerID string
}

// mountedVolume is a pod volume as the kubelet set it up.
type mountedVolume struct {
	name string
	fs   *vfs.FS
	path string // the subtree of fs that is mounted
	ro   bool
}

// volume returns the pod volume called name, once it is set up. A pod has
// a few volumes: a slice is lighter than a map for as long as it runs.
func (ps *podState) volume(name string) (*mountedVolume, bool) {
	for i := range ps.volumes {
		if ps.volumes[i].name == name {
			return &ps.volumes[i], true
		}
	}
	return nil, false
}
