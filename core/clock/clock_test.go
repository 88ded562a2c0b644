package clock

import (
	"strings"
	"testing"
	"time"
)

func TestTimersFireInTimeThenScheduleOrder(t *testing.T) {
	c := New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var got []string
	c.AfterFunc(2*time.Second, func() { got = append(got, "b") })
	c.AfterFunc(time.Second, func() { got = append(got, "a1") })
	c.AfterFunc(time.Second, func() { got = append(got, "a2") })
	stopped := c.AfterFunc(time.Second, func() { got = append(got, "never") })
	if !c.Stop(stopped) || c.Stop(stopped) {
		t.Fatal("Stop should report pending once")
	}
	c.Step(c.Now().Add(1500 * time.Millisecond))
	if n := c.Fire(); n != 2 {
		t.Fatalf("fired %d, want 2", n)
	}
	c.Step(c.Now().Add(time.Second))
	c.Fire()
	if want := "a1 a2 b"; join(got) != want {
		t.Fatalf("order %q, want %q", join(got), want)
	}
}

func TestTimerScheduledForNowByCallbackRunsInSameFire(t *testing.T) {
	c := New(time.Unix(0, 0))
	ran := false
	c.AfterFunc(0, func() { c.AfterFunc(0, func() { ran = true }) })
	c.Fire()
	if !ran {
		t.Fatal("chained zero-delay timer did not run")
	}
}

func TestStepNeverGoesBack(t *testing.T) {
	c := New(time.Unix(100, 0))
	c.Step(time.Unix(50, 0))
	if c.Now() != time.Unix(100, 0).UTC() {
		t.Fatal("clock moved backwards")
	}
}

func TestRandIsSeeded(t *testing.T) {
	a, b := NewRand(7), NewRand(7)
	for i := 0; i < 10; i++ {
		if x, y := a.GenerateName("web-"), b.GenerateName("web-"); x != y {
			t.Fatalf("same seed diverged: %s vs %s", x, y)
		}
	}
	name := NewRand(1).GenerateName("pi-")
	if len(name) != len("pi-")+5 {
		t.Fatalf("suffix length: %q", name)
	}
	for _, ch := range name[3:] {
		if !containsRune(alphanums, ch) {
			t.Fatalf("suffix char %q outside alphabet", ch)
		}
	}
}

func TestHashStringIsStableAndSensitive(t *testing.T) {
	h1 := HashString([]byte(`{"image":"nginx:1"}`), nil)
	if h1 != HashString([]byte(`{"image":"nginx:1"}`), nil) {
		t.Fatal("hash not stable")
	}
	if h1 == HashString([]byte(`{"image":"nginx:2"}`), nil) {
		t.Fatal("different templates, same hash")
	}
	one := int32(1)
	if h1 == HashString([]byte(`{"image":"nginx:1"}`), &one) {
		t.Fatal("collision count ignored")
	}
}

func join(s []string) string { return strings.Join(s, " ") }

func containsRune(s string, r rune) bool { return strings.ContainsRune(s, r) }
