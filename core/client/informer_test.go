package client

import (
	"slices"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

func keysOf(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, KeyOf(o))
	}
	return out
}

// An index follows its objects through adds, updates that move them
// between values (or out of the index), and deletes.
func TestIndexFollowsUpdates(t *testing.T) {
	inf := newInformer(&apiserver.Resource{})
	inf.AddIndexer("tier", func(o api.Object, into []string) []string {
		if v, ok := o.GetObjectMeta().Labels["tier"]; ok {
			into = append(into, v)
		}
		if v, ok := o.GetObjectMeta().Labels["also"]; ok {
			into = append(into, v)
		}
		return into
	})
	cm := func(ns, name string, labels map[string]string) *api.ConfigMap {
		return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
	}
	check := func(step, value string, want ...string) {
		t.Helper()
		if got := keysOf(inf.ByIndex("tier", value)); !slices.Equal(got, want) {
			t.Errorf("%s: tier=%s holds %v, want %v", step, value, got, want)
		}
	}
	inf.handle(apiserver.WatchEvent{Type: apiserver.Added, Object: cm("a", "x", map[string]string{"tier": "web"})})
	inf.handle(apiserver.WatchEvent{Type: apiserver.Added, Object: cm("b", "y", map[string]string{"tier": "web", "also": "db"})})
	check("added", "web", "a/x", "b/y")
	check("added", "db", "b/y")
	inf.handle(apiserver.WatchEvent{Type: apiserver.Modified, Object: cm("a", "x", map[string]string{"tier": "db"})})
	check("moved", "web", "b/y")
	check("moved", "db", "a/x", "b/y")
	inf.handle(apiserver.WatchEvent{Type: apiserver.Modified, Object: cm("b", "y", nil)})
	check("left", "web")
	check("left", "db", "a/x")
	inf.handle(apiserver.WatchEvent{Type: apiserver.Deleted, Object: cm("a", "x", map[string]string{"tier": "db"})})
	check("deleted", "db")
	if got := keysOf(inf.ByIndex(NamespaceIndex, "b")); !slices.Equal(got, []string{"b/y"}) {
		t.Errorf("namespace b holds %v", got)
	}
	if inf.Revision() != 5 {
		t.Errorf("revision %d after 5 events", inf.Revision())
	}
}
