// Package errors is the API's errors: a StatusError carries an api.Status
// (code, reason, message, details) worded as upstream's apiserver words it,
// so kubectl can print "Error from server (NotFound): …".
package errors

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// Reasons, as api.Status.Reason spells them.
const (
	ReasonNotFound              = "NotFound"
	ReasonAlreadyExists         = "AlreadyExists"
	ReasonConflict              = "Conflict"
	ReasonInvalid               = "Invalid"
	ReasonBadRequest            = "BadRequest"
	ReasonForbidden             = "Forbidden"
	ReasonMethodNotAllowed      = "MethodNotAllowed"
	ReasonGone                  = "Gone"
	ReasonExpired               = "Expired"
	ReasonTooManyRequests       = "TooManyRequests"
	ReasonInternalError         = "InternalError"
	ReasonTimeout               = "Timeout"
	ReasonServiceUnavailable    = "ServiceUnavailable"
	ReasonUnsupportedMediaType  = "UnsupportedMediaType"
	ReasonNotAcceptable         = "NotAcceptable"
	ReasonRequestEntityTooLarge = "RequestEntityTooLarge"
)

// GroupResource names a resource: "deployments.apps", "pods".
type GroupResource struct{ Group, Resource string }

func (g GroupResource) String() string {
	if g.Group == "" {
		return g.Resource
	}
	return g.Resource + "." + g.Group
}

// GroupKind names a kind: "Deployment.apps", "Pod".
type GroupKind struct{ Group, Kind string }

func (g GroupKind) String() string {
	if g.Group == "" {
		return g.Kind
	}
	return g.Kind + "." + g.Group
}

// StatusError is an error the API returns.
type StatusError struct {
	ErrStatus api.Status
}

func (e *StatusError) Error() string { return e.ErrStatus.Message }

// Status returns the api.Status to send.
func (e *StatusError) Status() api.Status { return e.ErrStatus }

func newStatus(code int32, reason, message string, details *api.StatusDetails) *StatusError {
	return &StatusError{api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   "Failure", Code: code, Reason: reason, Message: message, Details: details,
	}}
}

