package kubelet

import (
	"fmt"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/vfs"
)

// sandboxDelay is how long creating a pod's sandbox (network namespace,
// pause container) takes: the ContainerCreating a learner sees first.
const sandboxDelay = time.Second

// volumeTeardown is how long the volume manager takes to unmount a
// terminated pod's volumes; the kubelet deletes the pod from the API only
// after that (SyncTerminatedPod's WaitForUnmount).
const volumeTeardown = 800 * time.Millisecond

// syncPod brings one pod's containers to what its spec and deletion state
// ask for, then reports the status.
func (k *Kubelet) syncPod(key string) {
	ns, name := client.SplitKey(key)
	var pod *api.Pod
	if o, ok := k.podInf.Get(ns, name); ok {
		pod = o.(*api.Pod)
	}
	if uid, had := k.byKey[key]; had && (pod == nil || pod.UID != uid || pod.Spec.NodeName != k.nodeName) {
		// The pod we ran is gone from the API (a force delete, or the
		// final delete went through): stop what is left at once.
		k.removePod(k.pods[uid])
	}
	if pod == nil || pod.Spec.NodeName != k.nodeName {
		return
	}
	ps := k.pods[pod.UID]
	if ps == nil {
		ps = k.newPodState(pod)
		if pod.Status.StartTime != nil && pod.DeletionTimestamp == nil {
			k.adoptPod(ps)
		}
	}
	ps.pod = pod
	if pod.DeletionTimestamp != nil {
		k.syncTerminatingPod(ps)
		return
	}
	if ps.terminalSet {
		return // a finished pod runs nothing more
	}
	k.syncRunningPod(ps)
	k.updateStatus(ps)
}

func (k *Kubelet) newPodState(pod *api.Pod) *podState {
	ps := &podState{uid: pod.UID, key: client.KeyOf(pod), pod: pod}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		ps.initCs = append(ps.initCs, &containerState{name: c.Name, spec: c, init: true, waitingReason: "PodInitializing"})
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		reason := "ContainerCreating"
		if len(pod.Spec.InitContainers) > 0 {
			reason = "PodInitializing"
		}
		ps.cs = append(ps.cs, &containerState{name: c.Name, spec: c, waitingReason: reason})
	}
	for _, c := range ps.initCs {
		c.waitingReason = "PodInitializing"
	}
	if len(ps.initCs) > 0 {
		ps.initCs[0].waitingReason = "PodInitializing"
	}
	if pod.Spec.ShareProcessNamespace != nil && *pod.Spec.ShareProcessNamespace {
		// The sandbox (and its /pause) starts with the pod's first sync.
		ps.procs = runtime.NewSharedProcessTable(k.clock.Now().Add(sandboxDelay))
	}
	k.pods[pod.UID] = ps
	k.byKey[ps.key] = pod.UID
	return ps
}

