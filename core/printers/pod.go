package printers

import (
	"fmt"
	"strconv"
	"time"

	"kubeplay/core/api"
)

// nodeUnreachablePodReason is what the node lifecycle controller puts in
// status.reason of pods on a node it lost.
const nodeUnreachablePodReason = "NodeLost"

var podHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Ready"},
		{Name: "Status"},
		{Name: "Restarts"},
		{Name: "Age"},
		{Name: "IP", Priority: 1},
		{Name: "Node", Priority: 1},
		{Name: "Nominated Node", Priority: 1},
		{Name: "Readiness Gates", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		pod, ok := obj.(*api.Pod)
		if !ok {
			return nil, false
		}
		return podCells(pod, now), true
	},
}

var podTemplateHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Containers"}, {Name: "Images"}, {Name: "Pod Labels"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		t, ok := obj.(*api.PodTemplate)
		if !ok {
			return nil, false
		}
		names, images := containerCells(t.Template.Spec.Containers)
		return []string{t.Name, names, images, formatLabels(t.Template.Labels)}, true
	},
}

// podCells is upstream's printPod: READY counts app containers and started
// sidecars (restartable init containers); STATUS is the most telling reason
// among phase, init containers, containers and deletion; RESTARTS adds when
// the last restart happened.
func podCells(pod *api.Pod, now time.Time) []string {
	restarts, sidecarRestarts := 0, 0
	total := len(pod.Spec.Containers)
	ready := 0
	var lastRestart, lastSidecarRestart time.Time

	reason := pod.Status.Phase
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == api.PodReasonSchedulingGated {
			reason = api.PodReasonSchedulingGated
		}
	}

	initSpecs := map[string]*api.Container{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		initSpecs[c.Name] = c
		if isSidecar(c) {
			total++
		}
	}

	later := func(last *time.Time, cs *api.ContainerStatus) {
		if t := cs.LastTerminationState.Terminated; t != nil && last.Before(t.FinishedAt.Time) {
			*last = t.FinishedAt.Time
		}
	}

	initializing := false
	for i := range pod.Status.InitContainerStatuses {
		cs := &pod.Status.InitContainerStatuses[i]
		restarts += int(cs.RestartCount)
		later(&lastRestart, cs)
		sidecar := isSidecar(initSpecs[cs.Name])
		if sidecar {
			sidecarRestarts += int(cs.RestartCount)
			later(&lastSidecarRestart, cs)
		}
		term, wait := cs.State.Terminated, cs.State.Waiting
		switch {
		case term != nil && term.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			if cs.Ready {
				ready++
			}
			continue
		case term != nil:
			switch {
			case term.Reason != "":
				reason = "Init:" + term.Reason
			case term.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", term.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", term.ExitCode)
			}
		case wait != nil && wait.Reason != "" && wait.Reason != "PodInitializing":
			reason = "Init:" + wait.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
		}
		initializing = true
		break
	}

	if !initializing || podInitialized(pod) {
		// Only sidecars' restarts count once the pod is initialized:
		// regular init containers have finished for good.
		restarts = sidecarRestarts
		lastRestart = lastSidecarRestart
		hasRunning := false
		for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
			cs := &pod.Status.ContainerStatuses[i]
			restarts += int(cs.RestartCount)
			later(&lastRestart, cs)
			term, wait := cs.State.Terminated, cs.State.Waiting
			switch {
			case wait != nil && wait.Reason != "":
				reason = wait.Reason
			case term != nil && term.Reason != "":
				reason = term.Reason
			case term != nil && term.Signal != 0:
				reason = fmt.Sprintf("Signal:%d", term.Signal)
			case term != nil:
				reason = fmt.Sprintf("ExitCode:%d", term.ExitCode)
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
				ready++
			}
		}
		// A finished container beside a running one does not make the pod
		// Completed.
		if reason == "Completed" && hasRunning {
			if api.IsPodReady(pod) {
				reason = "Running"
			} else {
				reason = "NotReady"
			}
		}
	}

	if pod.DeletionTimestamp != nil {
		if pod.Status.Reason == nodeUnreachablePodReason {
			reason = "Unknown"
		} else if pod.Status.Phase != api.PodSucceeded && pod.Status.Phase != api.PodFailed {
			reason = "Terminating"
		}
	}

	restartsCell := strconv.Itoa(restarts)
	if restarts != 0 && !lastRestart.IsZero() {
		restartsCell = fmt.Sprintf("%d (%s ago)", restarts, since(lastRestart, now))
	}

	// The API fills podIPs from podIP, so an object with only podIP set
	// still shows its address.
	ip := pod.Status.PodIP
	if len(pod.Status.PodIPs) > 0 {
		ip = pod.Status.PodIPs[0].IP
	}
	gates := "<none>"
	if n := len(pod.Spec.ReadinessGates); n > 0 {
		trueCount := 0
		for _, g := range pod.Spec.ReadinessGates {
			if _, c := api.GetPodCondition(&pod.Status, g.ConditionType); c != nil && c.Status == api.ConditionTrue {
				trueCount++
			}
		}
		gates = fmt.Sprintf("%d/%d", trueCount, n)
	}
	return []string{
		pod.Name,
		fmt.Sprintf("%d/%d", ready, total),
		reason,
		restartsCell,
		Age(pod.CreationTimestamp, now),
		orNone(ip),
		orNone(pod.Spec.NodeName),
		orNone(pod.Status.NominatedNodeName),
		gates,
	}
}

// isSidecar reports a restartable init container (restartPolicy Always).
func isSidecar(c *api.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways
}

// podInitialized reads the first Initialized condition, as upstream does.
func podInitialized(pod *api.Pod) bool {
	_, c := api.GetPodCondition(&pod.Status, api.PodInitialized)
	return c != nil && c.Status == api.ConditionTrue
}
