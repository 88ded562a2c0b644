package kubectl

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
)

// exitError is an error already reported; only its exit code is left.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// errExit ends a command with status 1 after it printed its own message.
var errExit = exitError{1}

// usageError is kubectl's UsageErrorf: the message and a pointer to -h.
func usageErrorf(cmd *Command, format string, args ...any) error {
	return fmt.Errorf("%s\nSee '%s -h' for help and examples", fmt.Sprintf(format, args...), cmd.Path())
}

// aggregate is several errors reported together, one per line.
type aggregate []error

func (a aggregate) Error() string {
	var s []string
	for _, e := range a {
		s = append(s, e.Error())
	}
	return strings.Join(s, ", ")
}

// newAggregate drops nils; nil when nothing is left.
func newAggregate(errs []error) error {
	var out aggregate
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

type apiStatus interface{ Status() api.Status }

// fatal prints msg with a final newline and returns code.
func fatal(w io.Writer, msg string, code int) int {
	if msg != "" {
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		io.WriteString(w, msg)
	}
	return code
}

// checkErr prints err as kubectl's cmdutil.CheckErr does and returns the
// exit code.
func (inv *Invocation) checkErr(err error) int {
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	w := inv.errOut()
	// Aggregates of one are unwrapped (resource visitors flatten theirs).
	for {
		agg, ok := err.(aggregate)
		if !ok || len(agg) != 1 {
			break
		}
		err = agg[0]
	}
	if st, ok := err.(apiStatus); ok && st.Status().Reason == apierrors.ReasonInvalid {
		return fatal(w, invalidMessage(st.Status()), 1)
	}
	if agg, ok := err.(aggregate); ok {
		var b strings.Builder
		for _, e := range agg {
			b.WriteString(messageForError(e))
			b.WriteString("\n")
		}
		return fatal(w, b.String(), 1)
	}
	msg, ok := standardErrorMessage(err)
	if !ok {
		msg = err.Error()
		if !strings.HasPrefix(msg, "error: ") {
			msg = "error: " + msg
		}
	}
	return fatal(w, msg, 1)
}

// invalidMessage is `The Deployment "bad" is invalid: field: detail`.
func invalidMessage(s api.Status) string {
	d := s.Details
	if d == nil {
		if s.Message != "" {
			return "The request is invalid: " + s.Message
		}
		return "The request is invalid"
	}
	msg := "The request is invalid"
	if d.Kind != "" || d.Name != "" {
		msg = fmt.Sprintf("The %s %q is invalid", d.Kind, d.Name)
	}
	switch len(d.Causes) {
	case 0:
		return msg
	case 1:
		return msg + ": " + causeText(d.Causes[0]) + "\n"
	}
	var b strings.Builder
	b.WriteString(msg + ": \n")
	for _, c := range d.Causes {
		b.WriteString("* " + causeText(c) + "\n")
	}
	return b.String()
}

func causeText(c api.StatusCause) string {
	if c.Field == "" {
		return c.Message
	}
	return c.Field + ": " + c.Message
}

// standardErrorMessage is `Error from server (NotFound): …` for API errors.
func standardErrorMessage(err error) (string, bool) {
	st, ok := err.(apiStatus)
	if !ok {
		return "", false
	}
	s := st.Status()
	if s.Reason == "" {
		return "Error from server: " + s.Message, true
	}
	return fmt.Sprintf("Error from server (%s): %s", s.Reason, s.Message), true
}

func messageForError(err error) string {
	if msg, ok := standardErrorMessage(err); ok {
		return msg
	}
	return err.Error()
}

// withSource is cmdutil.AddSourceToErr: `error when creating "x.yaml": …`.
func withSource(verb, source string, err error) error {
	if source == "" || err == nil {
		return err
	}
	if st, ok := err.(apiStatus); ok {
		s := st.Status()
		s.Message = fmt.Sprintf("error when %s %q: %s", verb, source, s.Message)
		return apierrors.FromStatus(s)
	}
	return fmt.Errorf("error when %s %q: %v", verb, source, err)
}

// printErr reports err on stderr without ending the command (kubectl's
// ContinueOnError paths print as they go).
func (inv *Invocation) printErr(err error) {
	if st, ok := err.(apiStatus); ok && st.Status().Reason == apierrors.ReasonInvalid {
		fatal(inv.errOut(), invalidMessage(st.Status()), 1)
		return
	}
	msg := messageForError(err)
	if _, ok := err.(apiStatus); !ok && !strings.HasPrefix(msg, "error: ") {
		msg = "error: " + msg
	}
	fatal(inv.errOut(), msg, 1)
}