// NewNotFound: deployments.apps "x" not found.
func NewNotFound(gr GroupResource, name string) error {
	return newStatus(404, ReasonNotFound, fmt.Sprintf("%s %q not found", gr, name),
		&api.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewAlreadyExists: pods "x" already exists.
func NewAlreadyExists(gr GroupResource, name string) error {
	return newStatus(409, ReasonAlreadyExists, fmt.Sprintf("%s %q already exists", gr, name),
		&api.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewConflict: Operation cannot be fulfilled on deployments.apps "x": …
func NewConflict(gr GroupResource, name string, err error) error {
	return newStatus(409, ReasonConflict, fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr, name, err),
		&api.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewInvalid: Deployment.apps "bad" is invalid: spec.…; the causes carry
// each field error for clients (kubectl prints them as `The Deployment
// "bad" is invalid: …`).
func NewInvalid(gk GroupKind, name string, errs field.ErrorList) error {
	causes := make([]api.StatusCause, 0, len(errs))
	for _, e := range errs {
		causes = append(causes, api.StatusCause{Type: string(e.Type), Message: e.ErrorBody(), Field: e.Field})
	}
	msg := fmt.Sprintf("%s %q is invalid", gk, name)
	if agg := errs.ToAggregate(); agg != nil {
		msg += ": " + agg.Error()
	}
	return newStatus(422, ReasonInvalid, msg, &api.StatusDetails{Group: gk.Group, Kind: gk.Kind, Name: name, Causes: causes})
}

// NewBadRequest: the request itself is malformed.
func NewBadRequest(message string) error { return newStatus(400, ReasonBadRequest, message, nil) }

// NewForbidden: pods "x" is forbidden: unable to create new content in namespace …
func NewForbidden(gr GroupResource, name string, err error) error {
	msg := fmt.Sprintf("%s %q is forbidden: %v", gr, name, err)
	if name == "" {
		msg = fmt.Sprintf("%s is forbidden: %v", gr, err)
	}
	return newStatus(403, ReasonForbidden, msg, &api.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name})
}

// NewMethodNotSupported: the verb does not apply to the resource.
func NewMethodNotSupported(gr GroupResource, action string) error {
	return newStatus(405, ReasonMethodNotAllowed, fmt.Sprintf("%s is not supported on resources of kind %q", action, gr),
		&api.StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// NewGone: the requested resourceVersion is no longer available.
func NewGone(message string) error { return newStatus(410, ReasonGone, message, nil) }

// NewResourceExpired: a watch asked for history that was compacted.
func NewResourceExpired(message string) error { return newStatus(410, ReasonExpired, message, nil) }

// NewTooManyRequests: try again later (an eviction a disruption budget blocks).
func NewTooManyRequests(message string, retryAfterSeconds int) error {
	var d *api.StatusDetails
	if retryAfterSeconds > 0 {
		d = &api.StatusDetails{}
	}
	return newStatus(429, ReasonTooManyRequests, message, d)
}

// NewInternalError: Internal error occurred: …
func NewInternalError(err error) error {
	return newStatus(500, ReasonInternalError, fmt.Sprintf("Internal error occurred: %v", err),
		&api.StatusDetails{Causes: []api.StatusCause{{Message: err.Error()}}})
}

// NewTimeout: the server gave up waiting.
func NewTimeout(message string) error { return newStatus(504, ReasonTimeout, message, nil) }

// NewServiceUnavailable: a part of the server is not there.
func NewServiceUnavailable(message string) error {
	return newStatus(503, ReasonServiceUnavailable, message, nil)
}

// NewUnsupportedMediaType: a body in a format the endpoint does not take.
func NewUnsupportedMediaType(contentType string, accepted ...string) error {
	msg := fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s", strings.Join(accepted, ", "))
	if len(accepted) == 0 {
		msg = fmt.Sprintf("the body of the request was in an unknown format: %s", contentType)
	}
	return newStatus(415, ReasonUnsupportedMediaType, msg, nil)
}

// NewRequestEntityTooLarge: a request body over the server's limit.
func NewRequestEntityTooLarge(message string) error {
	return newStatus(413, ReasonRequestEntityTooLarge, "Request entity too large: "+message, nil)
}

// FromStatus turns a Status read off the wire back into an error.
func FromStatus(s api.Status) error { return &StatusError{s} }

// ReasonForError is the error's reason, or "" for errors that are not StatusErrors.
func ReasonForError(err error) string {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Reason
	}
	return ""
}

// CodeForError is the HTTP code of the error (500 for foreign errors).
func CodeForError(err error) int32 {
	var se *StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Code
	}
	return 500
}

// IsNotFound and friends test an error's reason.
func IsNotFound(err error) bool        { return ReasonForError(err) == ReasonNotFound }
func IsAlreadyExists(err error) bool   { return ReasonForError(err) == ReasonAlreadyExists }
func IsConflict(err error) bool        { return ReasonForError(err) == ReasonConflict }
func IsInvalid(err error) bool         { return ReasonForError(err) == ReasonInvalid }
func IsBadRequest(err error) bool      { return ReasonForError(err) == ReasonBadRequest }
func IsForbidden(err error) bool       { return ReasonForError(err) == ReasonForbidden }
func IsTooManyRequests(err error) bool { return ReasonForError(err) == ReasonTooManyRequests }
func IsGone(err error) bool {
	r := ReasonForError(err)
	return r == ReasonGone || r == ReasonExpired
}

// NewNotFoundMessage is the 404 for a path the server does not serve.
func NewNotFoundMessage() error {
	return newStatus(404, ReasonNotFound, "the server could not find the requested resource", nil)
}
