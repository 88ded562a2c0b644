package workqueue

import (
	"testing"
	"time"

	"kubeplay/core/clock"
)

// FuzzQueueInvariants plays arbitrary op sequences and checks the promises
// controllers rely on: one worker per key, nothing added is ever lost, and
// nothing waits twice.
func FuzzQueueInvariants(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 1, 6, 3, 7})
	f.Add([]byte{4, 4, 8, 1, 5, 0, 2, 3, 3, 3})
	f.Add([]byte{0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87})
	f.Fuzz(func(t *testing.T, ops []byte) {
		keys := []string{"a", "b", "c", "d"}
		clk := clock.New(epoch)
		q := New[string]("fuzz", clk, nil)
		processing := map[string]bool{}
		pending := map[string]bool{} // added (or due) since its last Get
		for _, b := range ops {
			k := keys[int(b>>3)%len(keys)]
			switch b % 8 {
			case 0, 1:
				q.Add(k)
				pending[k] = true
			case 2, 3:
				item, ok := q.Get()
				if !ok {
					continue
				}
				if processing[item] {
					t.Fatalf("Get handed out %q while it is processing", item)
				}
				processing[item] = true
				pending[item] = false
			case 4, 5:
				if processing[k] {
					q.Done(k)
					processing[k] = false
				}
			case 6:
				q.AddAfter(k, time.Duration(b>>5+1)*time.Second)
			case 7:
				advance(clk, time.Second)
			}
			if q.Len() > len(keys) {
				t.Fatalf("Len = %d with only %d keys", q.Len(), len(keys))
			}
		}
		// Finish everything and let every delay pass; each pending key must come out.
		for _, k := range keys {
			if processing[k] {
				q.Done(k)
			}
		}
		advance(clk, time.Hour)
		for _, k := range drain(q) {
			pending[k] = false
		}
		for _, k := range keys {
			if pending[k] {
				t.Fatalf("%q was added but never handed out", k)
			}
		}
	})
}
