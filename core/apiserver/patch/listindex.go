package patch

// Upstream finds list items by scanning, which makes long lists
// quadratic (or worse, inside sorts). listIndex answers the same "first
// position whose key equals this" question from a map for scalar keys,
// and by scanning only for the odd key that is an object or a list.

// quadraticLimit is the list length up to which upstream's quadratic
// de-duplication (whose order is visible in patches) is kept.
const quadraticLimit = 4096

// missingKey stands for "this item has no merge key": it equals no JSON
// value.
type missingKey struct{}

func identity(v any) any { return v }

// mergeKeyOf keys a list of maps by their merge key.
func mergeKeyOf(mergeKey string) func(any) any {
	return func(item any) any {
		m, ok := item.(map[string]any)
		if !ok {
			return missingKey{}
		}
		v, ok := m[mergeKey]
		if !ok {
			return missingKey{}
		}
		return v
	}
}

func hashable(v any) bool {
	switch v.(type) {
	case nil, bool, int64, float64, string, missingKey:
		return true
	}
	return false
}

type listIndex struct {
	items []any
	key   func(any) any
	pos   map[any]int // first position of each hashable key; built lazily
}

func newListIndex(items []any, key func(any) any) *listIndex {
	return &listIndex{items: items, key: key}
}

// find returns the first position whose key equals k, or -1.
func (x *listIndex) find(k any) int {
	if _, ok := k.(missingKey); ok {
		return -1
	}
	if !hashable(k) {
		for i, it := range x.items {
			if keyEqual(x.key(it), k) {
				return i
			}
		}
		return -1
	}
	if x.pos == nil {
		x.pos = make(map[any]int, len(x.items))
		for i, it := range x.items {
			if kk := x.key(it); hashable(kk) {
				if _, seen := x.pos[kk]; !seen {
					x.pos[kk] = i
				}
			}
		}
	}
	if i, ok := x.pos[k]; ok {
		return i
	}
	return -1
}

// add appends an item to the indexed list.
func (x *listIndex) add(v any) {
	x.items = append(x.items, v)
	x.appended(x.items)
}

// appended records that items is the indexed list with one item added.
func (x *listIndex) appended(items []any) {
	x.items = items
	if x.pos == nil {
		return
	}
	i := len(items) - 1
	if kk := x.key(items[i]); hashable(kk) {
		if _, seen := x.pos[kk]; !seen {
			x.pos[kk] = i
		}
	}
}

// replaced records that item i, found by key was, changed in place; the
// index is rebuilt when next used if its key changed.
func (x *listIndex) replaced(items []any, i int, was any) {
	x.items = items
	if !keyEqual(x.key(items[i]), was) {
		x.pos = nil
	}
}

// hasDuplicates reports whether any value repeats.
func hasDuplicates(s []any) bool {
	seen := make(map[any]bool, len(s))
	for i, v := range s {
		if !hashable(v) {
			for _, w := range s[i+1:] {
				if keyEqual(v, w) {
					return true
				}
			}
			continue
		}
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}
