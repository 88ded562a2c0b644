package apiserver

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/clock"
)

// eventServer is a server at t0 with the default namespace, and its
// events resource.
func eventServer(t *testing.T) (*Server, *clock.Clock, *Resource) {
	t.Helper()
	clk := clock.New(t0)
	s := New(clk, clock.NewRand(1))
	if _, err := s.Create(s.res("namespaces"), "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, clk, s.res("events")
}

// podEvent is an event about the pod web in the default namespace.
func podEvent(name, reason, message, eventType string) *api.Event {
	return &api.Event{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Name: "web", Namespace: "default"}, Reason: reason, Message: message, Type: eventType}
}

// An event lives an hour after its last write (kube-apiserver's
// --event-ttl); a write renews it, and a restored event keeps the time
// it had left.
func TestEventsExpireAnHourAfterTheirLastWrite(t *testing.T) {
	s, clk, res := eventServer(t)
	at := func(d time.Duration) {
		clk.Step(t0.Add(d))
		clk.Fire()
	}
	exists := func(name string) bool {
		_, err := s.Get(res, "default", name)
		return err == nil
	}
	event := func(name string) *api.Event { return podEvent(name, "Started", "Started container web", "Normal") }
	for _, name := range []string{"once", "renewed"} {
		if _, err := s.Create(res, "default", event(name), CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	at(30 * time.Minute)
	cur, _ := s.Get(res, "default", "renewed")
	e := cur.(*api.Event).DeepCopy()
	e.Count = 2
	e.LastTimestamp = api.NewTime(clk.Now())
	if _, err := s.Update(res, "default", e, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	at(59 * time.Minute)
	if !exists("once") || !exists("renewed") {
		t.Fatal("an event went before its hour")
	}
	at(60 * time.Minute)
	if exists("once") {
		t.Error("an event written once is still there an hour later")
	}
	if !exists("renewed") {
		t.Error("an event written again at 30 min went at 60 min")
	}

	// Dumped at 60 min and loaded into a new server: "renewed" still has
	// 30 minutes.
	objs, rv := s.Dump()
	clk2 := clock.New(t0.Add(60 * time.Minute))
	s2 := New(clk2, clock.NewRand(1))
	if err := s2.Load(objs, rv); err != nil {
		t.Fatal(err)
	}
	clk2.Step(t0.Add(89 * time.Minute))
	clk2.Fire()
	if _, err := s2.Get(res, "default", "renewed"); err != nil {
		t.Fatal("the restored event went early")
	}
	clk2.Step(t0.Add(90 * time.Minute))
	clk2.Fire()
	if _, err := s2.Get(res, "default", "renewed"); err == nil {
		t.Fatal("the restored event outlived its lease")
	}
}

// An event renewed thousands of times (a crash-looping pod's BackOff)
// still goes an hour after its last write, and one written once beside
// it an hour after that write: the leases it left behind are dropped
// without taking the live ones.
func TestEventRenewedManyTimesKeepsOneLease(t *testing.T) {
	s, clk, res := eventServer(t)
	event := func(name string) *api.Event {
		return podEvent(name, "BackOff", "Back-off restarting failed container", "Warning")
	}
	for _, name := range []string{"backoff", "once"} {
		if _, err := s.Create(res, "default", event(name), CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	last := time.Duration(0)
	for i := 1; i <= 3000; i++ {
		last = time.Duration(i) * time.Second
		clk.Step(t0.Add(last))
		clk.Fire()
		cur, err := s.Get(res, "default", "backoff")
		if err != nil {
			t.Fatalf("renewal %d: %v", i, err)
		}
		e := cur.(*api.Event).DeepCopy()
		e.Count++
		if _, err := s.Update(res, "default", e, UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(name string) bool {
		_, err := s.Get(res, "default", name)
		return err == nil
	}
	clk.Step(t0.Add(time.Hour))
	clk.Fire()
	if exists("once") {
		t.Error("the event written once outlived its hour")
	}
	if !exists("backoff") {
		t.Fatal("the renewed event went an hour after its first write")
	}
	if pending := len(s.leases.due) - s.leases.head; pending > 2048 {
		t.Errorf("%d entries pending for two events", pending)
	}
	clk.Step(t0.Add(last + time.Hour - time.Second))
	clk.Fire()
	if !exists("backoff") {
		t.Fatal("the renewed event went before an hour after its last write")
	}
	clk.Step(t0.Add(last + time.Hour))
	clk.Fire()
	if exists("backoff") {
		t.Error("the renewed event outlived its last lease")
	}
}
