package client

import (
	"strings"
	"testing"
)

// The cache keeps the most recently used entries: reading or writing an
// entry saves it from being the next one dropped.
func TestLRUDropsTheLeastRecentlyUsed(t *testing.T) {
	c := newLRU[string, int](3)
	keys := func() string {
		var out []string
		for e := c.order.Front(); e != nil; e = e.Next() {
			out = append(out, e.Value.(*lruEntry[string, int]).key)
		}
		return strings.Join(out, " ")
	}
	steps := []struct {
		what string
		do   func()
		want string
	}{
		{"three added", func() { c.add("a", 1); c.add("b", 2); c.add("c", 3) }, "c b a"},
		{"a read", func() { c.get("a") }, "a c b"},
		{"a fourth drops b", func() { c.add("d", 4) }, "d a c"},
		{"c rewritten", func() { c.add("c", 30) }, "c d a"},
		{"a fifth drops a", func() { c.add("e", 5) }, "e c d"},
	}
	for _, s := range steps {
		s.do()
		if got := keys(); got != s.want {
			t.Fatalf("%s: %q, want %q", s.what, got, s.want)
		}
	}
	if _, ok := c.get("b"); ok {
		t.Error("b was dropped but is still there")
	}
	if v, ok := c.get("c"); !ok || v != 30 {
		t.Errorf("c = %d, %v; want 30", v, ok)
	}
	if len(c.entries) != 3 {
		t.Errorf("%d entries, want 3", len(c.entries))
	}
}
