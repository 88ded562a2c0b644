package api

import "maps"

// These compare as reflect.DeepEqual does (a nil map or slice differs from
// an empty one) without reflection, for comparisons on the path of every
// write that several components watch: reflection builds a visited set
// for each call and, in wasm, costs a call per step.

// EqualStringMaps is reflect.DeepEqual of two string maps (labels,
// annotations, node selectors).
func EqualStringMaps(a, b map[string]string) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}

// EqualTolerations is reflect.DeepEqual of two toleration lists.
func EqualTolerations(a, b []Toleration) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Key != y.Key || x.Operator != y.Operator || x.Value != y.Value || x.Effect != y.Effect {
			return false
		}
		if !equalPtr(x.TolerationSeconds, y.TolerationSeconds) {
			return false
		}
	}
	return true
}

// EqualOwnerReferences is reflect.DeepEqual of two owner reference lists.
func EqualOwnerReferences(a, b []OwnerReference) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.APIVersion != y.APIVersion || x.Kind != y.Kind || x.Name != y.Name || x.UID != y.UID ||
			!equalPtr(x.Controller, y.Controller) || !equalPtr(x.BlockOwnerDeletion, y.BlockOwnerDeletion) {
			return false
		}
	}
	return true
}

func equalPtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}
