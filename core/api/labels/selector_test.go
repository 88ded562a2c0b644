package labels

import (
	"strings"
	"testing"

	"kubeplay/core/api"
)

func TestParseAndMatch(t *testing.T) {
	cases := []struct {
		sel     string
		str     string
		matches []Set
		misses  []Set
	}{
		{"app=nginx", "app=nginx", []Set{{"app": "nginx", "x": "y"}}, []Set{{"app": "web"}, {}}},
		{"app==nginx", "app==nginx", []Set{{"app": "nginx"}}, []Set{{}}},
		{"app!=nginx", "app!=nginx", []Set{{"app": "web"}, {}}, []Set{{"app": "nginx"}}},
		{"tier in (web, db)", "tier in (db,web)", []Set{{"tier": "db"}}, []Set{{"tier": "cache"}, {}}},
		{"tier notin (web)", "tier notin (web)", []Set{{"tier": "db"}, {}}, []Set{{"tier": "web"}}},
		{"ssd", "ssd", []Set{{"ssd": "true"}}, []Set{{}}},
		{"!ssd", "!ssd", []Set{{}}, []Set{{"ssd": "true"}}},
		{"version=v1.12,app=nginx", "app=nginx,version=v1.12", []Set{{"app": "nginx", "version": "v1.12"}}, []Set{{"app": "nginx"}}},
		{"cpu>2", "cpu>2", []Set{{"cpu": "3"}}, []Set{{"cpu": "2"}, {"cpu": "x"}, {}}},
		{"app=", "app=", []Set{{"app": ""}}, []Set{{"app": "x"}}},
		{"", "", []Set{{}, {"a": "b"}}, nil},
		{"statefulset.kubernetes.io/pod-name=web-0", "statefulset.kubernetes.io/pod-name=web-0", []Set{{"statefulset.kubernetes.io/pod-name": "web-0"}}, nil},
	}
	for _, c := range cases {
		s, err := Parse(c.sel)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.sel, err)
			continue
		}
		if s.String() != c.str {
			t.Errorf("Parse(%q).String() = %q, want %q", c.sel, s.String(), c.str)
		}
		for _, l := range c.matches {
			if !s.Matches(l) {
				t.Errorf("%q should match %v", c.sel, l)
			}
		}
		for _, l := range c.misses {
			if s.Matches(l) {
				t.Errorf("%q should not match %v", c.sel, l)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"a b":        "found 'b', expected: in, notin, =, ==, !=, gt, lt",
		"x in a":     "found 'a', expected: '('",
		"x in (a":    "found '', expected: ',', ')' or identifier",
		"a,":         "found '', expected: identifier after ','",
		"=a":         "found '=', expected: identifier",
		"a=b=c":      "found '=', expected: ',' or 'end of string'",
		"!a=b":       "found '=', expected: ',' or 'end of string'",
		"Bad Key!=x": "found 'Key', expected: in, notin, =, ==, !=, gt, lt",
		"-bad=x":     `unable to parse requirement: key: Invalid value: "-bad": name part must consist of alphanumeric characters`,
		"a=-x":       `unable to parse requirement: values[0][a]: Invalid value: "-x": a valid label must be an empty string`,
		"cpu>x":      `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
		"x notin ()": `unable to parse requirement: values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`,
		"a/b/c=d":    "a qualified name must consist of",
		"toolong" + strings.Repeat("x", 60) + "=a": "name part must be no more than 63 characters",
	}
	for in, want := range cases {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestSelectorFromLabelSelector(t *testing.T) {
	if s, _ := SelectorFromLabelSelector(nil); s.Matches(Set{}) {
		t.Error("nil selector must match nothing")
	}
	if s, _ := SelectorFromLabelSelector(&api.LabelSelector{}); !s.Matches(Set{"a": "b"}) {
		t.Error("empty selector must match everything")
	}
	ls := &api.LabelSelector{
		MatchLabels:      map[string]string{"app": "nginx"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{"web"}}, {Key: "canary", Operator: "DoesNotExist"}},
	}
	s, err := SelectorFromLabelSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Matches(Set{"app": "nginx", "tier": "web"}) || s.Matches(Set{"app": "nginx", "tier": "web", "canary": "1"}) {
		t.Error("matchExpressions not honoured")
	}
	if got := FormatLabelSelector(ls); got != "app=nginx,!canary,tier in (web)" {
		t.Errorf("FormatLabelSelector = %q", got)
	}
	if got := FormatLabelSelector(&api.LabelSelector{}); got != "<none>" {
		t.Errorf("empty FormatLabelSelector = %q", got)
	}
	if _, err := SelectorFromLabelSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Maybe"}}}); err == nil || err.Error() != `"Maybe" is not a valid label selector operator` {
		t.Errorf("bad operator: %v", err)
	}
}

func TestMatchesDoesNotAllocate(t *testing.T) {
	s := MustParse("app=nginx,tier in (web,db),!canary")
	l := Set{"app": "nginx", "tier": "db"}
	if n := testing.AllocsPerRun(100, func() { s.Matches(l) }); n != 0 {
		t.Errorf("Matches allocates %v times", n)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"app=nginx", "a in (x,y),!b", "x notin (a,,b)", "cpu>3", "k8s.io/x==y", "a,b,c", "(", "a=(b)", "!!a", "a in (b) c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		if strings.Contains(s.String(), "()") {
			return // a set holding only "" prints as "()", as upstream's does, and does not re-parse
		}
		again, err := Parse(s.String())
		if err != nil {
			t.Fatalf("String() %q of %q does not re-parse: %v", s.String(), in, err)
		}
		if again.String() != s.String() {
			t.Fatalf("round trip changed %q to %q", s.String(), again.String())
		}
	})
}
