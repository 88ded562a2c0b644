package workqueue

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/clock"
)

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// run plays steps against q: "add X", "get X" (Get must hand out X),
// "get -" (Get must find nothing), "done X", "shutdown".
func run(t *testing.T, q *Queue[string], steps []string) {
	t.Helper()
	for i, s := range steps {
		op, arg, _ := strings.Cut(s, " ")
		switch op {
		case "add":
			q.Add(arg)
		case "done":
			q.Done(arg)
		case "shutdown":
			q.ShutDown()
		case "get":
			got, ok := q.Get()
			if arg == "-" {
				if ok {
					t.Fatalf("step %d %q: Get = %q, want nothing", i, s, got)
				}
			} else if !ok || got != arg {
				t.Fatalf("step %d %q: Get = %q, %v", i, s, got, ok)
			}
		default:
			t.Fatalf("step %d: bad op %q", i, s)
		}
	}
}

func TestQueueDirtyProcessing(t *testing.T) {
	tests := []struct {
		name       string
		steps      []string
		len        int
		processing int
		adds, gets uint64
	}{
		{"empty queue has no work", []string{"get -"}, 0, 0, 0, 0},
		{"add twice is queued once", []string{"add a", "add a", "get a", "get -"}, 0, 1, 1, 1},
		{"FIFO among waiting items", []string{"add a", "add b", "add c", "get a", "get b", "get c", "get -"}, 0, 3, 3, 3},
		{"re-add keeps first position", []string{"add a", "add b", "add a", "get a", "get b"}, 0, 2, 2, 2},
		{"add while processing waits for Done",
			[]string{"add a", "get a", "add a", "get -", "done a", "get a", "get -"}, 0, 1, 2, 2},
		{"many adds while processing give one re-queue",
			[]string{"add a", "get a", "add a", "add a", "add a", "done a", "get a", "done a", "get -"}, 0, 0, 2, 2},
		{"Done re-queues at the back",
			[]string{"add a", "get a", "add a", "add b", "done a", "get b", "get a"}, 0, 2, 3, 3},
		{"Done without re-add drops the item", []string{"add a", "get a", "done a", "get -"}, 0, 0, 1, 1},
		{"Done of an unknown item is harmless", []string{"done x", "get -"}, 0, 0, 0, 0},
		{"shutdown ignores adds", []string{"shutdown", "add a", "get -"}, 0, 0, 0, 0},
		{"shutdown drains waiting items", []string{"add a", "add b", "shutdown", "get a", "get b", "get -"}, 0, 2, 2, 2},
		{"Done still re-queues a dirty item after shutdown",
			[]string{"add a", "get a", "add a", "shutdown", "done a", "get a"}, 0, 1, 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := New[string]("test", clock.New(epoch), nil)
			run(t, q, tc.steps)
			if q.Len() != tc.len || q.Processing() != tc.processing {
				t.Errorf("Len, Processing = %d, %d, want %d, %d", q.Len(), q.Processing(), tc.len, tc.processing)
			}
			if m := q.Metrics(); m.Adds != tc.adds || m.Gets != tc.gets {
				t.Errorf("metrics = %+v, want adds %d gets %d", m, tc.adds, tc.gets)
			}
		})
	}
}

func TestQueueOnReady(t *testing.T) {
	q := New[string]("test", clock.New(epoch), nil)
	n := 0
	q.SetOnReady(func() { n++ })
	run(t, q, []string{"add a", "add a"})
	if n != 1 {
		t.Fatalf("after adding one item twice: onReady ran %d times, want 1", n)
	}
	run(t, q, []string{"get a", "add a"})
	if n != 1 {
		t.Fatalf("add while processing is not ready yet: onReady ran %d times, want 1", n)
	}
	run(t, q, []string{"done a"})
	if n != 2 {
		t.Fatalf("Done re-queueing a dirty item: onReady ran %d times, want 2", n)
	}
}

func TestQueueIntKeys(t *testing.T) {
	q := New[int]("ints", clock.New(epoch), nil)
	q.Add(3)
	q.Add(1)
	q.Add(3)
	for _, want := range []int{3, 1} {
		if got, ok := q.Get(); !ok || got != want {
			t.Fatalf("Get = %d, %v, want %d", got, ok, want)
		}
	}
}
