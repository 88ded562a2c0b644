package sim

import "testing"

// FuzzRestore loads arbitrary snapshots, as the page does with a saved
// tab. Nothing may panic, and whatever restores saves a snapshot that
// restores again.
func FuzzRestore(f *testing.F) {
	empty, err := New(Options{Seed: 1}).Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(empty)
	c := New(Options{Seed: 2})
	term := NewTerminal(c)
	term.Run("kubectl create namespace apps; kubectl create deployment web --image=nginx --replicas=2 -n apps; " +
		"kubectl create configmap cfg --from-literal=k=v; kubectl create service clusterip web --tcp=80:80")
	busy, err := c.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(busy)
	f.Add([]byte(`{"version":1,"objects":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"}}]}`))
	f.Add([]byte(`{"version":1,"resourceVersion":1,"objects":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}},{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Restore(data)
		if err != nil {
			return
		}
		saved, err := c.Snapshot()
		if err != nil {
			t.Fatalf("a restored cluster does not save: %v", err)
		}
		again, err := Restore(saved)
		if err != nil {
			t.Fatalf("a saved snapshot does not restore: %v\n%s", err, saved)
		}
		if _, err := again.Snapshot(); err != nil {
			t.Fatal(err)
		}
	})
}
