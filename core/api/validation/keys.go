package validation

import "slices"

// sortedKeys returns m's keys in order, so that errors come out in a
// stable order. They are kept in buf when they fit: every write of every
// object has its labels and annotations checked this way.
func sortedKeys(m map[string]string, buf []string) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
