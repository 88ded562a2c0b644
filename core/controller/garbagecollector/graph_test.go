package garbagecollector

import (
	"maps"
	"slices"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

var (
	replicaSets = &apiserver.Resource{Group: "apps", Version: "v1", Name: "replicasets", Kind: "ReplicaSet", Namespaced: true}
	pods        = &apiserver.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true}
)

// graphRecorder is a graph builder that lists what it queues for
// deletion checks.
type graphRecorder struct {
	*graphBuilder
	deletes []string
}

func newGraphRecorder() *graphRecorder {
	r := &graphRecorder{}
	r.graphBuilder = newGraphBuilder(
		func(uid string) { r.deletes = append(r.deletes, uid) },
		func(string) {})
	return r
}

// take returns the uids queued for deletion checks since the last call.
func (r *graphRecorder) take() []string {
	d := r.deletes
	r.deletes = nil
	return d
}

func replicaSet(name, uid string) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: uid}}
}

func pod(name, uid string, owners ...api.OwnerReference) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: uid, OwnerReferences: owners}}
}

func ownedBy(name, uid string, block *bool) api.OwnerReference {
	yes := true
	return api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: uid, Controller: &yes, BlockOwnerDeletion: block}
}

func dependentsOf(r *graphRecorder, uid string) []string {
	n := r.uidToNode[uid]
	if n == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(n.dependents))
}

func TestGraphLinksAPodUnderItsReplicaSet(t *testing.T) {
	r := newGraphRecorder()
	r.observe(replicaSets, replicaSet("web", "rs-1"))
	p := pod("web-a", "pod-1", ownedBy("web", "rs-1", nil))
	r.observe(pods, p)
	if got := dependentsOf(r, "rs-1"); !slices.Equal(got, []string{"pod-1"}) {
		t.Fatalf("dependents of the ReplicaSet: %v, want [pod-1]", got)
	}
	if got := r.take(); len(got) != 0 {
		t.Fatalf("a pod whose owner is known queued %v for deletion checks", got)
	}

	// A status write: same references, same node, nothing queued.
	before := r.uidToNode["pod-1"]
	status := pod("web-a", "pod-1", ownedBy("web", "rs-1", nil))
	status.Status.Phase = api.PodRunning
	r.observe(pods, status)
	if r.uidToNode["pod-1"] != before || !slices.Equal(dependentsOf(r, "rs-1"), []string{"pod-1"}) {
		t.Fatal("a status write changed the pod's place in the graph")
	}
	if got := r.take(); len(got) != 0 {
		t.Fatalf("a status write queued %v for deletion checks", got)
	}
}

func TestGraphRelinksWhenTheReferencesChange(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		now  api.OwnerReference
		// linkedUnder is the ReplicaSet whose dependents hold the pod after
		// the update; blocking whether it blocks that owner's deletion.
		linkedUnder string
		blocking    bool
	}{
		{"adopted by another ReplicaSet", ownedBy("api", "rs-2", nil), "rs-2", false},
		{"blockOwnerDeletion set", ownedBy("web", "rs-1", &yes), "rs-1", true},
		{"same reference", ownedBy("web", "rs-1", nil), "rs-1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newGraphRecorder()
			r.observe(replicaSets, replicaSet("web", "rs-1"))
			r.observe(replicaSets, replicaSet("api", "rs-2"))
			r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
			r.observe(pods, pod("web-a", "pod-1", tt.now))
			for _, rs := range []string{"rs-1", "rs-2"} {
				want := []string(nil)
				if rs == tt.linkedUnder {
					want = []string{"pod-1"}
				}
				if got := dependentsOf(r, rs); !slices.Equal(got, want) {
					t.Errorf("dependents of %s: %v, want %v", rs, got, want)
				}
			}
			blocking := len(r.uidToNode[tt.linkedUnder].blockingDependents()) == 1
			if blocking != tt.blocking {
				t.Errorf("the pod blocks its owner's deletion: %v, want %v", blocking, tt.blocking)
			}
		})
	}
}

func TestGraphMissingOwnerIsVirtualUntilSeen(t *testing.T) {
	r := newGraphRecorder()
	r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
	owner := r.uidToNode["rs-1"]
	if owner == nil || !owner.virtual {
		t.Fatal("an owner the graph has not seen is not a virtual node")
	}
	// Both are checked: the owner may not exist, so the pod may be garbage.
	if got := r.take(); !slices.Equal(got, []string{"rs-1", "pod-1"}) {
		t.Fatalf("queued %v, want [rs-1 pod-1]", got)
	}

	// While the owner is virtual, each update of the pod looks again.
	r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
	if got := r.take(); !slices.Contains(got, "pod-1") {
		t.Fatalf("an update of a pod with a dangling owner queued %v, want pod-1 among them", got)
	}

	r.observe(replicaSets, replicaSet("web", "rs-1"))
	if owner := r.uidToNode["rs-1"]; owner.virtual || owner.identity.Kind != "ReplicaSet" {
		t.Fatalf("the owner seen at last is still virtual (%+v)", owner.identity)
	}
	r.take()
	r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
	if got := r.take(); len(got) != 0 {
		t.Fatalf("once the owner is real an update queued %v", got)
	}
	if got := dependentsOf(r, "rs-1"); !slices.Equal(got, []string{"pod-1"}) {
		t.Fatalf("dependents of the ReplicaSet: %v, want [pod-1]", got)
	}
}

func TestGraphForgettingAnOwnerLeavesItsDependentsAVirtualOwner(t *testing.T) {
	r := newGraphRecorder()
	rs := replicaSet("web", "rs-1")
	r.observe(replicaSets, rs)
	r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
	r.observe(pods, pod("web-b", "pod-2", ownedBy("web", "rs-1", nil)))
	r.take()

	r.forget(rs)
	owner := r.uidToNode["rs-1"]
	if owner == nil || !owner.virtual {
		t.Fatal("the deleted owner left no virtual node for its dependents")
	}
	if got := r.take(); !slices.Equal(got, []string{"pod-1", "pod-2"}) {
		t.Fatalf("queued %v, want both dependents", got)
	}
	// The dependents' next update finds the owner virtual and looks again.
	r.observe(pods, pod("web-a", "pod-1", ownedBy("web", "rs-1", nil)))
	if got := r.take(); !slices.Contains(got, "pod-1") {
		t.Fatalf("an update after the owner went queued %v, want pod-1 among them", got)
	}

	r.forget(pod("web-a", "pod-1"))
	r.forget(pod("web-b", "pod-2"))
	if got := dependentsOf(r, "rs-1"); len(got) != 0 {
		t.Fatalf("dependents left after they were deleted: %v", got)
	}
}
