package validation

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

const (
	eventLengthLimit     = 128
	eventNoteLengthLimit = 1024
)

// ValidateEvent checks a core/v1 Event as the legacy events API does: the
// involved object's namespace must match the event's.
func ValidateEvent(e *api.Event) field.ErrorList {
	var errs field.ErrorList
	nsPath := field.NewPath("involvedObject").Child("namespace")
	if e.EventTime.IsZero() {
		if e.InvolvedObject.Namespace == "" {
			if e.Namespace != "" && e.Namespace != api.NamespaceDefault {
				errs = append(errs, field.Invalid(nsPath, e.InvolvedObject.Namespace, "does not match event.namespace"))
			}
		} else if e.Namespace != e.InvolvedObject.Namespace {
			errs = append(errs, field.Invalid(nsPath, e.InvolvedObject.Namespace, "does not match event.namespace"))
		}
	} else {
		if e.InvolvedObject.Namespace == "" && e.Namespace != api.NamespaceDefault && e.Namespace != api.NamespaceSystem {
			errs = append(errs, field.Invalid(nsPath, e.InvolvedObject.Namespace, "does not match event.namespace"))
		}
		rc := field.NewPath("reportingComponent")
		if e.ReportingController == "" {
			errs = append(errs, field.Required(rc, ""))
		}
		errs = append(errs, validateQualifiedName(e.ReportingController, rc)...)
		if e.ReportingInstance == "" {
			errs = append(errs, field.Required(field.NewPath("reportingInstance"), ""))
		}
		for _, f := range []struct {
			name  string
			value string
			limit int
			req   bool
		}{
			{"reportingInstance", e.ReportingInstance, eventLengthLimit, false},
			{"action", e.Action, eventLengthLimit, true},
			{"reason", e.Reason, eventLengthLimit, true},
			{"message", e.Message, eventNoteLengthLimit, false},
		} {
			if f.req && f.value == "" {
				errs = append(errs, field.Required(field.NewPath(f.name), ""))
			}
			if len(f.value) > f.limit {
				errs = append(errs, field.Invalid(field.NewPath(f.name), "", fmt.Sprintf("can have at most %v characters", f.limit)))
			}
		}
	}
	for _, m := range IsDNS1123Subdomain(e.Namespace) {
		errs = append(errs, field.Invalid(field.NewPath("namespace"), e.Namespace, m))
	}
	return errs
}

// ValidateEventUpdate checks an update of an Event.
func ValidateEventUpdate(e, old *api.Event) field.ErrorList {
	errs := ValidateEvent(e)
	return append(errs, ValidateObjectMetaUpdate(&e.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
}
