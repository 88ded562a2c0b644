package client

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/clock"
)

// Events about one object at one virtual instant get upstream's
// "<object>.<hex nanoseconds>" names, nudged a nanosecond on for each one
// the instant already holds, whichever recorder wrote it; and a name
// given before is not given again within the instant.
func TestEventNamesAtOneInstant(t *testing.T) {
	at := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	srv := apiserver.New(clock.New(at), clock.NewRand(1))
	c := NewLocal(srv, "test")
	if _, err := Create(c, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
		t.Fatal(err)
	}
	pod := &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "u1"}}
	scheduler := NewRecorder(c, "default-scheduler", "")
	kubelet := NewRecorder(c, "kubelet", "node-1")

	scheduler.Event(pod, "Normal", "Scheduled", "Successfully assigned default/web to node-1")
	kubelet.Event(pod, "Normal", "Pulled", "Container image \"nginx\" already present on machine")
	kubelet.Event(pod, "Normal", "Created", "Created container: nginx")
	kubelet.Event(pod, "Normal", "Started", "Started container nginx")
	scheduler.Event(pod, "Normal", "Other", "one more")

	var got []string
	for _, o := range mustList(t, c) {
		got = append(got, o.Name+" "+o.Reason)
	}
	n := at.UnixNano()
	name := func(i int64) string { return "web." + strconv.FormatInt(n+i, 16) }
	want := []string{name(0) + " Scheduled", name(1) + " Pulled", name(2) + " Created", name(3) + " Started", name(4) + " Other"}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}

	// A name freed within the instant is not handed out again by the
	// recorder that gave it; the next is still unique.
	if err := Delete[*api.Event](c, "default", name(3), api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	kubelet.Event(pod, "Warning", "BackOff", "Back-off restarting failed container")
	got = got[:0]
	for _, o := range mustList(t, c) {
		got = append(got, o.Name)
	}
	if want := []string{name(0), name(1), name(2), name(4), name(5)}; !slices.Equal(got, want) {
		t.Errorf("after a delete:\n got %q\nwant %q", got, want)
	}
}

func mustList(t *testing.T, c Interface) []*api.Event {
	t.Helper()
	evs := List[*api.Event](c, "default", nil)
	slices.SortFunc(evs, func(a, b *api.Event) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return evs
}
