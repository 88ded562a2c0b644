package apiserver

import (
	"maps"
	"reflect"
	"slices"

	"kubeplay/core/api"
)

// A write's new version shares with the old one what the write leaves
// alone: a stored object never changes, so the two can point at the same
// parts, and the history of a pod's status writes holds one spec.

// keepField sets dst.<name> to src.<name>, for kinds that have it. The
// two versions share the field's contents (as upstream's strategies set
// newPod.Spec = oldPod.Spec): a stored object never changes, so the new
// version needs no copy of a part the write may not touch.
func keepField(dst, src api.Object, name string) {
	d := reflect.ValueOf(dst).Elem().FieldByName(name)
	if !d.IsValid() {
		return
	}
	d.Set(reflect.ValueOf(src).Elem().FieldByName(name))
}

// shallowCopy is a new object whose fields are old's: the write that
// makes it a new version replaces what it changes instead of writing
// into parts it shares with old.
func shallowCopy(old api.Object) api.Object {
	o := reflect.ValueOf(old).Elem()
	c := reflect.New(o.Type())
	c.Elem().Set(o)
	return c.Interface().(api.Object)
}

// keepEqualMetadata points m's labels, annotations, owner references and
// finalizers at old's where they are equal (an empty one stays apart
// from a missing one): a writer sends its own copy of them with every
// write, most often unchanged.
func keepEqualMetadata(m, old *api.ObjectMeta) {
	if m.Labels != nil && old.Labels != nil && maps.Equal(m.Labels, old.Labels) {
		m.Labels = old.Labels
	}
	if m.Annotations != nil && old.Annotations != nil && maps.Equal(m.Annotations, old.Annotations) {
		m.Annotations = old.Annotations
	}
	if m.OwnerReferences != nil && old.OwnerReferences != nil && api.EqualOwnerReferences(m.OwnerReferences, old.OwnerReferences) {
		m.OwnerReferences = old.OwnerReferences
	}
	if m.Finalizers != nil && old.Finalizers != nil && slices.Equal(m.Finalizers, old.Finalizers) {
		m.Finalizers = old.Finalizers
	}
}
