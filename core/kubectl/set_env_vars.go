package kubectl

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"kubeplay/core/api"
	"kubeplay/core/api/validation"
)

// envChange is what one `kubectl set env` asks of every selected
// container: variables to set (in the order given) and names to drop.
type envChange struct {
	set    []api.EnvVar
	remove []string
}

// isEnvArg is kubectl's test for an environment argument: NAME=VALUE with
// a non-empty NAME, or NAME- (and a lone "-", which reads stdin).
func isEnvArg(s string) bool {
	return strings.Contains(s[min(1, len(s)):], "=") || strings.HasSuffix(s, "-")
}

// splitEnvArgs separates the leading resource arguments from the
// environment arguments after them; ok is false when a resource follows an
// environment argument.
func splitEnvArgs(args []string) (resources, env []string, ok bool) {
	for _, a := range args {
		switch {
		case isEnvArg(a):
			env = append(env, a)
		case len(env) > 0:
			return nil, nil, false
		default:
			resources = append(resources, a)
		}
	}
	return resources, env, true
}

// parseEnvArgs reads -e values and trailing arguments: NAME=VALUE (NAME
// checked as the API checks it), NAME- to remove, and "-" for NAME=VALUE
// lines on stdin.
func parseEnvArgs(specs []string, stdin io.Reader) (*envChange, error) {
	ch := &envChange{}
	var setNames []string
	for _, spec := range specs {
		switch {
		case spec == "-":
			vars, err := readEnvLines(stdin)
			if err != nil {
				return nil, err
			}
			ch.set = append(ch.set, vars...)
		case strings.Contains(spec, "="):
			name, value, _ := strings.Cut(spec, "=")
			if errs := validation.IsEnvVarName(name); len(errs) > 0 {
				return nil, fmt.Errorf("%q is not a valid key name: %s", name, strings.Join(errs, ";"))
			}
			setNames = append(setNames, name)
			ch.set = append(ch.set, api.EnvVar{Name: name, Value: value})
		case strings.HasSuffix(spec, "-"):
			ch.remove = append(ch.remove, strings.TrimSuffix(spec, "-"))
		default:
			return nil, fmt.Errorf("unknown environment variable: %v", spec)
		}
	}
	for _, r := range ch.remove {
		if slices.Contains(setNames, r) {
			return nil, fmt.Errorf("can not both modify and remove the same environment variable in the same command")
		}
	}
	return ch, nil
}

// readEnvLines reads `env`-style input: a '#' starts a comment, lines
// without '=' are skipped, and names are taken as written.
func readEnvLines(r io.Reader) ([]api.EnvVar, error) {
	var out []api.EnvVar
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if name, value, ok := strings.Cut(line, "="); ok {
			out = append(out, api.EnvVar{Name: name, Value: value})
		}
	}
	return out, sc.Err()
}

// apply is the container's new env: a set variable takes the place of the
// first existing one of its name (later duplicates of that name go), new
// names are appended in order, removed names go entirely; duplicates of
// names the command does not touch stay as they were.
func (ch *envChange) apply(existing []api.EnvVar) []api.EnvVar {
	done := map[string]bool{}
	for _, r := range ch.remove {
		done[r] = true
	}
	var out []api.EnvVar
	for _, e := range existing {
		if done[e.Name] {
			continue
		}
		if v, ok := ch.find(e.Name); ok {
			done[e.Name] = true
			out = append(out, v)
			continue
		}
		out = append(out, e)
	}
	for _, v := range ch.set {
		if !done[v.Name] {
			done[v.Name] = true
			out = append(out, v)
		}
	}
	return out
}

// find is the first variable the command sets under name.
func (ch *envChange) find(name string) (api.EnvVar, bool) {
	for _, v := range ch.set {
		if v.Name == name {
			return v, true
		}
	}
	return api.EnvVar{}, false
}

// checkNoOverwrite is --overwrite=false: refuse to change a variable that
// already has another value.
func (ch *envChange) checkNoOverwrite(existing []api.EnvVar) error {
	for _, v := range ch.set {
		for _, e := range existing {
			if e.Name == v.Name {
				if e.Value != v.Value {
					return fmt.Errorf("'%s' already has a value (%s), and --overwrite is false", e.Name, e.Value)
				}
				break
			}
		}
	}
	return nil
}

var notEnvNameChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_]`) })

// envNameForKey is how --from turns a ConfigMap or Secret key into a
// variable name: upper case, anything but letters, digits and '_' as '_'.
func envNameForKey(key string) string {
	return strings.ToUpper(notEnvNameChar().ReplaceAllString(key, "_"))
}

// matchContainers is -c: the containers, then the init containers, whose
// names match the pattern.
func matchContainers(spec *api.PodSpec, pattern string) []*api.Container {
	var out []*api.Container
	for _, list := range [][]api.Container{spec.Containers, spec.InitContainers} {
		for i := range list {
			if wildcardMatch(list[i].Name, pattern) {
				out = append(out, &list[i])
			}
		}
	}
	return out
}

// wildcardMatch is kubectl's non-greedy '*' match for container names. It
// is looser than a glob, and kept so: the first piece need not start the
// name, and each later search starts at the offset (within the remaining
// text) where the previous piece was found; only the last piece must end
// the name.
func wildcardMatch(name, pattern string) bool {
	if pattern == "*" {
		return true
	}
	if !strings.Contains(pattern, "*") {
		return name == pattern
	}
	pieces := strings.Split(pattern, "*")
	at := 0
	for i, piece := range pieces {
		if piece == "" {
			continue
		}
		found := strings.Index(name[at:], piece)
		last := i == len(pieces)-1
		if found < at || (last && found+len(piece) != len(name)) {
			return false
		}
		at = found
	}
	return true
}
