package kubelet_test

import (
	"testing"
	"time"
)

// A status write shares with the one before it what did not change (the
// IPs, the start time, the mounts' statuses), as the API server shares
// what a write leaves alone, and makes afresh what did.
func TestStatusSharesWhatDidNotChange(t *testing.T) {
	c, term := cluster(t)
	applyWeb(t, term, "nginx:1.14.2")
	c.Advance(1500 * time.Millisecond) // the sandbox is up, the image still pulling
	before := pod(t, c, "default", "web").Status
	if before.Phase != "Pending" || len(before.PodIPs) != 1 || before.StartTime == nil || len(before.ContainerStatuses) != 1 {
		t.Fatalf("while pulling: %+v", before)
	}
	c.Advance(time.Minute)
	after := pod(t, c, "default", "web").Status
	if after.Phase != "Running" || len(after.ContainerStatuses) != 1 || !after.ContainerStatuses[0].Ready {
		t.Fatalf("not running: %+v", after)
	}
	b, a := before.ContainerStatuses[0], after.ContainerStatuses[0]
	shared := map[string]bool{
		"hostIPs":      &after.HostIPs[0] == &before.HostIPs[0],
		"podIPs":       &after.PodIPs[0] == &before.PodIPs[0],
		"startTime":    after.StartTime == before.StartTime,
		"volumeMounts": len(a.VolumeMounts) > 0 && &a.VolumeMounts[0] == &b.VolumeMounts[0],
		"started":      a.Started == b.Started,
	}
	want := map[string]bool{"hostIPs": true, "podIPs": true, "startTime": true, "volumeMounts": true, "started": false}
	for k, v := range want {
		if shared[k] != v {
			t.Errorf("%s: shared %v, want %v", k, shared[k], v)
		}
	}
	if *a.Started != true || *b.Started != false || b.State.Waiting == nil || a.State.Running == nil || a.State.Waiting != nil {
		t.Errorf("started %v then %v; state %+v then %+v", *b.Started, *a.Started, b.State, a.State)
	}
}
