package printers

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
)

// Container states for the pod table.
func running() api.ContainerState {
	return api.ContainerState{Running: &api.ContainerStateRunning{}}
}

func waiting(reason string) api.ContainerState {
	return api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}
}

func terminated(code int32, reason string) api.ContainerState {
	return api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Reason: reason}}
}

func cond(t, s string) api.PodCondition { return api.PodCondition{Type: t, Status: s} }

// pod builds a pod of n app containers named c0..cN and, when init > 0,
// init containers i0..iN.
func pod(containers, init int) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", CreationTimestamp: ago(10 * time.Minute)}}
	for i := 0; i < containers; i++ {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "c" + string(rune('0'+i))})
	}
	for i := 0; i < init; i++ {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{Name: "i" + string(rune('0'+i))})
	}
	return p
}

func status(name string, st api.ContainerState, ready bool, restarts int32) api.ContainerStatus {
	return api.ContainerStatus{Name: name, State: st, Ready: ready, RestartCount: restarts}
}

func TestPodReadyStatusRestarts(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	tru := true
	for _, tc := range []struct {
		name string
		pod  func() *api.Pod
		want string // READY STATUS RESTARTS
	}{
		{"pending, not yet scheduled", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodPending
			return p
		}, "0/1 Pending 0"},
		{"held by a scheduling gate", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodPending
			p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonSchedulingGated}}
			return p
		}, "0/1 SchedulingGated 0"},
		{"creating its container", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodPending
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", waiting("ContainerCreating"), false, 0)}
			return p
		}, "0/1 ContainerCreating 0"},
		{"running and ready", func() *api.Pod {
			p := pod(2, 0)
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses = []api.ContainerStatus{
				status("c0", running(), true, 0), status("c1", running(), false, 0)}
			return p
		}, "1/2 Running 0"},
		{"crash looping, last exit five minutes ago", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodRunning
			cs := status("c0", waiting("CrashLoopBackOff"), false, 5)
			cs.LastTerminationState.Terminated = &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: ago(5 * time.Minute)}
			p.Status.ContainerStatuses = []api.ContainerStatus{cs}
			return p
		}, "0/1 CrashLoopBackOff 5 (5m ago)"},
		{"restarted without a recorded finish time", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", running(), true, 2)}
			return p
		}, "1/1 Running 2"},
		{"completed", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodSucceeded
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", terminated(0, "Completed"), false, 0)}
			return p
		}, "0/1 Completed 0"},
		{"failed with Error", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodFailed
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", terminated(1, "Error"), false, 0)}
			return p
		}, "0/1 Error 0"},
		{"killed for memory", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", terminated(137, "OOMKilled"), false, 0)}
			return p
		}, "0/1 OOMKilled 0"},
		{"exit code without a reason", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodFailed
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", terminated(3, ""), false, 0)}
			return p
		}, "0/1 ExitCode:3 0"},
		{"signal without a reason", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodFailed
			st := terminated(137, "")
			st.Terminated.Signal = 9
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", st, false, 0)}
			return p
		}, "0/1 Signal:9 0"},
		{"one container done, one running, pod ready", func() *api.Pod {
			p := pod(2, 0)
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{cond(api.PodReady, api.ConditionTrue)}
			p.Status.ContainerStatuses = []api.ContainerStatus{
				status("c0", terminated(0, "Completed"), false, 0), status("c1", running(), true, 0)}
			return p
		}, "1/2 Running 0"},
		{"one container done, one running, pod not ready", func() *api.Pod {
			p := pod(2, 0)
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{cond(api.PodReady, api.ConditionFalse)}
			p.Status.ContainerStatuses = []api.ContainerStatus{
				status("c0", terminated(0, "Completed"), false, 0), status("c1", running(), true, 0)}
			return p
		}, "1/2 NotReady 0"},
		{"first init container running", func() *api.Pod {
			p := pod(1, 2)
			p.Status.Phase = api.PodPending
			p.Status.InitContainerStatuses = []api.ContainerStatus{
				status("i0", running(), false, 0), status("i1", waiting("PodInitializing"), false, 0)}
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", waiting("PodInitializing"), false, 0)}
			return p
		}, "0/1 Init:0/2 0"},
		{"second init container running", func() *api.Pod {
			p := pod(1, 2)
			p.Status.Phase = api.PodPending
			p.Status.InitContainerStatuses = []api.ContainerStatus{
				status("i0", terminated(0, "Completed"), false, 0), status("i1", running(), false, 0)}
			return p
		}, "0/1 Init:1/2 0"},
		{"init container failed", func() *api.Pod {
			p := pod(1, 1)
			p.Status.Phase = api.PodPending
			p.Status.InitContainerStatuses = []api.ContainerStatus{status("i0", terminated(1, "Error"), false, 3)}
			return p
		}, "0/1 Init:Error 3"},
		{"init container crash looping", func() *api.Pod {
			p := pod(1, 1)
			p.Status.Phase = api.PodPending
			cs := status("i0", waiting("CrashLoopBackOff"), false, 4)
			cs.LastTerminationState.Terminated = &api.ContainerStateTerminated{ExitCode: 1, FinishedAt: ago(90 * time.Second)}
			p.Status.InitContainerStatuses = []api.ContainerStatus{cs}
			return p
		}, "0/1 Init:CrashLoopBackOff 4 (90s ago)"},
		{"init container exit code without a reason", func() *api.Pod {
			p := pod(1, 1)
			p.Status.Phase = api.PodPending
			p.Status.InitContainerStatuses = []api.ContainerStatus{status("i0", terminated(2, ""), false, 0)}
			return p
		}, "0/1 Init:ExitCode:2 0"},
		{"init done, containers starting", func() *api.Pod {
			p := pod(1, 1)
			p.Status.Phase = api.PodPending
			p.Status.Conditions = []api.PodCondition{cond(api.PodInitialized, api.ConditionTrue)}
			p.Status.InitContainerStatuses = []api.ContainerStatus{status("i0", terminated(0, "Completed"), false, 1)}
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", waiting("PodInitializing"), false, 0)}
			return p
		}, "0/1 PodInitializing 0"},
		{"sidecar started and ready counts towards READY", func() *api.Pod {
			p := pod(1, 1)
			p.Spec.InitContainers[0].RestartPolicy = &always
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{cond(api.PodInitialized, api.ConditionTrue), cond(api.PodReady, api.ConditionTrue)}
			sc := status("i0", running(), true, 2)
			sc.Started = &tru
			sc.LastTerminationState.Terminated = &api.ContainerStateTerminated{FinishedAt: ago(3 * time.Minute)}
			p.Status.InitContainerStatuses = []api.ContainerStatus{sc}
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", running(), true, 1)}
			return p
		}, "2/2 Running 3 (3m ago)"},
		{"sidecar not yet started keeps the pod initializing", func() *api.Pod {
			p := pod(1, 1)
			p.Spec.InitContainers[0].RestartPolicy = &always
			p.Status.Phase = api.PodPending
			p.Status.InitContainerStatuses = []api.ContainerStatus{status("i0", running(), false, 0)}
			return p
		}, "0/2 Init:0/1 0"},
		{"being deleted", func() *api.Pod {
			p := pod(1, 0)
			p.DeletionTimestamp = api.NewTimePtr(now)
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", running(), true, 0)}
			return p
		}, "1/1 Terminating 0"},
		{"deleted after it finished", func() *api.Pod {
			p := pod(1, 0)
			p.DeletionTimestamp = api.NewTimePtr(now)
			p.Status.Phase = api.PodSucceeded
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", terminated(0, "Completed"), false, 0)}
			return p
		}, "0/1 Completed 0"},
		{"deleted on a lost node", func() *api.Pod {
			p := pod(1, 0)
			p.DeletionTimestamp = api.NewTimePtr(now)
			p.Status.Phase = api.PodRunning
			p.Status.Reason = "NodeLost"
			p.Status.ContainerStatuses = []api.ContainerStatus{status("c0", running(), true, 0)}
			return p
		}, "1/1 Unknown 0"},
		{"evicted", func() *api.Pod {
			p := pod(1, 0)
			p.Status.Phase = api.PodFailed
			p.Status.Reason = "Evicted"
			return p
		}, "0/1 Evicted 0"},
	} {
		cells := podCells(tc.pod(), now)
		if got := strings.Join(cells[1:4], " "); got != tc.want {
			t.Errorf("%s: READY STATUS RESTARTS = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPodWideCells(t *testing.T) {
	p := pod(1, 0)
	if got, want := strings.Join(podCells(p, now)[4:], " "), "10m <none> <none> <none> <none>"; got != want {
		t.Errorf("bare pod: %q, want %q", got, want)
	}
	p.Spec.NodeName = "node01"
	p.Status.PodIP = "10.244.0.9"
	p.Status.NominatedNodeName = "node02"
	p.Spec.ReadinessGates = []api.PodReadinessGate{{ConditionType: "a"}, {ConditionType: "b"}}
	p.Status.Conditions = []api.PodCondition{cond("a", api.ConditionTrue), cond("b", api.ConditionFalse)}
	if got, want := strings.Join(podCells(p, now)[5:], " "), "10.244.0.9 node01 node02 1/2"; got != want {
		t.Errorf("scheduled pod: %q, want %q", got, want)
	}
	p.Status.PodIPs = []api.PodIP{{IP: "10.244.0.7"}}
	if got := podCells(p, now)[5]; got != "10.244.0.7" {
		t.Errorf("IP = %q, want podIPs[0]", got)
	}
}

func TestPodTemplateCells(t *testing.T) {
	pt := &api.PodTemplate{ObjectMeta: api.ObjectMeta{Name: "tmpl"}}
	pt.Template.Labels = map[string]string{"app": "web", "tier": "fe"}
	pt.Template.Spec.Containers = []api.Container{{Name: "a", Image: "nginx"}, {Name: "b", Image: "busybox"}}
	got := TableFor("PodTemplate", []api.Object{pt}, now).Rows[0].Cells
	if want := "tmpl|a,b|nginx,busybox|app=web,tier=fe"; strings.Join(got, "|") != want {
		t.Errorf("cells = %q, want %q", strings.Join(got, "|"), want)
	}
}
