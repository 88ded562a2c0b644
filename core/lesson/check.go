package lesson

import (
	"fmt"
	"regexp"
	"strings"
)

// Result is a check's outcome.
type Result struct {
	Check *Check
	OK    bool
	Got   string
}

// Evaluate runs a check with run (a read-only terminal on the lesson's
// cluster) and compares what it printed.
func Evaluate(c *Check, run func(cmd string) string) Result {
	got := strings.TrimSpace(run(c.Run))
	ok := false
	switch {
	case c.Match != "":
		re, err := regexp.Compile(c.Match)
		ok = err == nil && re.MatchString(got)
	default:
		ok = got == strings.TrimSpace(c.Expect)
	}
	return Result{Check: c, OK: ok, Got: got}
}

// String describes a failed check for a test report.
func (r Result) String() string {
	want := r.Check.Expect
	if r.Check.Match != "" {
		want = "/" + r.Check.Match + "/"
	}
	return fmt.Sprintf("%s: $ %s\n  want %s\n  got  %s", r.Check.Text.En, r.Check.Run, want, r.Got)
}
