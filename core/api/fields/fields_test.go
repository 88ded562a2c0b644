package fields

import (
	"strings"
	"testing"
)

func TestParseAndMatch(t *testing.T) {
	pod := Set{"metadata.name": "web-0", "metadata.namespace": "apps", "status.phase": "Running", "spec.nodeName": "node01"}
	cases := []struct {
		sel   string
		match bool
	}{
		{"metadata.name=web-0", true},
		{"metadata.name==web-0", true},
		{"status.phase!=Running", false},
		{"status.phase!=Pending,spec.nodeName=node01", true},
		{"spec.nodeName=", false},
		{"spec.schedulerName=", true},
		{"", true},
	}
	for _, c := range cases {
		s, err := Parse(c.sel)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.sel, err)
		}
		if s.Matches(pod) != c.match {
			t.Errorf("%q matches = %v, want %v", c.sel, !c.match, c.match)
		}
	}
	s, _ := Parse("spec.nodeName=node01,status.phase!=Failed")
	if v, ok := s.RequiresExactMatch("spec.nodeName"); !ok || v != "node01" {
		t.Errorf("RequiresExactMatch = %q %v", v, ok)
	}
	if s.String() != "spec.nodeName=node01,status.phase!=Failed" {
		t.Errorf("String = %q", s.String())
	}
	if e, _ := Parse(`metadata.name=a\,b`); !e.Matches(Set{"metadata.name": "a,b"}) {
		t.Error("escaped comma")
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"abc", "=x", "a=b,c"} {
		_, err := Parse(in)
		if err == nil || !strings.HasPrefix(err.Error(), "invalid selector: '"+in+"'; can't understand '") {
			t.Errorf("Parse(%q) = %v", in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"metadata.name=x", "a!=b,c==d", `a=b\,c`, "=", ",", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		again, err := Parse(s.String())
		if err != nil && !s.Empty() {
			t.Fatalf("%q → %q does not re-parse: %v", in, s.String(), err)
		}
		_ = again
	})
}
