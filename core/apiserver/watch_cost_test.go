package apiserver

import (
	"fmt"
	"testing"

	"kubeplay/core/api"
)

// A write is handed to the watchers of its resource, each of which looks
// at that one object: its cost follows those watchers, not how many
// objects the store holds or how many watch other resources (issue 7's
// cost-growth rule). Counted, not timed.
func TestWatchEventCostFollowsTheWatchersOfItsResource(t *testing.T) {
	for _, tc := range []struct {
		stored, cmWatchers, otherWatchers int
	}{
		{stored: 10, cmWatchers: 1, otherWatchers: 0},
		{stored: 2000, cmWatchers: 1, otherWatchers: 0},
		{stored: 2000, cmWatchers: 1, otherWatchers: 200},
		{stored: 10, cmWatchers: 25, otherWatchers: 0},
		{stored: 2000, cmWatchers: 25, otherWatchers: 200},
	} {
		t.Run(fmt.Sprintf("%d stored, %d watching configmaps, %d watching secrets", tc.stored, tc.cmWatchers, tc.otherWatchers), func(t *testing.T) {
			s := newTestServer(t)
			cms := s.res("configmaps")
			for i := range tc.stored {
				if _, err := s.Create(cms, "default", configMap(fmt.Sprintf("cm-%d", i)), CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			var looked, delivered, strays int
			for range tc.cmWatchers {
				opts := ListOptions{ResourceVersion: s.ResourceVersion(), Filter: func(api.Object) bool { looked++; return true }}
				if _, err := s.Watch(cms, "default", opts, func(WatchEvent) { delivered++ }); err != nil {
					t.Fatal(err)
				}
			}
			for range tc.otherWatchers {
				opts := ListOptions{ResourceVersion: s.ResourceVersion(), Filter: func(api.Object) bool { strays++; return true }}
				if _, err := s.Watch(s.res("secrets"), "", opts, func(WatchEvent) { strays++ }); err != nil {
					t.Fatal(err)
				}
			}
			update := func() {
				obj, err := s.Get(cms, "default", "cm-0")
				if err != nil {
					t.Fatal(err)
				}
				cm := obj.DeepCopyObject().(*api.ConfigMap)
				cm.Data["k"] += "v"
				if _, err := s.Update(cms, "default", cm, UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			looked, delivered = 0, 0
			update()
			if looked > 2*tc.cmWatchers || delivered != tc.cmWatchers || strays != 0 {
				t.Fatalf("one update: filters looked at %d objects, %d deliveries, %d to watchers of secrets; want at most %d, exactly %d, 0",
					looked, delivered, strays, 2*tc.cmWatchers, tc.cmWatchers)
			}
		})
	}
}

// The allocations of one update do not grow with the objects stored.
func TestWriteAllocationsDoNotGrowWithTheStore(t *testing.T) {
	allocs := func(stored int) float64 {
		s := newTestServer(t)
		cms := s.res("configmaps")
		for i := range stored {
			if _, err := s.Create(cms, "default", configMap(fmt.Sprintf("cm-%d", i)), CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		delivered := 0
		if _, err := s.Watch(cms, "default", ListOptions{ResourceVersion: s.ResourceVersion()}, func(WatchEvent) { delivered++ }); err != nil {
			t.Fatal(err)
		}
		n := 0
		defer func() {
			if delivered != n {
				t.Fatalf("%d updates, %d events delivered", n, delivered)
			}
		}()
		return testing.AllocsPerRun(200, func() {
			n++
			obj, _ := s.Get(cms, "default", "cm-1")
			cm := obj.DeepCopyObject().(*api.ConfigMap)
			cm.Data["k"] = fmt.Sprint(n)
			if _, err := s.Update(cms, "default", cm, UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(10), allocs(5000)
	if large > small+2 {
		t.Fatalf("an update allocates %.0f times with 10 objects stored but %.0f with 5,000", small, large)
	}
}
