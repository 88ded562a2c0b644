package client

// lru is a map bounded to its most recently used entries, like the
// caches client-go's event correlator keeps (4,096 entries each), so a
// long-lived recorder's memory does not grow with every event it ever
// wrote. Single-threaded, as the whole engine is.
type lru[K comparable, V any] struct {
	max     int
	entries map[K]*lruEntry[K, V]
	// head is the most recently used entry, tail the least.
	head, tail *lruEntry[K, V]
}

type lruEntry[K comparable, V any] struct {
	key        K
	value      V
	prev, next *lruEntry[K, V]
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, entries: map[K]*lruEntry[K, V]{}}
}

// get returns the value under key and marks it used.
func (c *lru[K, V]) get(key K) (V, bool) {
	e, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.toFront(e)
	return e.value, true
}

// add sets key's value, marks it used, and drops the least recently used
// entry when there are more than max.
func (c *lru[K, V]) add(key K, value V) {
	if e, ok := c.entries[key]; ok {
		e.value = value
		c.toFront(e)
		return
	}
	e := &lruEntry[K, V]{key: key, value: value}
	c.entries[key] = e
	c.toFront(e)
	if len(c.entries) > c.max {
		old := c.tail
		c.unlink(old)
		delete(c.entries, old.key)
	}
}

func (c *lru[K, V]) toFront(e *lruEntry[K, V]) {
	if c.head == e {
		return
	}
	c.unlink(e)
	e.next = c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}

func (c *lru[K, V]) unlink(e *lruEntry[K, V]) {
	if e.prev != nil {
		e.prev.next = e.next
	} else if c.head == e {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else if c.tail == e {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}
