package client

import "container/list"

// lru is a map bounded to its most recently used entries, like the
// caches client-go's event correlator keeps (4,096 entries each), so a
// long-lived recorder's memory does not grow with every event it ever
// wrote. Single-threaded, as the whole engine is.
type lru[K comparable, V any] struct {
	max     int
	entries map[K]*list.Element
	// order runs from the most recently used entry to the least.
	order *list.List
}

type lruEntry[K comparable, V any] struct {
	key   K
	value V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, entries: map[K]*list.Element{}, order: list.New()}
}

// get returns the value under key and marks it used.
func (c *lru[K, V]) get(key K) (V, bool) {
	e, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[K, V]).value, true
}

// add sets key's value, marks it used, and drops the least recently used
// entry when there are more than max.
func (c *lru[K, V]) add(key K, value V) {
	if e, ok := c.entries[key]; ok {
		e.Value.(*lruEntry[K, V]).value = value
		c.order.MoveToFront(e)
		return
	}
	c.entries[key] = c.order.PushFront(&lruEntry[K, V]{key: key, value: value})
	if c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(*lruEntry[K, V])
		delete(c.entries, old.key)
	}
}
