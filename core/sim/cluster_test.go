package sim

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

func ownedConfigMap(name string, owner api.Object, block bool) *api.ConfigMap {
	m := owner.GetObjectMeta()
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", OwnerReferences: []api.OwnerReference{{
		APIVersion: "v1", Kind: "ConfigMap", Name: m.Name, UID: m.UID, BlockOwnerDeletion: api.Bool(block),
	}}}}
}

func exists(c *Cluster, name string) bool {
	_, err := client.Get[*api.ConfigMap](c.Client("test"), "default", name)
	return err == nil
}

// TestGarbageCollectionPolicies deletes an owner with each propagation
// policy and checks what becomes of its dependent.
func TestGarbageCollectionPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy        string
		dependentGone bool
		ownerRefsLeft int
	}{
		{api.DeletePropagationBackground, true, 0},
		{api.DeletePropagationForeground, true, 0},
		{api.DeletePropagationOrphan, false, 0},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			c := NewDefault(Options{Seed: 1})
			cl := c.Client("test")
			owner, err := client.Create(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "owner", Namespace: "default"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := client.Create(cl, ownedConfigMap("dep", owner, true)); err != nil {
				t.Fatal(err)
			}
			c.Advance(time.Second)
			policy := tc.policy
			if err := client.Delete[*api.ConfigMap](cl, "default", "owner", api.DeleteOptions{PropagationPolicy: &policy}); err != nil {
				t.Fatal(err)
			}
			c.Advance(5 * time.Second)
			if exists(c, "owner") {
				t.Fatal("owner still exists")
			}
			if exists(c, "dep") == tc.dependentGone {
				t.Fatalf("dependent exists=%v, want gone=%v", exists(c, "dep"), tc.dependentGone)
			}
			if !tc.dependentGone {
				dep, _ := client.Get[*api.ConfigMap](cl, "default", "dep")
				if len(dep.OwnerReferences) != tc.ownerRefsLeft {
					t.Fatalf("orphaned dependent keeps %d owner references", len(dep.OwnerReferences))
				}
			}
		})
	}
}

// TestForegroundWaitsForBlockingDependents: the owner stays, with its
// foregroundDeletion finalizer, until a dependent held by its own
// finalizer lets go.
func TestForegroundWaitsForBlockingDependents(t *testing.T) {
	c := NewDefault(Options{Seed: 1})
	cl := c.Client("test")
	owner, _ := client.Create(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "owner", Namespace: "default"}})
	dep := ownedConfigMap("dep", owner, true)
	dep.Finalizers = []string{"example.com/hold"}
	client.Create(cl, dep)
	fg := api.DeletePropagationForeground
	client.Delete[*api.ConfigMap](cl, "default", "owner", api.DeleteOptions{PropagationPolicy: &fg})
	c.Advance(10 * time.Second)
	o, err := client.Get[*api.ConfigMap](cl, "default", "owner")
	if err != nil || o.DeletionTimestamp == nil || !o.HasFinalizer(api.FinalizerDeleteDependents) {
		t.Fatalf("owner should wait in foreground deletion: %v %v", o, err)
	}
	d, _ := client.Get[*api.ConfigMap](cl, "default", "dep")
	if d.DeletionTimestamp == nil {
		t.Fatal("dependent was not deleted")
	}
	d = d.DeepCopy()
	d.Finalizers = nil
	if _, err := client.Update(cl, d); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Second)
	if exists(c, "owner") || exists(c, "dep") {
		t.Fatal("foreground deletion did not finish")
	}
}

// TestNamespaceDeletionEmptiesAndFinalizes follows seed 000's namespace
// controller: Terminating, contents deleted, finalizer removed, gone.
func TestNamespaceDeletionEmptiesAndFinalizes(t *testing.T) {
	c := NewDefault(Options{Seed: 1})
	cl := c.Client("test")
	if _, err := client.Create(cl, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}); err != nil {
		t.Fatal(err)
	}
	client.Create(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg", Namespace: "demo"}})
	held := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Namespace: "demo", Finalizers: []string{"example.com/hold"}}}
	client.Create(cl, held)
	if err := client.Delete[*api.Namespace](cl, "", "demo", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Advance(30 * time.Second)
	ns, err := client.Get[*api.Namespace](cl, "", "demo")
	if err != nil || ns.Status.Phase != api.NamespaceTerminating {
		t.Fatalf("namespace should still be Terminating while content remains: %v %v", ns, err)
	}
	if _, err := client.Get[*api.ConfigMap](cl, "demo", "cfg"); err == nil {
		t.Fatal("namespace content was not deleted")
	}
	var remaining string
	for _, cond := range ns.Status.Conditions {
		if cond.Type == api.NamespaceContentRemaining {
			remaining = cond.Status + " " + cond.Message
		}
	}
	if remaining != "True Some resources are remaining: configmaps has 1 resource instances" {
		t.Fatalf("NamespaceContentRemaining: %q", remaining)
	}
	h, _ := client.Get[*api.ConfigMap](cl, "demo", "held")
	h = h.DeepCopy()
	h.Finalizers = nil
	client.Update(cl, h)
	c.Advance(2 * time.Minute)
	if _, err := client.Get[*api.Namespace](cl, "", "demo"); err == nil {
		t.Fatal("namespace not deleted after its content went")
	}
}

// TestDeterministicReplay: the same seed and inputs give the same state.
func TestDeterministicReplay(t *testing.T) {
	run := func() string {
		c := NewDefault(Options{Seed: 42})
		cl := c.Client("test")
		for i := 0; i < 5; i++ {
			client.Create(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{GenerateName: "cm-", Namespace: "default"}})
			c.Advance(time.Second)
		}
		snap, err := c.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		return string(snap)
	}
	if a, b := run(), run(); a != b {
		t.Fatal("same seed and inputs gave different snapshots")
	}
}
