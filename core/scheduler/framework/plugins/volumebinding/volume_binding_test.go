package volumebinding_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/volumebinding"
)

// listers serves fixed claims, volumes and classes.
type listers struct {
	claims  []*api.PersistentVolumeClaim
	volumes []*api.PersistentVolume
	classes []*api.StorageClass
}

func (l *listers) PersistentVolumeClaim(ns, name string) (*api.PersistentVolumeClaim, bool) {
	for _, c := range l.claims {
		if c.Namespace == ns && c.Name == name {
			return c, true
		}
	}
	return nil, false
}

func (l *listers) PersistentVolume(name string) (*api.PersistentVolume, bool) {
	for _, v := range l.volumes {
		if v.Name == name {
			return v, true
		}
	}
	return nil, false
}

func (l *listers) StorageClass(name string) (*api.StorageClass, bool) {
	for _, c := range l.classes {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

func claim(name, class, volume string) *api.PersistentVolumeClaim {
	c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	c.Spec.StorageClassName = &class
	if volume != "" {
		c.Spec.VolumeName = volume
		c.Annotations = map[string]string{"pv.kubernetes.io/bind-completed": "yes"}
	}
	return c
}

func class(name string, mode api.VolumeBindingMode) *api.StorageClass {
	return &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: "example.com/p", VolumeBindingMode: &mode}
}

// volumeOn is a volume only node may use.
func volumeOn(name, node string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{
		NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelHostname, Operator: api.NodeSelectorOpIn, Values: []string{node}}},
		}}}},
	}}
}

func podWithClaims(names ...string) *api.Pod {
	p := fake.Pod("p", nil)
	for _, n := range names {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: n, VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: n}}})
	}
	return p
}

func TestFilter(t *testing.T) {
	nodes := []*api.Node{fake.Node("a", nil), fake.Node("b", nil)}
	deleting := claim("going", "fast", "")
	deleting.DeletionTimestamp = &api.Time{}
	l := &listers{
		claims: []*api.PersistentVolumeClaim{
			claim("unbound-immediate", "fast", ""),
			claim("unbound-delayed", "late", ""),
			claim("bound-on-b", "late", "pv-b"),
			claim("bound-anywhere", "fast", "pv-any"),
			// Named but not yet marked bound by the PV controller.
			func() *api.PersistentVolumeClaim {
				c := claim("half-bound", "fast", "pv-any")
				c.Annotations = nil
				return c
			}(),
			deleting,
		},
		volumes: []*api.PersistentVolume{volumeOn("pv-b", "b"), {ObjectMeta: api.ObjectMeta{Name: "pv-any"}}},
		classes: []*api.StorageClass{class("fast", api.VolumeBindingImmediate), class("late", api.VolumeBindingWaitForFirstConsumer)},
	}
	unbound := volumebinding.ErrReasonUnboundImmediate
	conflict := volumebinding.ErrReasonNodeConflict
	for _, tc := range []struct {
		name   string
		claims []string
		want   map[string]string
	}{
		{"no claims", nil, map[string]string{"a": "", "b": ""}},
		{"an unbound claim of an Immediate class waits", []string{"unbound-immediate"}, map[string]string{"a": unbound, "b": unbound}},
		{"a claim named but not bound yet waits", []string{"half-bound"}, map[string]string{"a": unbound, "b": unbound}},
		{"an unbound claim that waits for its consumer passes", []string{"unbound-delayed"}, map[string]string{"a": "", "b": ""}},
		{"a bound volume keeps the pod on its node", []string{"bound-on-b", "bound-anywhere"}, map[string]string{"a": conflict, "b": ""}},
		{"a missing claim", []string{"nope"}, map[string]string{"a": `persistentvolumeclaim "nope" not found`, "b": `persistentvolumeclaim "nope" not found`}},
		{"a claim being deleted", []string{"going"}, map[string]string{"a": `persistentvolumeclaim "going" is being deleted`, "b": `persistentvolumeclaim "going" is being deleted`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fake.RunFilter(volumebinding.New(l), fake.NewHandle(nodes, nil), podWithClaims(tc.claims...))
			for n, want := range tc.want {
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}

// A claim's change wakes only the pods that use it.
func TestQueueingHintForClaims(t *testing.T) {
	pl := volumebinding.New(&listers{})
	pod := podWithClaims("data")
	for _, reg := range pl.EventsToRegister() {
		if reg.Event.Resource != framework.PersistentVolumeClaim {
			continue
		}
		if h := reg.QueueingHintFn(pod, nil, claim("data", "fast", "pv")); h != framework.Queue {
			t.Error("the pod's own claim did not wake it")
		}
		if h := reg.QueueingHintFn(pod, nil, claim("other", "fast", "pv")); h != framework.QueueSkip {
			t.Error("another claim woke the pod")
		}
		return
	}
	t.Fatal("no registration for claims")
}
