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

// Nominated pods are listed by node while they wait in any pool, follow
// updates, and leave when popped or deleted.
func TestNominatedPodsFollowThePools(t *testing.T) {
	clk := clock.New(time.Unix(0, 0))
	q := New(clk, map[string][]framework.ClusterEventWithHint{}, nil)
	nominate := func(p *api.Pod, node string) *api.Pod {
		p = p.DeepCopy()
		p.Status.NominatedNodeName = node
		return p
	}
	list := func() map[string][]string {
		out := map[string][]string{}
		for n, pods := range q.NominatedPodsByNode() {
			for _, p := range pods {
				out[n] = append(out[n], p.Name)
			}
		}
		return out
	}
	same := func(what string, want map[string][]string) {
		t.Helper()
		got := list()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
		for n, names := range want {
			if len(got[n]) != len(names) {
				t.Fatalf("%s: %v, want %v", what, got, want)
			}
			for i := range names {
				if got[n][i] != names[i] {
					t.Fatalf("%s: %v, want %v", what, got, want)
				}
			}
		}
	}
	a, b := fake.Pod("a", nil), fake.Pod("b", nil)
	q.Add(a)
	q.Add(b)
	same("none nominated", map[string][]string{})
	q.Update(b, nominate(b, "n1"))
	same("b nominated while active", map[string][]string{"n1": {"b"}})
	p, _ := q.Pop() // a
	p.UnschedulablePlugins = map[string]bool{"NodeResourcesFit": true}
	p.PodInfo = framework.NewPodInfo(nominate(a, "n1"))
	q.AddUnschedulableIfNotPresent(p)
	same("a back in the pool, nominated", map[string][]string{"n1": {"a", "b"}})
	q.Update(nominate(a, "n1"), nominate(a, "n2"))
	same("a renominated", map[string][]string{"n1": {"b"}, "n2": {"a"}})
	q.Update(nominate(a, "n2"), a)
	same("a's nomination cleared", map[string][]string{"n1": {"b"}})
	q.Pop() // b
	same("b in flight", map[string][]string{})
	q.Delete(a)
	q.Add(nominate(fake.Pod("c", nil), "n3"))
	q.Delete(fake.Pod("c", nil))
	same("c deleted", map[string][]string{})
}