// syncRunningPod creates the sandbox, runs init containers in order, then
// starts (and restarts) the app containers.
func (k *Kubelet) syncRunningPod(ps *podState) {
	now := k.clock.Now()
	if ps.startTime.IsZero() {
		ps.startTime = now
		ps.sandboxAt = now.Add(sandboxDelay)
		k.enqueueAfter(ps.key, sandboxDelay)
		return
	}
	if d := ps.pod.Spec.ActiveDeadlineSeconds; d != nil && now.Sub(ps.startTime) >= time.Duration(*d)*time.Second {
		k.failPod(ps, "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
		return
	} else if d != nil {
		k.enqueueAfter(ps.key, ps.startTime.Add(time.Duration(*d)*time.Second).Sub(now))
	}
	if !ps.sandboxReady {
		if now.Before(ps.sandboxAt) {
			// The queue keeps only the earliest wake-up of a pod, so one
			// that came early asks again.
			k.enqueueAfter(ps.key, ps.sandboxAt.Sub(now))
			return
		}
		if err := k.setupVolumes(ps); err != nil {
			return
		}
		if ps.pod.Spec.HostNetwork {
			ps.ip = k.opts.NodeIP
		} else {
			ip, err := k.ipam.allocate(k.podCIDR(), ps.uid)
			if err != nil {
				k.eventf(ps.pod, "Warning", "FailedCreatePodSandBox", "Failed to create pod sandbox: plugin type=\"bridge\" failed (add): %s", err)
				k.enqueueAfter(ps.key, 10*time.Second)
				return
			}
			ps.ip = ip
		}
		ps.sandboxReady = true
	}
	for _, c := range ps.initCs {
		switch {
		case c.phase == phaseTerminated && c.terminated.ExitCode == 0:
			continue
		case c.phase == phaseRunning || c.killing:
			return
		case c.phase == phaseTerminated && ps.pod.Spec.RestartPolicy == api.RestartPolicyNever:
			return // the pod has failed
		}
		k.startContainer(ps, c)
		return
	}
	for _, c := range ps.cs {
		if c.phase == phaseRunning || c.killing {
			continue
		}
		if c.phase == phaseTerminated && !shouldRestart(ps.pod.Spec.RestartPolicy, c.terminated.ExitCode) {
			continue
		}
		if !k.startContainer(ps, c) && c.waitingReason == "ContainerCreating" {
			return // images are pulled one at a time, in order
		}
	}
}

func shouldRestart(policy api.RestartPolicy, exitCode int32) bool {
	switch policy {
	case api.RestartPolicyNever:
		return false
	case api.RestartPolicyOnFailure:
		return exitCode != 0
	}
	return true
}

// podFullName is how the kubelet names a pod in messages: name_namespace(uid).
func podFullName(pod *api.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

// startContainer starts (or restarts) one container unless it is in
// crash-loop back-off or its image is not there yet. It reports whether
// the container runs now.
func (k *Kubelet) startContainer(ps *podState, c *containerState) bool {
	now := k.clock.Now()
	pod := ps.pod
	key := ps.uid + "/" + c.name
	if c.terminated != nil && !c.backoffPassed {
		finished := c.finishedAt
		if k.backoff.inBackOffSince(key, finished, now) {
			wait := k.backoff.remaining(key, finished, now)
			msg := fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", k.backoff.get(key), c.name, podFullName(pod))
			if c.waitingReason != "CrashLoopBackOff" || c.waitingMessage != msg {
				k.eventf(pod, "Warning", "BackOff", "Back-off restarting failed container %s in pod %s", c.name, podFullName(pod))
			}
			c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "CrashLoopBackOff", msg
			k.enqueueAfter(ps.key, wait)
			return false
		}
		k.backoff.next(key, finished, now)
		c.backoffPassed = true // not again while its image is pulled
	}
	im, ok := k.images.ensure(ps, c)
	if !ok {
		return false
	}
	env, err := k.makeEnvironment(ps, c)
	if err != nil {
		c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "CreateContainerConfigError", err.Error()
		k.eventf(pod, "Warning", "Failed", "Error: %s", err)
		k.enqueueAfter(ps.key, 10*time.Second)
		return false
	}
	command := expandAll(c.spec.Command, env)
	args := expandAll(c.spec.Args, env)
	root := vfs.New()
	root.Now = k.clock.Now
	mounts, mountedFrom := k.containerMounts(ps, c)
	hostname := pod.Name
	if pod.Spec.Hostname != "" {
		hostname = pod.Spec.Hostname
	}
	var inst *runtime.Container
	inst, err = k.runtime.Start(runtime.Config{
		Name: c.name, Image: im, Command: command, Args: args, Env: env, WorkingDir: c.spec.WorkingDir,
		FS: root, Mounts: mounts, Hostname: hostname, PodIP: ps.ip, Network: k.podNetwork(ps, im), Processes: ps.procs,
		OnExit: func(int) {
			// An instance that ends during Start is handled below, once it is current.
			if inst != nil && c.current == inst {
				k.containerExited(ps, c, inst.Code)
			}
		},
	})
	if merr, ok := err.(*runtime.MountError); ok {
		c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "CreateContainerConfigError", mountError(merr, mountedFrom).Error()
		return false
	}
	if c.terminated != nil {
		c.lastTerminated = c.terminated
		c.restartCount++
	}
	c.terminated = nil
	if err != nil {
		k.eventf(pod, "Warning", "Failed", "Error: %s", err)
		c.phase = phaseTerminated
		c.terminated = &api.ContainerStateTerminated{ExitCode: 128, Reason: "StartError", Message: err.Error(),
			StartedAt: api.NewTime(time.Unix(0, 0).UTC()), FinishedAt: api.NewTime(now)}
		c.finishedAt, c.backoffPassed = now, false
		k.queue.Add(ps.key)
		return false
	}
	c.everStarted = true
	if c.current != nil {
		c.prev = c.current
	}
	c.current = inst
	c.containerID = inst.ID
	c.startedAt = now
	c.waitingReason, c.waitingMessage = "", ""
	c.ready = c.spec.ReadinessProbe == nil
	c.started = c.spec.StartupProbe == nil
	c.phase = phaseRunning
	k.event(pod, "Normal", "Created", "Created container "+c.name)
	k.event(pod, "Normal", "Started", "Started container "+c.name)
	if inst.Exited {
		k.containerExited(ps, c, inst.Code)
		return true
	}
	if h := c.spec.Lifecycle; h != nil && h.PostStart != nil {
		if msg, failed := k.runHook(ps, c, h.PostStart); failed {
			k.eventf(pod, "Warning", "FailedPostStartHook", "%s", msg)
			k.killContainer(ps, c, fmt.Sprintf("FailedPostStartHook"), nil)
			return true
		}
	}
	k.startProbes(ps, c)
	return true
}

// containerExited records a container's end and asks for a sync.
func (k *Kubelet) containerExited(ps *podState, c *containerState, code int) {
	inst := c.current
	if inst == nil {
		return
	}
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	c.phase = phaseTerminated
	c.ready = false
	c.killing = false
	c.backoffPassed = false
	c.finishedAt = k.clock.Now()
	c.stopProbes(k)
	c.terminated = &api.ContainerStateTerminated{
		ExitCode: int32(code), Reason: reason, StartedAt: api.NewTime(inst.Started), FinishedAt: api.NewTime(k.clock.Now()),
		ContainerID: inst.ID, Message: terminationMessage(c, inst, code),
	}
	k.queue.Add(ps.key)
}

// terminationMessage reads the container's termination message file, or
// with FallbackToLogsOnError the tail of a failed container's log.
func terminationMessage(c *containerState, inst *runtime.Container, code int) string {
	p := c.spec.TerminationMessagePath
	if p == "" {
		p = api.TerminationMessagePathDefault
	}
	if inst.MayHoldFile(p) {
		if b, err := inst.FS().ReadFile(p); err == nil && len(b) > 0 {
			if len(b) > 4096 {
				b = b[:4096]
			}
			return string(b)
		}
	}
	if c.spec.TerminationMessagePolicy == "FallbackToLogsOnError" && code != 0 {
		lines := inst.Logs()
		if len(lines) > 80 {
			lines = lines[len(lines)-80:]
		}
		var s string
		for _, l := range lines {
			s += l.Text + "\n"
		}
		if len(s) > 2048 {
			s = s[len(s)-2048:]
		}
		return s
	}
	return ""
}

// killContainer stops a running container: preStop hook, SIGTERM, and
// SIGKILL once grace runs out. grace nil means the pod's own period.
func (k *Kubelet) killContainer(ps *podState, c *containerState, reason string, grace *int64) {
	inst := c.current
	if inst == nil || inst.Exited || c.killing {
		return
	}
	c.killing = true
	c.killReason = reason
	g := int64(api.DefaultTerminationGracePeriodSeconds)
	if ps.pod.Spec.TerminationGracePeriodSeconds != nil {
		g = *ps.pod.Spec.TerminationGracePeriodSeconds
	}
	if grace != nil {
		g = *grace
	}
	budget := time.Duration(g) * time.Second
	if h := c.spec.Lifecycle; h != nil && h.PreStop != nil && g > 0 {
		elapsed := k.runPreStop(ps, c, h.PreStop, budget)
		budget -= elapsed
	}
	if budget <= 0 {
		inst.Kill()
		return
	}
	inst.Signal(runtime.SIGTERM)
	if inst.Exited {
		return
	}
	k.clock.AfterFunc(budget, func() {
		if !inst.Exited {
			inst.Kill()
		}
	})
}

// syncTerminatingPod stops a deleted pod's containers within its grace
// period, reports their end, and then removes the pod from the API.
func (k *Kubelet) syncTerminatingPod(ps *podState) {
	pod := ps.pod
	if !ps.killing {
		ps.killing = true
		var grace *int64
		if pod.DeletionGracePeriodSeconds != nil {
			grace = pod.DeletionGracePeriodSeconds
		}
		for _, c := range ps.all() {
			if c.phase == phaseRunning {
				k.eventf(pod, "Normal", "Killing", "Stopping container %s", c.name)
				k.killContainer(ps, c, "", grace)
			} else if c.phase == phaseWaiting {
				c.waitingReason, c.waitingMessage = "", ""
			}
		}
	}
	for _, c := range ps.all() {
		if c.phase == phaseRunning {
			k.updateStatus(ps)
			return // wait for the rest to exit (containerExited requeues)
		}
	}
	if ps.deleted {
		return
	}
	now := k.clock.Now()
	if ps.cleanupAt.IsZero() {
		// The containers are down: report the final status and tear the
		// sandbox's network down. A pod whose volumes were mounted leaves
		// the API only once the volume manager has unmounted them.
		ps.terminalSet = true
		k.updateStatus(ps)
		k.ipam.release(ps.uid)
		ps.cleanupAt = now
		if ps.sandboxReady {
			ps.cleanupAt = now.Add(volumeTeardown)
			k.enqueueAfter(ps.key, volumeTeardown)
			return
		}
	}
	if now.Before(ps.cleanupAt) {
		// Woken early (the queue keeps only a pod's earliest wake-up, say
		// an image pull's end): ask again for the teardown's end.
		k.enqueueAfter(ps.key, ps.cleanupAt.Sub(now))
		return
	}
	uid := ps.uid
	err := client.Delete[*api.Pod](k.client, pod.Namespace, pod.Name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0), Preconditions: &api.Preconditions{UID: &uid}})
	switch {
	case err == nil:
		ps.deleted = true
	case !apierrors.IsNotFound(err) && !apierrors.IsConflict(err):
		k.enqueueAfter(ps.key, syncErrorRetry)
	}
}

