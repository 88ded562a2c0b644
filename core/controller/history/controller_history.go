// Package history keeps a controller's ControllerRevisions: immutable
// snapshots of a StatefulSet's or DaemonSet's pod template, named
// <owner>-<hash>, numbered by revision, and trimmed to the owner's
// revisionHistoryLimit.
package history

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/clock"
)

// ControllerRevisionHashLabel is the label holding a revision's data hash.
const ControllerRevisionHashLabel = "controller.kubernetes.io/hash"

// maxPrefixLength keeps <prefix>-<hash> within a 253-character name.
const maxPrefixLength = 223

// ControllerRevisionName is prefix-hash, the prefix cut to 223 bytes.
func ControllerRevisionName(prefix, hash string) string {
	if len(prefix) > maxPrefixLength {
		prefix = prefix[:maxPrefixLength]
	}
	return prefix + "-" + hash
}

// HashControllerRevision hashes a revision's data (fnv-32, then the probe
// in decimal when there is one), safe-encoded so no words appear. The
// collision count is the probe: a name clash moves to the next hash.
func HashControllerRevision(rev *api.ControllerRevision, probe *int32) string {
	h := fnv.New32()
	h.Write(rev.Data.Raw)
	if probe != nil {
		h.Write([]byte(strconv.FormatInt(int64(*probe), 10)))
	}
	return clock.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// NewControllerRevision is the revision parent would record for data: the
// template's labels plus the hash label, a controller reference to parent,
// and the name <parent>-<hash>.
func NewControllerRevision(parent api.Object, parentKind api.GroupVersionKind, templateLabels map[string]string, data []byte, revision int64, collisionCount *int32) *api.ControllerRevision {
	labels := make(map[string]string, len(templateLabels)+1)
	for k, v := range templateLabels {
		labels[k] = v
	}
	pm := parent.GetObjectMeta()
	cr := &api.ControllerRevision{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: api.ObjectMeta{
			Namespace:       pm.Namespace,
			Labels:          labels,
			OwnerReferences: []api.OwnerReference{ControllerRef(parent, parentKind)},
		},
		Data:     api.RawExtension{Raw: data},
		Revision: revision,
	}
	hash := HashControllerRevision(cr, collisionCount)
	cr.Name = ControllerRevisionName(pm.Name, hash)
	cr.Labels[ControllerRevisionHashLabel] = hash
	return cr
}

// ControllerRef is the controller owner reference to parent of kind gvk.
func ControllerRef(parent api.Object, gvk api.GroupVersionKind) api.OwnerReference {
	m := parent.GetObjectMeta()
	apiVersion := gvk.Version
	if gvk.Group != "" {
		apiVersion = gvk.Group + "/" + gvk.Version
	}
	return api.OwnerReference{APIVersion: apiVersion, Kind: gvk.Kind, Name: m.Name, UID: m.UID,
		Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}
}

// SortControllerRevisions orders revisions by Revision, then creation
// time, then name; the sort is stable.
func SortControllerRevisions(revs []*api.ControllerRevision) {
	sort.SliceStable(revs, func(i, j int) bool {
		a, b := revs[i], revs[j]
		if a.Revision != b.Revision {
			return a.Revision < b.Revision
		}
		if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
}

// EqualRevision reports whether two revisions hold the same data (both nil
// counts as equal). Hash labels that parse as numbers settle a difference
// early, as upstream's do; otherwise the bytes decide.
func EqualRevision(a, b *api.ControllerRevision) bool {
	if a == nil || b == nil {
		return a == b
	}
	ha, errA := strconv.ParseInt(a.Labels[ControllerRevisionHashLabel], 10, 32)
	hb, errB := strconv.ParseInt(b.Labels[ControllerRevisionHashLabel], 10, 32)
	if errA == nil && errB == nil && ha != hb {
		return false
	}
	return bytes.Equal(a.Data.Raw, b.Data.Raw)
}

// FindEqualRevisions returns the revisions equal to needle, in order.
func FindEqualRevisions(revs []*api.ControllerRevision, needle *api.ControllerRevision) []*api.ControllerRevision {
	var out []*api.ControllerRevision
	for _, r := range revs {
		if EqualRevision(r, needle) {
			out = append(out, r)
		}
	}
	return out
}

// NextRevision is one past the last revision of sorted revisions, 1 when
// there are none.
func NextRevision(sorted []*api.ControllerRevision) int64 {
	if len(sorted) == 0 {
		return 1
	}
	return sorted[len(sorted)-1].Revision + 1
}

// MaxRevision is the highest Revision among revs (0 for none).
func MaxRevision(revs []*api.ControllerRevision) int64 {
	var m int64
	for _, r := range revs {
		if r.Revision > m {
			m = r.Revision
		}
	}
	return m
}

// RevisionsToTruncate returns which revisions to delete so at most limit
// non-live ones remain: the oldest first. revs must be sorted; live names
// the revisions in use (current, update, and those pods carry). A negative
// limit keeps everything.
func RevisionsToTruncate(revs []*api.ControllerRevision, live map[string]bool, limit int) []*api.ControllerRevision {
	var historic []*api.ControllerRevision
	for _, r := range revs {
		if !live[r.Name] {
			historic = append(historic, r)
		}
	}
	if limit < 0 || len(historic) <= limit {
		return nil
	}
	return historic[:len(historic)-limit]
}

// errNilCollisionCount is upstream's guard against a missing counter.
var errNilCollisionCount = fmt.Errorf("collisionCount should not be nil")
