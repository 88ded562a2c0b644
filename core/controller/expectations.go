package controller

import (
	"time"

	"kubeplay/core/clock"
)

// ExpectationsTimeout is how long a controller trusts its expectations
// before syncing anyway (a watch event may have been lost).
const ExpectationsTimeout = 5 * time.Minute

// expectation counts the creates and deletes a controller issued and has
// not yet seen come back through its informer.
type expectation struct {
	add, del  int
	timestamp time.Time
}

// ControllerExpectations keeps a controller from acting twice on the same
// gap: after creating n pods it waits until it has seen n pod additions
// before computing a new diff, so its own writes in flight never look like
// missing replicas.
type ControllerExpectations struct {
	clock *clock.Clock
	byKey map[string]*expectation
}

// NewControllerExpectations returns an empty set on clk.
func NewControllerExpectations(clk *clock.Clock) *ControllerExpectations {
	return &ControllerExpectations{clock: clk, byKey: map[string]*expectation{}}
}

// SatisfiedExpectations reports whether the controller may sync key:
// nothing is expected, everything expected has been observed, or the
// expectations are too old to trust.
func (e *ControllerExpectations) SatisfiedExpectations(key string) bool {
	exp, ok := e.byKey[key]
	if !ok {
		return true
	}
	if exp.add <= 0 && exp.del <= 0 {
		return true
	}
	return e.clock.Since(exp.timestamp) > ExpectationsTimeout
}

// SetExpectations records that add creations and del deletions are coming.
func (e *ControllerExpectations) SetExpectations(key string, add, del int) {
	e.byKey[key] = &expectation{add: add, del: del, timestamp: e.clock.Now()}
}

// ExpectCreations records that adds pods are being created.
func (e *ControllerExpectations) ExpectCreations(key string, adds int) {
	e.SetExpectations(key, adds, 0)
}

// ExpectDeletions records that dels pods are being deleted.
func (e *ControllerExpectations) ExpectDeletions(key string, dels int) {
	e.SetExpectations(key, 0, dels)
}

// CreationObserved lowers the expected creations by one.
func (e *ControllerExpectations) CreationObserved(key string) { e.lower(key, 1, 0) }

// DeletionObserved lowers the expected deletions by one.
func (e *ControllerExpectations) DeletionObserved(key string) { e.lower(key, 0, 1) }

// LowerExpectations lowers both counts, for writes that failed.
func (e *ControllerExpectations) LowerExpectations(key string, add, del int) { e.lower(key, add, del) }

func (e *ControllerExpectations) lower(key string, add, del int) {
	if exp, ok := e.byKey[key]; ok {
		exp.add -= add
		exp.del -= del
	}
}

// DeleteExpectations forgets key, when its controller object is gone.
func (e *ControllerExpectations) DeleteExpectations(key string) { delete(e.byKey, key) }

// UIDTrackingControllerExpectations also remembers which pods a controller
// deleted, so a pod seen first with a deletionTimestamp and later gone
// counts once.
type UIDTrackingControllerExpectations struct {
	*ControllerExpectations
	deleting map[string]map[string]bool
}

// NewUIDTrackingControllerExpectations returns an empty set on clk.
func NewUIDTrackingControllerExpectations(clk *clock.Clock) *UIDTrackingControllerExpectations {
	return &UIDTrackingControllerExpectations{ControllerExpectations: NewControllerExpectations(clk), deleting: map[string]map[string]bool{}}
}

// ExpectDeletionsOf records the pods (by key) about to be deleted.
func (u *UIDTrackingControllerExpectations) ExpectDeletionsOf(key string, podKeys []string) {
	set := map[string]bool{}
	for _, k := range podKeys {
		set[k] = true
	}
	u.deleting[key] = set
	u.ExpectDeletions(key, len(podKeys))
}

// DeletionObservedFor lowers the deletions expected for key when podKey was
// one of them, the first time only.
func (u *UIDTrackingControllerExpectations) DeletionObservedFor(key, podKey string) {
	if set := u.deleting[key]; set[podKey] {
		delete(set, podKey)
		u.DeletionObserved(key)
	}
}

// DeleteExpectations forgets key and the pods it was deleting.
func (u *UIDTrackingControllerExpectations) DeleteExpectations(key string) {
	u.ControllerExpectations.DeleteExpectations(key)
	delete(u.deleting, key)
}
