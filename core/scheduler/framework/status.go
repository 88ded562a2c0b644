// Package framework is the scheduling framework as kube-scheduler shapes it:
// the plugin extension points, the status they return, the per-cycle state,
// the node and pod views plugins read (NodeInfo, PodInfo), and the
// runner that calls enabled plugins in order with their weights.
package framework

import (
	"errors"
	"strings"
)

// Code is the outcome of a plugin call.
type Code int

// The codes upstream uses. Unschedulable may be fixed by preemption;
// UnschedulableAndUnresolvable may not (preemption skips such nodes).
const (
	Success Code = iota
	Error
	Unschedulable
	UnschedulableAndUnresolvable
	Wait
	Skip
	Pending
)

var codeNames = []string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"}

func (c Code) String() string {
	if c < 0 || int(c) >= len(codeNames) {
		return "Unknown"
	}
	return codeNames[c]
}

// Status is a plugin's verdict with its reasons. A nil *Status is Success.
type Status struct {
	code    Code
	reasons []string
	err     error
	plugin  string
}

// NewStatus builds a status with reasons.
func NewStatus(code Code, reasons ...string) *Status {
	if code == Skip && len(reasons) == 0 {
		return skipStatus
	}
	return &Status{code: code, reasons: reasons}
}

// skipStatus is every plain Skip: most plugins skip most pods. WithPlugin
// and WithError fill in a copy of it.
var skipStatus = &Status{code: Skip}

// AsStatus wraps an error as an Error status.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code is the status code; nil is Success.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Reasons are the status's reasons.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Message joins the reasons with ", ".
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// Plugin is the plugin that returned the status.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin records the plugin that returned the status.
func (s *Status) WithPlugin(name string) *Status {
	if s != nil {
		s = s.own()
		s.plugin = name
	}
	return s
}

// own is s, or a copy of the shared Skip for a caller that fills it in.
func (s *Status) own() *Status {
	if s == skipStatus {
		c := *s
		return &c
	}
	return s
}

// WithError attaches the error the status stands for; its text becomes the reason.
func (s *Status) WithError(err error) *Status {
	if s == nil || err == nil {
		return s
	}
	s = s.own()
	s.err = err
	s.reasons = []string{err.Error()}
	return s
}

// Err is the error attached with WithError or AsStatus.
func (s *Status) Err() error {
	if s == nil {
		return nil
	}
	return s.err
}

// AsError turns a failed status into an error (nil for Success and Skip).
func (s *Status) AsError() error {
	if s.IsSuccess() || s.IsSkip() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// IsSuccess reports Success (or nil).
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsWait reports Wait.
func (s *Status) IsWait() bool { return s.Code() == Wait }

// IsRejected reports a rejection of the pod (not an internal error).
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable || c == Pending
}
