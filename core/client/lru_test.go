package client

import (
	"slices"
	"strings"
	"testing"
)

// The cache keeps the most recently used entries: reading or writing an
// entry saves it from being the next one dropped.
func TestLRUDropsTheLeastRecentlyUsed(t *testing.T) {
	c := newLRU[string, int](3)
	keys := func() string {
		var out []string
		for i := c.head; i >= 0; i = c.entries[i].next {
			out = append(out, c.entries[i].key)
		}
		// The links back from the tail must name the same order.
		var back []string
		for i := c.tail; i >= 0; i = c.entries[i].prev {
			back = append([]string{c.entries[i].key}, back...)
		}
		if f, b := strings.Join(out, " "), strings.Join(back, " "); f != b {
			t.Fatalf("order %q from the head, %q from the tail", f, b)
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

// Through many adds and reads with evictions, the cache agrees with a
// plain list kept in recency order: the position table loses nothing
// when entries leave it.
func TestLRUAgreesWithAList(t *testing.T) {
	const max = 37
	c := newLRU[int, int](max)
	var order []int // most recently used first
	touch := func(k int) {
		if i := slices.Index(order, k); i >= 0 {
			order = slices.Delete(order, i, i+1)
		}
		order = slices.Insert(order, 0, k)
	}
	for n := range 20000 {
		k := (n * 7919) % 101
		if n%3 == 0 {
			v, ok := c.get(k)
			if want := slices.Contains(order, k); ok != want || ok && v != k {
				t.Fatalf("step %d: get(%d) = %d, %v; want present %v", n, k, v, ok, want)
			}
			if ok {
				touch(k)
			}
			continue
		}
		if n%3 == 1 {
			_, v, existed := c.upsert(k)
			if want := slices.Contains(order, k); existed != want || existed && *v != k || !existed && *v != 0 {
				t.Fatalf("step %d: upsert(%d) found %d, %v; want present %v", n, k, *v, existed, want)
			}
			*v = k
		} else {
			c.add(k, k)
		}
		touch(k)
		order = order[:min(len(order), max)]
	}
	var got []int
	for i := c.head; i >= 0; i = c.entries[i].next {
		got = append(got, c.entries[i].key)
	}
	if !slices.Equal(got, order) {
		t.Fatalf("order %v, want %v", got, order)
	}
}
