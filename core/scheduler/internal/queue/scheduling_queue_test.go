package queue

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/clock"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/fake"
)

func TestBackoffDuration(t *testing.T) {
	q := New(clock.New(time.Unix(0, 0)), map[string][]framework.ClusterEventWithHint{}, nil)
	for attempts, want := range []time.Duration{0, 1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second} {
		if got := q.backoffDuration(&QueuedPodInfo{Attempts: attempts}); got != want {
			t.Errorf("attempt %d: %v, want %v", attempts, got, want)
		}
	}
}

func prio(p *api.Pod, v int32) *api.Pod {
	p.Spec.Priority = &v
	return p
}

func TestPopOrder(t *testing.T) {
	clk := clock.New(time.Unix(0, 0))
	q := New(clk, map[string][]framework.ClusterEventWithHint{}, nil)
	q.Add(prio(fake.Pod("low", nil), 1))
	q.Add(prio(fake.Pod("first", nil), 10))
	clk.Step(time.Unix(1, 0))
	q.Add(prio(fake.Pod("later", nil), 10))
	q.Add(prio(fake.Pod("top", nil), 100))
	var got []string
	for {
		p, ok := q.Pop()
		if !ok {
			break
		}
		got = append(got, p.Pod.Name)
	}
	want := []string{"top", "first", "later", "low"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}

// A hint decides whether an event moves a pod out of the pool.
func TestHintsGateMoves(t *testing.T) {
	clk := clock.New(time.Unix(0, 0))
	hints := map[string][]framework.ClusterEventWithHint{
		"NodeAffinity": {{Event: framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Add},
			QueueingHintFn: func(_ *api.Pod, _, newObj any) framework.QueueingHint {
				if newObj.(*api.Node).Labels["disk"] == "ssd" {
					return framework.Queue
				}
				return framework.QueueSkip
			}}},
	}
	q := New(clk, hints, nil)
	q.Add(fake.Pod("p", nil))
	p, _ := q.Pop()
	p.UnschedulablePlugins = map[string]bool{"NodeAffinity": true}
	q.AddUnschedulableIfNotPresent(p)
	if w := q.Where("default", "p"); w != UnschedulableQ {
		t.Fatalf("in %q", w)
	}
	clk.Step(time.Unix(5, 0))
	q.MoveAllToActiveOrBackoffQueue(framework.EventNodeAdd, nil, fake.Node("hdd", map[string]string{"disk": "hdd"}), nil)
	if w := q.Where("default", "p"); w != UnschedulableQ {
		t.Fatalf("a skipped hint moved it to %q", w)
	}
	q.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.UpdateNodeTaint}, nil, fake.Node("x", nil), nil)
	if w := q.Where("default", "p"); w != UnschedulableQ {
		t.Fatalf("an event no plugin registered moved it to %q", w)
	}
	q.MoveAllToActiveOrBackoffQueue(framework.EventNodeAdd, nil, fake.Node("ssd", map[string]string{"disk": "ssd"}), nil)
	if w := q.Where("default", "p"); w != ActiveQ {
		t.Fatalf("in %q, want Active (backoff long over)", w)
	}
}
