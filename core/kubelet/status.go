package kubelet

import (
	"reflect"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// updateStatus writes the pod's status if it changed.
func (k *Kubelet) updateStatus(ps *podState) {
	k.writeStatus(ps, k.generateAPIPodStatus(ps))
}

func (k *Kubelet) writeStatus(ps *podState, st api.PodStatus) {
	// A status write keeps the stored spec (the server puts it back) and
	// writes only the metadata's own fields (resourceVersion, uid, ...),
	// never into its maps and lists, so the pod sent is the cached one
	// with the new status: it shares the rest with the stored version,
	// which also spares the server's no-op check from comparing labels
	// and annotations entry by entry. It is made before the comparison,
	// which then takes the new status where it already lies on the heap
	// (by address, st would be moved there too): nearly every call writes.
	pod := &api.Pod{TypeMeta: ps.pod.TypeMeta, ObjectMeta: ps.pod.ObjectMeta, Spec: ps.pod.Spec, Status: st}
	if reflect.DeepEqual(&ps.pod.Status, &pod.Status) {
		return
	}
	k.statusWrite = pod
	updated, err := client.UpdateStatus(k.client, pod)
	k.statusWrite = nil
	if err == nil {
		ps.pod = updated
	}
}

// generateAPIPodStatus derives the API status from what the kubelet knows,
// as upstream's kubelet does: phase, the kubelet's conditions, container
// statuses, IPs and start time.
func (k *Kubelet) generateAPIPodStatus(ps *podState) api.PodStatus {
	pod := ps.pod
	now := api.NewTime(k.clock.Now())
	old := pod.Status
	st := api.PodStatus{
		QOSClass:          old.QOSClass,
		NominatedNodeName: old.NominatedNodeName,
		Reason:            old.Reason,
		Message:           old.Message,
		Resize:            old.Resize,
	}
	// What is unchanged is shared with the last status written rather than
	// made again for each write, as the API server shares what a write
	// leaves alone: stored objects are never changed in place.
	if k.opts.NodeIP != "" {
		st.HostIP = k.opts.NodeIP
		st.HostIPs = old.HostIPs
		if len(old.HostIPs) != 1 || old.HostIPs[0] != (api.HostIP{IP: k.opts.NodeIP}) {
			st.HostIPs = []api.HostIP{{IP: k.opts.NodeIP}}
		}
	}
	if ps.sandboxReady && ps.ip != "" {
		st.PodIP = ps.ip
		st.PodIPs = old.PodIPs
		if len(old.PodIPs) != 1 || old.PodIPs[0] != (api.PodIP{IP: ps.ip}) {
			st.PodIPs = []api.PodIP{{IP: ps.ip}}
		}
	}
	if !ps.startTime.IsZero() {
		st.StartTime = shared(old.StartTime, api.NewTime(ps.startTime))
	}
	st.InitContainerStatuses = k.containerStatuses(ps.initCs, old.InitContainerStatuses)
	st.ContainerStatuses = k.containerStatuses(ps.cs, old.ContainerStatuses)
	terminal := ps.terminalSet
	st.Phase = getPhase(pod, st.InitContainerStatuses, st.ContainerStatuses, terminal)
	if terminal && st.Phase == api.PodRunning {
		st.Phase = api.PodFailed
	}
	if old.Phase == api.PodFailed && old.Reason == "DeadlineExceeded" {
		st.Phase = api.PodFailed
	}

	// The kubelet's own conditions, in upstream's order, keeping transition
	// times of those that did not change; other writers' conditions follow.
	// A condition's transition time moves only when its status does (as
	// api.UpdatePodCondition keeps it).
	set := func(c api.PodCondition) api.PodCondition {
		c.LastTransitionTime = now
		if _, prev := api.GetPodCondition(&old, c.Type); prev != nil && prev.Status == c.Status {
			c.LastTransitionTime = prev.LastTransitionTime
		}
		return c
	}
	// The status is kept as the pod's for as long as the pod runs: its
	// slices are made to size rather than grown by append.
	others := 0
	for _, c := range old.Conditions {
		if !kubeletCondition(c.Type) {
			others++
		}
	}
	st.Conditions = make([]api.PodCondition, 0, 4+others)
	ready := api.ConditionFalse
	if ps.sandboxReady && !terminal {
		ready = api.ConditionTrue
	}
	st.Conditions = append(st.Conditions, set(api.PodCondition{Type: api.PodReadyToStartContainers, Status: ready}))
	st.Conditions = append(st.Conditions, set(initializedCondition(pod, st)))
	cr := containersReadyCondition(pod, st)
	rc := cr
	rc.Type = api.PodReady
	st.Conditions = append(st.Conditions, set(rc))
	st.Conditions = append(st.Conditions, set(cr))
	for _, c := range old.Conditions {
		if !kubeletCondition(c.Type) {
			st.Conditions = append(st.Conditions, c)
		}
	}
	return st
}

// kubeletCondition reports a pod condition the kubelet owns.
func kubeletCondition(t api.PodConditionType) bool {
	switch t {
	case api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady:
		return true
	}
	return false
}

// containerStatuses reports cs in order; nil when there are none, as the
// API leaves an empty list out. prev are the statuses last written, whose
// unchanged parts are shared.
func (k *Kubelet) containerStatuses(cs []*containerState, prev []api.ContainerStatus) []api.ContainerStatus {
	if len(cs) == 0 {
		return nil
	}
	out := make([]api.ContainerStatus, len(cs))
	for i, c := range cs {
		var p *api.ContainerStatus
		if i < len(prev) && prev[i].Name == c.name {
			p = &prev[i]
		}
		out[i] = k.containerStatus(c, p)
	}
	return out
}

func initializedCondition(pod *api.Pod, st api.PodStatus) api.PodCondition {
	c := api.PodCondition{Type: api.PodInitialized, Status: api.ConditionTrue}
	if len(pod.Spec.InitContainers) == 0 {
		return c
	}
	if st.Phase == api.PodSucceeded {
		c.Reason = "PodCompleted"
		return c
	}
	var incomplete []string
	for _, s := range st.InitContainerStatuses {
		if s.State.Terminated == nil || s.State.Terminated.ExitCode != 0 {
			incomplete = append(incomplete, s.Name)
		}
	}
	if len(incomplete) > 0 {
		c.Status, c.Reason = api.ConditionFalse, "ContainersNotInitialized"
		c.Message = "containers with incomplete status: [" + strings.Join(incomplete, " ") + "]"
	}
	return c
}

func containersReadyCondition(pod *api.Pod, st api.PodStatus) api.PodCondition {
	c := api.PodCondition{Type: api.ContainersReady, Status: api.ConditionTrue}
	if st.Phase == api.PodSucceeded || st.Phase == api.PodFailed && allTerminated(st.ContainerStatuses) {
		c.Status, c.Reason = api.ConditionFalse, "PodCompleted"
		return c
	}
	var unready []string
	for _, s := range st.ContainerStatuses {
		if !s.Ready {
			unready = append(unready, s.Name)
		}
	}
	if len(unready) > 0 {
		c.Status, c.Reason = api.ConditionFalse, "ContainersNotReady"
		c.Message = "containers with unready status: [" + strings.Join(unready, " ") + "]"
	}
	return c
}

func allTerminated(ss []api.ContainerStatus) bool {
	for _, s := range ss {
		if s.State.Terminated == nil {
			return false
		}
	}
	return true
}

// containerStatus reports one container as the API shows it, sharing
// with prev (its status last written, if any) the parts that are the same.
func (k *Kubelet) containerStatus(c *containerState, prev *api.ContainerStatus) api.ContainerStatus {
	if prev == nil {
		prev = &api.ContainerStatus{}
	}
	s := api.ContainerStatus{Name: c.name, Image: c.spec.Image, RestartCount: c.restartCount}
	if c.current != nil || c.terminated != nil {
		if im, err := k.opts.Catalog.Resolve(c.spec.Image); err == nil {
			s.Image, s.ImageID = im.Ref, im.Digest
		}
	}
	started := false
	switch c.phase {
	case phaseRunning:
		s.State.Running = shared(prev.State.Running, api.ContainerStateRunning{StartedAt: api.NewTime(c.startedAt)})
		s.ContainerID = c.containerID
		s.Ready = c.ready && c.started
		started = c.started
	case phaseTerminated:
		t := *c.terminated
		s.State.Terminated = &t
		s.ContainerID = t.ContainerID
	default:
		waiting := api.ContainerStateWaiting{Reason: c.waitingReason, Message: c.waitingMessage}
		if c.waitingReason == "" {
			waiting.Reason = "ContainerCreating"
		}
		s.State.Waiting = shared(prev.State.Waiting, waiting)
		if c.terminated != nil {
			s.ContainerID = c.terminated.ContainerID
		}
	}
	if c.lastTerminated != nil {
		t := *c.lastTerminated
		s.LastTerminationState.Terminated = &t
	}
	if c.phase == phaseWaiting && c.terminated != nil {
		// waiting to restart: the instance that ended is the last state
		t := *c.terminated
		s.LastTerminationState.Terminated = &t
	}
	s.Started = shared(prev.Started, started)
	s.VolumeMounts = prev.VolumeMounts
	if !sameVolumeMountStatuses(prev.VolumeMounts, c.spec.VolumeMounts) {
		s.VolumeMounts = volumeMountStatuses(c.spec.VolumeMounts)
	}
	return s
}

// shared is prev when it holds v, else a new copy of v: a status part that
// did not change is the last status's. (Taking &v would move v to the heap
// on every call, whichever way the comparison went.)
func shared[T comparable](prev *T, v T) *T {
	if prev != nil && *prev == v {
		return prev
	}
	p := new(T)
	*p = v
	return p
}

// volumeMountStatuses reports a container's mounts: read-only ones with
// recursive read-only off, as kubelets without that feature report them.
func volumeMountStatuses(mounts []api.VolumeMount) []api.VolumeMountStatus {
	if len(mounts) == 0 {
		return nil
	}
	out := make([]api.VolumeMountStatus, 0, len(mounts))
	for _, m := range mounts {
		vm := api.VolumeMountStatus{Name: m.Name, MountPath: m.MountPath, ReadOnly: m.ReadOnly}
		if m.ReadOnly {
			d := api.RecursiveReadOnlyMode("Disabled")
			vm.RecursiveReadOnly = &d
		}
		out = append(out, vm)
	}
	return out
}

// sameVolumeMountStatuses says whether ss is what volumeMountStatuses
// makes of mounts.
func sameVolumeMountStatuses(ss []api.VolumeMountStatus, mounts []api.VolumeMount) bool {
	if len(ss) != len(mounts) {
		return false
	}
	for i, m := range mounts {
		s := &ss[i]
		if s.Name != m.Name || s.MountPath != m.MountPath || s.ReadOnly != m.ReadOnly {
			return false
		}
		if m.ReadOnly != (s.RecursiveReadOnly != nil) || m.ReadOnly && *s.RecursiveReadOnly != "Disabled" {
			return false
		}
	}
	return true
}

// getPhase is upstream's pod phase rule over container statuses.
func getPhase(pod *api.Pod, initStatuses, statuses []api.ContainerStatus, terminal bool) api.PodPhase {
	policy := pod.Spec.RestartPolicy
	for _, s := range initStatuses {
		if t := s.State.Terminated; t != nil && t.ExitCode == 0 {
			continue
		}
		if t := s.State.Terminated; t != nil && policy == api.RestartPolicyNever {
			return api.PodFailed
		}
		if s.State.Waiting != nil && s.LastTerminationState.Terminated != nil && policy == api.RestartPolicyNever {
			return api.PodFailed
		}
		return api.PodPending
	}
	var running, waiting, stopped, succeeded int
	for _, s := range statuses {
		switch {
		case s.State.Running != nil:
			running++
		case s.State.Terminated != nil:
			stopped++
			if s.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case s.State.Waiting != nil:
			if s.LastTerminationState.Terminated != nil {
				stopped++
			} else {
				waiting++
			}
		}
	}
	switch {
	case waiting > 0:
		return api.PodPending
	case running > 0:
		return api.PodRunning
	case stopped > 0:
		if policy == api.RestartPolicyAlways && !terminal {
			return api.PodRunning
		}
		if stopped == succeeded {
			return api.PodSucceeded
		}
		if policy == api.RestartPolicyOnFailure && !terminal {
			return api.PodRunning
		}
		return api.PodFailed
	}
	return api.PodPending
}
