package client

import "hash/maphash"

// lru is a map bounded to its most recently used entries, like the
// caches client-go's event correlator keeps (4,096 entries each), so a
// long-lived recorder's memory does not grow with every event it ever
// wrote. Single-threaded, as the whole engine is.
//
// The entries sit in one slice, linked by index, and a small open-
// addressed table of positions finds them: each key is held once, and
// a cache is three allocations however full, not a map slot and two
// objects per entry for the garbage collector to mark.
type lru[K comparable, V any] struct {
	max  int
	seed maphash.Seed
	// slots holds entry positions plus one (0 is free), at most three
	// quarters full, probed linearly from a key's hash.
	slots   []int32
	entries []lruEntry[K, V]
	// head is the most recently used entry, tail the least; -1 when empty.
	head, tail int32
}

type lruEntry[K comparable, V any] struct {
	// prev is the next more recently used entry, next the next less; -1 at the ends.
	prev, next int32
	// hash is key's: moving entries within the table (free, rehash) needs
	// every entry's home slot, and hashing a key of strings is most of
	// what an operation costs where there is no AES hash (wasm).
	hash  uint64
	key   K
	value V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, seed: maphash.MakeSeed(), head: -1, tail: -1}
}

// full reports whether the cache holds max entries, the first of which
// it drops for the next new key: until then it has dropped none.
func (c *lru[K, V]) full() bool { return len(c.entries) >= c.max }

// get returns the value under key and marks it used.
func (c *lru[K, V]) get(key K) (V, bool) {
	if _, i := c.find(key, c.hash(key)); i >= 0 {
		c.toFront(i)
		return c.entries[i].value, true
	}
	var zero V
	return zero, false
}

// add sets key's value, marks it used, and drops the least recently used
// entry when there are more than max.
func (c *lru[K, V]) add(key K, value V) {
	_, v, _ := c.upsert(key)
	*v = value
}

// upsert finds key's entry, or makes one with the zero value (dropping the
// least recently used past max), and marks it used. It returns the key as
// the cache holds it, the value's place and whether the entry was there;
// the place is good until the cache's next change.
func (c *lru[K, V]) upsert(key K) (K, *V, bool) {
	h := c.hash(key)
	s, i := c.find(key, h)
	if i >= 0 {
		c.toFront(i)
		return c.entries[i].key, &c.entries[i].value, true
	}
	if len(c.entries) < c.max {
		i = int32(len(c.entries))
		c.grow()
		if len(c.entries)*4 > len(c.slots)*3 {
			c.rehash()
		}
		s, _ = c.find(key, h)
	} else {
		// The least recently used entry's place takes the new one.
		i = c.tail
		old, _ := c.find(c.entries[i].key, c.entries[i].hash)
		c.free(old)
		c.unlink(i)
		s, _ = c.find(key, h)
	}
	var zero V
	c.entries[i].hash, c.entries[i].key, c.entries[i].value = h, key, zero
	c.slots[s] = i + 1
	c.pushFront(i)
	return key, &c.entries[i].value, false
}

// grow appends an unlinked entry, growing the slice by half rather than
// append's doubling: most caches stay far below max, and what they do not
// use is still marked. (An eighth copied a full cache's entries about
// nine times over on its way up: a scheduler's 4,096 events' worth.)
func (c *lru[K, V]) grow() {
	if len(c.entries) == cap(c.entries) {
		n := min(cap(c.entries)+cap(c.entries)/2+8, c.max)
		grown := make([]lruEntry[K, V], len(c.entries), n)
		copy(grown, c.entries)
		c.entries = grown
	}
	c.entries = append(c.entries, lruEntry[K, V]{prev: -1, next: -1})
}

func (c *lru[K, V]) hash(key K) uint64 { return maphash.Comparable(c.seed, key) }

// find returns the slot holding key, whose hash is h, and its entry, or
// the free slot where key belongs and -1.
func (c *lru[K, V]) find(key K, h uint64) (int, int32) {
	if len(c.slots) == 0 {
		return 0, -1
	}
	mask := len(c.slots) - 1
	for s := int(h) & mask; ; s = (s + 1) & mask {
		e := c.slots[s]
		if e == 0 {
			return s, -1
		}
		if en := &c.entries[e-1]; en.hash == h && en.key == key {
			return s, e - 1
		}
	}
}

// free empties slot s and moves later entries of its probe run back, so
// every entry stays reachable from its key's hash without tombstones.
func (c *lru[K, V]) free(s int) {
	mask := len(c.slots) - 1
	for j := (s + 1) & mask; c.slots[j] != 0; j = (j + 1) & mask {
		home := int(c.entries[c.slots[j]-1].hash) & mask
		// The entry at j may fill the hole at s unless its home lies
		// cyclically after s, up to j.
		if (j-home)&mask >= (j-s)&mask {
			c.slots[s] = c.slots[j]
			s = j
		}
	}
	c.slots[s] = 0
}

// rehash doubles the table and places every entry afresh.
func (c *lru[K, V]) rehash() {
	c.slots = make([]int32, max(16, 2*len(c.slots)))
	mask := len(c.slots) - 1
	for i := range c.entries[:len(c.entries)-1] {
		s := int(c.entries[i].hash) & mask
		for c.slots[s] != 0 {
			s = (s + 1) & mask
		}
		c.slots[s] = int32(i) + 1
	}
}

func (c *lru[K, V]) toFront(i int32) {
	if c.head != i {
		c.unlink(i)
		c.pushFront(i)
	}
}

func (c *lru[K, V]) unlink(i int32) {
	e := &c.entries[i]
	if e.prev >= 0 {
		c.entries[e.prev].next = e.next
	} else {
		c.head = e.next
	}
	if e.next >= 0 {
		c.entries[e.next].prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = -1, -1
}

func (c *lru[K, V]) pushFront(i int32) {
	e := &c.entries[i]
	e.prev, e.next = -1, c.head
	if c.head >= 0 {
		c.entries[c.head].prev = i
	} else {
		c.tail = i
	}
	c.head = i
}
