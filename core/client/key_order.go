package client

import (
	"iter"
	"slices"
	"strings"
)

// keyOrder keeps the keys of a set in order across changes. Keys added
// since the last read are sorted on their own and merged in, so reading
// the order between a few additions (a controller listing a namespace's
// thousands of pods while its ReplicaSet grows) costs a merge rather than
// a sort of every key. A removal, or more additions than keys already in
// order, makes the next read sort the set afresh.
type keyOrder struct {
	sorted []string
	added  []string
	// stale says sorted and added no longer describe the set.
	stale bool
}

// add notes a key new to the set.
func (o *keyOrder) add(key string) {
	if o.stale {
		return
	}
	if len(o.added) >= len(o.sorted) && len(o.added) >= 64 {
		o.invalidate()
		return
	}
	o.added = append(o.added, key)
}

// invalidate notes a change add cannot follow (a key gone).
func (o *keyOrder) invalidate() {
	o.stale, o.sorted, o.added = true, nil, nil
}

// keys returns the set's keys in order; all are the set's keys, read only
// when the order must be rebuilt. The slice is good until the next change.
func (o *keyOrder) keys(all iter.Seq[string]) []string {
	switch {
	case o.stale || o.sorted == nil && o.added == nil:
		o.sorted, o.added, o.stale = slices.Sorted(all), nil, false
		if o.sorted == nil {
			o.sorted = []string{}
		}
	case len(o.added) > 0:
		slices.Sort(o.added)
		o.sorted = mergeSorted(o.sorted, o.added)
		o.added = o.added[:0]
	}
	return o.sorted
}

// mergeSorted merges b into a, both sorted and disjoint, in a's array
// when it has room, filling from the end.
func mergeSorted(a, b []string) []string {
	n := len(a)
	a = slices.Grow(a, len(b))[:n+len(b)]
	i, j := n-1, len(b)-1
	for k := len(a) - 1; j >= 0; k-- {
		if i >= 0 && strings.Compare(a[i], b[j]) > 0 {
			a[k] = a[i]
			i--
		} else {
			a[k] = b[j]
			j--
		}
	}
	return a
}