// failPod ends a pod for good (activeDeadlineSeconds).
func (k *Kubelet) failPod(ps *podState, reason, message string) {
	k.event(ps.pod, "Normal", reason, message)
	g := int64(0)
	for _, c := range ps.all() {
		if c.phase == phaseRunning {
			k.killContainer(ps, c, reason, &g)
		}
	}
	ps.terminalSet = true
	st := k.generateAPIPodStatus(ps)
	st.Phase, st.Reason, st.Message = api.PodFailed, reason, message
	k.writeStatus(ps, st)
}

// removePod forgets a pod that left the API, killing what still runs.
func (k *Kubelet) removePod(ps *podState) {
	if ps == nil {
		return
	}
	for _, c := range ps.all() {
		c.stopProbes(k)
		if c.current != nil && !c.current.Exited {
			c.current.Kill()
		}
	}
	k.ipam.release(ps.uid)
	k.backoff.forgetPrefix(ps.uid + "/")
	delete(k.pods, ps.uid)
	if k.byKey[ps.key] == ps.uid {
		delete(k.byKey, ps.key)
	}
}

// adoptPod takes over a pod that was already running here before this
// kubelet started (a restored snapshot): the sandbox and its IP stay, and
// containers the status shows running are started again at once, keeping
// their start times and restart counts, without new events.
func (k *Kubelet) adoptPod(ps *podState) {
	k.adopting = true
	defer func() { k.adopting = false }()
	pod := ps.pod
	ps.startTime = pod.Status.StartTime.Time
	ps.sandboxAt = ps.startTime
	if pod.Status.PodIP != "" {
		if err := k.setupVolumes(ps); err != nil {
			return
		}
		ps.ip = pod.Status.PodIP
		if !pod.Spec.HostNetwork {
			k.ipam.reserve(k.podCIDR(), ps.ip, ps.uid)
		}
		ps.sandboxReady = true
	}
	statuses := map[string]api.ContainerStatus{}
	for _, st := range append(append([]api.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...) {
		statuses[st.Name] = st
	}
	for _, c := range ps.all() {
		st, ok := statuses[c.name]
		if !ok {
			continue
		}
		c.restartCount = st.RestartCount
		if t := st.LastTerminationState.Terminated; t != nil {
			lt := *t
			c.lastTerminated = &lt
		}
		switch {
		case st.State.Terminated != nil:
			t := *st.State.Terminated
			c.terminated, c.phase, c.everStarted = &t, phaseTerminated, true
			c.finishedAt = t.FinishedAt.Time
		case st.State.Running != nil && ps.sandboxReady:
			if im, err := k.opts.Catalog.Resolve(c.spec.Image); err == nil {
				k.images.add(im)
			}
			if k.startContainer(ps, c) {
				c.startedAt = st.State.Running.StartedAt.Time
				c.restartCount = st.RestartCount
				c.ready = st.Ready
				c.started = st.Started != nil && *st.Started
			}
		}
	}
	if ps.pod.Spec.RestartPolicy != api.RestartPolicyAlways && api.IsPodTerminal(pod) {
		ps.terminalSet = true
	}
}
