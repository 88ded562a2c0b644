package field

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ErrorType says what is wrong with a field.
type ErrorType string

// The error types, spelled as upstream prints them.
const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeInternal     ErrorType = "InternalError"
	ErrorTypeTypeInvalid  ErrorType = "FieldValueTypeInvalid"
)

// String is the human phrase of the type.
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid, ErrorTypeTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeInternal:
		return "Internal error"
	}
	return "<unknown error type>"
}

// omit marks an error that prints no value.
type omit struct{}

var omitValue = omit{}

// Error is one field error.
type Error struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

func (e *Error) Error() string { return e.Field + ": " + e.ErrorBody() }

// ErrorBody is the error without its field path.
func (e *Error) ErrorBody() string {
	var s string
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, ErrorTypeInternal:
		s = e.Type.String()
	default:
		if e.BadValue == omitValue {
			s = e.Type.String()
		} else {
			s = e.Type.String() + ": " + formatValue(e.BadValue)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// goTypeName rewrites kubeplay's package names in %#v output to the ones
// upstream's types print with (api.LabelSelector → v1.LabelSelector).
var goTypeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(api|intstr|resource)\.([A-Z])`) })

func formatValue(v any) string {
	if v == nil {
		return "null"
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "null"
		}
		v = rv.Elem().Interface()
	}
	switch t := v.(type) {
	case int, int64, int32, float64, float32, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	case fmt.Stringer:
		return t.String()
	}
	return goTypeName().ReplaceAllStringFunc(fmt.Sprintf("%#v", v), func(m string) string {
		return "v1." + m[len(m)-1:]
	})
}

// ErrorList is a list of field errors.
type ErrorList []*Error

// ToAggregate joins the errors as upstream's aggregate does: one error
// alone, several as "[a, b]", duplicates dropped; nil when empty.
func (l ErrorList) ToAggregate() error {
	if len(l) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var msgs []string
	for _, e := range l {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return aggregate(msgs[0])
	}
	return aggregate("[" + strings.Join(msgs, ", ") + "]")
}

type aggregate string

func (a aggregate) Error() string { return string(a) }

// Required: the field must be set.
func Required(p *Path, detail string) *Error {
	return &Error{ErrorTypeRequired, p.String(), "", detail}
}

// Invalid: the value is wrong.
func Invalid(p *Path, value any, detail string) *Error {
	return &Error{ErrorTypeInvalid, p.String(), value, detail}
}

// NotSupported: the value is not one of the supported ones.
func NotSupported(p *Path, value any, valid []string) *Error {
	detail := ""
	if len(valid) > 0 {
		q := make([]string, len(valid))
		for i, v := range valid {
			q[i] = strconv.Quote(v)
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return &Error{ErrorTypeNotSupported, p.String(), value, detail}
}

// Duplicate: the value appears twice where it must be unique.
func Duplicate(p *Path, value any) *Error {
	return &Error{ErrorTypeDuplicate, p.String(), value, ""}
}

// NotFound: the value refers to something that does not exist.
func NotFound(p *Path, value any) *Error {
	return &Error{ErrorTypeNotFound, p.String(), value, ""}
}

// Forbidden: the field may not be set (here, or now).
func Forbidden(p *Path, detail string) *Error {
	return &Error{ErrorTypeForbidden, p.String(), "", detail}
}

// TooLong: the value is longer than max bytes.
func TooLong(p *Path, value any, max int) *Error {
	detail := "value is too long"
	if max >= 0 {
		detail = fmt.Sprintf("may not be more than %d bytes", max)
	}
	return &Error{ErrorTypeTooLong, p.String(), value, detail}
}

// TooMany: the list has more than max items.
func TooMany(p *Path, actual, max int) *Error {
	return &Error{ErrorTypeTooMany, p.String(), actual, fmt.Sprintf("must have at most %d items", max)}
}

// InternalError: something went wrong that is not the user's fault.
func InternalError(p *Path, err error) *Error {
	return &Error{ErrorTypeInternal, p.String(), nil, err.Error()}
}

// Omit returns e printing no value (for values too large to print).
func (e *Error) Omit() *Error {
	e.BadValue = omitValue
	return e
}
