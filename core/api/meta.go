// Package api holds kubeplay's API types: the kinds the seeds use, with
// upstream's apiVersions, kinds and JSON field names, so manifests written for
// a real cluster decode unchanged and our YAML reads like kubectl's.
package api

import (
	"time"
)

// TypeMeta is inlined into every object: apiVersion and kind.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is metav1.ObjectMeta, field for field where kubeplay uses it.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// OwnerReference links a dependent to its owner for the garbage collector.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ListMeta is the metadata of a list response.
type ListMeta struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
	Continue        string `json:"continue,omitempty"`
}

// Object is what the store keeps: any kind with TypeMeta and ObjectMeta.
// Objects handed out by the store and informers are shared; callers copy
// (DeepCopy) before they change one.
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
	DeepCopyObject() Object
}

func (t *TypeMeta) GetTypeMeta() *TypeMeta       { return t }
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// GetControllerOf returns the owner reference marked controller, if any.
func (m *ObjectMeta) GetControllerOf() *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// HasFinalizer reports whether name is among the object's finalizers.
func (m *ObjectMeta) HasFinalizer(name string) bool {
	for _, f := range m.Finalizers {
		if f == name {
			return true
		}
	}
	return false
}

// Time is metav1.Time: RFC 3339 in whole seconds on the wire, null when zero.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Second)} }

// NewTimePtr is NewTime for optional fields.
func NewTimePtr(t time.Time) *Time { v := NewTime(t); return &v }

func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(time.RFC3339) + `"`), nil
}

func (t *Time) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" || s == `""` {
		t.Time = time.Time{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return &time.ParseError{Layout: time.RFC3339, Value: s, Message: ": expected a quoted RFC 3339 time"}
	}
	pt, err := time.Parse(time.RFC3339, s[1:len(s)-1])
	if err != nil {
		return err
	}
	t.Time = pt.UTC()
	return nil
}

// IsZero lets omitempty-aware encoders drop an unset time.
func (t *Time) IsZeroTime() bool { return t == nil || t.Time.IsZero() }

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Label selector operators.
const (
	LabelSelectorOpIn           = "In"
	LabelSelectorOpNotIn        = "NotIn"
	LabelSelectorOpExists       = "Exists"
	LabelSelectorOpDoesNotExist = "DoesNotExist"
)

// Condition is metav1.Condition, used by kinds whose conditions follow it.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
}

// Condition statuses.
const (
	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// Status is metav1.Status: the body of every API error.
type Status struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata"`
	Status   string         `json:"status,omitempty"`
	Message  string         `json:"message,omitempty"`
	Reason   string         `json:"reason,omitempty"`
	Details  *StatusDetails `json:"details,omitempty"`
	Code     int32          `json:"code,omitempty"`
}

// StatusDetails names the object an error is about.
type StatusDetails struct {
	Name   string        `json:"name,omitempty"`
	Group  string        `json:"group,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	UID    string        `json:"uid,omitempty"`
	Causes []StatusCause `json:"causes,omitempty"`
}

// StatusCause is one field error inside an Invalid status.
type StatusCause struct {
	Type    string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// DeleteOptions is the body of a DELETE request.
type DeleteOptions struct {
	TypeMeta           `json:",inline"`
	GracePeriodSeconds *int64         `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions `json:"preconditions,omitempty"`
	PropagationPolicy  *string        `json:"propagationPolicy,omitempty"`
	OrphanDependents   *bool          `json:"orphanDependents,omitempty"`
	DryRun             []string       `json:"dryRun,omitempty"`
}

// Preconditions guard a delete.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// Deletion propagation policies.
const (
	DeletePropagationOrphan     = "Orphan"
	DeletePropagationBackground = "Background"
	DeletePropagationForeground = "Foreground"
)

// Finalizers the API server and garbage collector understand.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// Bool, Int32, Int64 and String return pointers for optional fields.
func Bool(v bool) *bool       { return &v }
func Int32(v int32) *int32    { return &v }
func Int64(v int64) *int64    { return &v }
func String(v string) *string { return &v }
