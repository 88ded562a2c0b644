package kubectl

import (
	"fmt"
	"strings"
	"testing"

	"kubeplay/core/api"
)

// -c patterns match as kubectl's loose wildcard does.
func TestWildcardMatch(t *testing.T) {
	cases := []struct {
		name, pattern string
		want          bool
	}{
		{"nginx", "*", true},
		{"nginx", "nginx", true},
		{"nginx", "ngin", false},
		{"nginx", "ng*", true},
		{"nginx", "*x", true},
		{"nginx", "*y", false},
		{"nginx", "n*x", true},
		{"sidecar", "*car", true},
		// The first piece is not anchored to the start of the name.
		{"xnginx", "ng*", true},
		// The last piece must end the name.
		{"nginx-init", "*nginx", false},
	}
	for _, c := range cases {
		if got := wildcardMatch(c.name, c.pattern); got != c.want {
			t.Errorf("wildcardMatch(%q, %q) = %v, want %v", c.name, c.pattern, got, c.want)
		}
	}
}

func envString(env []api.EnvVar) string {
	var parts []string
	for _, e := range env {
		parts = append(parts, e.Name+"="+e.Value)
	}
	return strings.Join(parts, " ")
}

func envVars(s string) []api.EnvVar {
	var out []api.EnvVar
	for _, f := range strings.Fields(s) {
		n, v, _ := strings.Cut(f, "=")
		out = append(out, api.EnvVar{Name: n, Value: v})
	}
	return out
}

// A set variable takes the first slot of its name, removals drop every
// copy, untouched duplicates stay.
func TestEnvChangeApply(t *testing.T) {
	cases := []struct {
		existing, args, want string
	}{
		{"", "A=1 B=2", "A=1 B=2"},
		{"A=1 B=2", "B=3", "A=1 B=3"},
		{"A=1 B=2 A=9", "A=5", "A=5 B=2"},
		{"A=1 B=2 B=3", "C=4", "A=1 B=2 B=3 C=4"},
		{"A=1 B=2 A=3", "A-", "B=2"},
		{"A=1", "A=1", "A=1"},
		{"A=1", "C=2 C=3", "A=1 C=2"},
	}
	for _, c := range cases {
		ch, err := parseEnvArgs(strings.Fields(c.args), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if got := envString(ch.apply(envVars(c.existing))); got != c.want {
			t.Errorf("[%s] + %s = [%s], want [%s]", c.existing, c.args, got, c.want)
		}
	}
}

// Arguments split where the first environment change starts.
func TestSplitEnvArgs(t *testing.T) {
	cases := []struct {
		args, resources, env string
		ok                   bool
	}{
		{"deploy/web A=1 B-", "deploy/web", "A=1 B-", true},
		{"deploy web A=1", "deploy web", "A=1", true},
		{"deploy/web - A=b=c", "deploy/web", "- A=b=c", true},
		{"deploy/web =x", "deploy/web =x", "", true},
		{"deploy/web A=1 other", "", "", false},
	}
	for _, c := range cases {
		r, e, ok := splitEnvArgs(strings.Fields(c.args))
		got := fmt.Sprint(strings.Join(r, " "), "|", strings.Join(e, " "), "|", ok)
		want := fmt.Sprint(c.resources, "|", c.env, "|", c.ok)
		if got != want {
			t.Errorf("splitEnvArgs(%s) = %s, want %s", c.args, got, want)
		}
	}
}
