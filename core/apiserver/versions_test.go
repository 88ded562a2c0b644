package apiserver

import (
	"reflect"
	"testing"

	"kubeplay/core/api"
)

// A pod's versions share the parts a write leaves alone (the spec after a
// status write, everything but metadata after a delete), so every write
// must leave the versions before it exactly as they were stored.
func TestWritesLeaveEarlierVersionsAlone(t *testing.T) {
	s := newTestServer(t)
	res := s.res("pods")
	type version struct{ obj, copy api.Object }
	var versions []version
	s.Observe(func(r *Resource, ev WatchEvent) {
		if r == res {
			versions = append(versions, version{ev.Object, ev.Object.DeepCopyObject()})
		}
	})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "1"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx", Env: []api.EnvVar{{Name: "K", Value: "v"}}}}}}
	obj, err := s.Create(res, "default", pod, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	write := func(change func(p *api.Pod), subresource string) {
		t.Helper()
		p := obj.(*api.Pod).DeepCopy()
		change(p)
		if obj, err = s.Update(res, "default", p, UpdateOptions{Subresource: subresource}); err != nil {
			t.Fatal(err)
		}
	}
	write(func(p *api.Pod) {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "Unschedulable"}}
	}, "status")
	if err := s.Bind("default", &api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Annotations: map[string]string{"b": "2"}}, Target: api.ObjectReference{Kind: "Node", Name: "n1"}}); err != nil {
		t.Fatal(err)
	}
	obj, _ = s.Get(res, "default", "p")
	write(func(p *api.Pod) {
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue})
	}, "status")
	write(func(p *api.Pod) { p.Labels["tier"] = "front" }, "")
	if _, err := s.Delete(res, "default", "p", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(res, "default", "p", api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil {
		t.Fatal(err)
	}
	if len(versions) != 7 {
		t.Fatalf("%d versions stored, want 7", len(versions))
	}
	for _, v := range versions {
		if !reflect.DeepEqual(v.obj, v.copy) {
			t.Errorf("the version at resourceVersion %s changed after it was stored", v.copy.GetObjectMeta().ResourceVersion)
		}
	}
	// The status write after binding kept the bound version's spec, and
	// its labels, which the writer sent unchanged, themselves.
	bound, running := versions[2].obj.(*api.Pod), versions[3].obj.(*api.Pod)
	if &bound.Spec.Containers[0] != &running.Spec.Containers[0] {
		t.Error("a status write copied the spec instead of keeping it")
	}
	if reflect.ValueOf(bound.Labels).Pointer() != reflect.ValueOf(running.Labels).Pointer() {
		t.Error("a write kept its own copy of labels equal to the old ones")
	}
}
