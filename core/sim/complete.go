package sim

import (
	"sort"
	"strings"

	"kubeplay/core/api/openapi"
	"kubeplay/core/apiserver"
)

// kubectlVerbs are the subcommands Tab offers after `kubectl `.
var kubectlVerbs = []string{
	"annotate", "api-resources", "api-versions", "apply", "attach", "auth", "autoscale", "certificate",
	"cluster-info", "completion", "config", "cordon", "cp", "create", "debug", "delete", "describe", "diff",
	"drain", "edit", "events", "exec", "explain", "expose", "get", "kustomize", "label", "logs", "patch",
	"port-forward", "proxy", "replace", "rollout", "run", "scale", "set", "taint", "top", "uncordon",
	"version", "wait",
}

// verbsWithType take a resource type as their first argument.
var verbsWithType = map[string]bool{
	"get": true, "describe": true, "delete": true, "edit": true, "label": true, "annotate": true,
	"patch": true, "scale": true, "explain": true, "wait": true, "create": false, "events": false,
}

// Complete returns the candidates for the word under the cursor at the
// end of line, and where that word starts: commands, then kubectl's verbs,
// resource types and object names, else file names. Tab in the page and
// in `kubeplay shell` both come here.
func (t *Terminal) Complete(line string) (start int, items []string) {
	start = strings.LastIndexAny(line, " \t|;&") + 1
	word := line[start:]
	words := strings.Fields(line[:start])
	// Only the last command of a pipeline or list counts.
	for i := len(words) - 1; i >= 0; i-- {
		if w := words[i]; w == "|" || w == "&&" || w == "||" || w == ";" || strings.HasSuffix(w, ";") {
			words = words[i+1:]
			break
		}
	}
	var cands []string
	switch {
	case len(words) == 0:
		cands = append(t.Shell.Commands(), "k")
	case words[0] == "kubectl" || words[0] == "k":
		cands = t.kubectlCandidates(words[1:], word)
	default:
		cands = t.fileCandidates(word)
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			items = append(items, c)
		}
	}
	sort.Strings(items)
	return start, items
}

func (t *Terminal) kubectlCandidates(args []string, word string) []string {
	var pos []string
	ns := t.Config.Namespace()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "--namespace":
			if i+1 < len(args) {
				ns = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--namespace="):
			ns = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if n := len(args); n > 0 && (args[n-1] == "-f" || args[n-1] == "--filename") {
		return t.fileCandidates(word)
	}
	if strings.HasPrefix(word, "-") {
		return []string{"--namespace", "--all-namespaces", "--output", "--selector", "--watch", "--filename", "--help", "-o", "-n", "-A", "-l", "-w", "-f"}
	}
	if len(pos) == 0 {
		return kubectlVerbs
	}
	verb := pos[0]
	if !verbsWithType[verb] && verb != "logs" && verb != "exec" {
		return nil
	}
	if verb == "logs" || verb == "exec" {
		if len(pos) == 1 {
			return t.names("pods", ns)
		}
		return nil
	}
	if len(pos) == 1 {
		if verb == "explain" && strings.Contains(word, ".") {
			return t.explainFields(word)
		}
		if i := strings.Index(word, "/"); i > 0 {
			var out []string
			for _, n := range t.names(word[:i], ns) {
				out = append(out, word[:i+1]+n)
			}
			return out
		}
		var out []string
		for _, r := range t.Cluster.API.Registry.All() {
			out = append(out, r.Name)
			out = append(out, r.ShortNames...)
		}
		return out
	}
	return t.names(pos[1], ns)
}

// explainFields completes `kubectl explain TYPE.field.` with the fields
// that follow, from the schema the API server publishes.
func (t *Terminal) explainFields(word string) []string {
	parts := strings.Split(word, ".")
	res, ok := t.Cluster.API.Registry.Resolve(parts[0])
	s, err := openapi.Load()
	if !ok || err != nil {
		return nil
	}
	prefix := strings.Join(parts[:len(parts)-1], ".") + "."
	var out []string
	for _, f := range s.FieldNames(openapi.GVK{Group: res.Group, Version: res.Version, Kind: res.Kind}, parts[1:len(parts)-1]) {
		out = append(out, prefix+f)
	}
	return out
}

// names lists the objects of a resource type (as kubectl names it).
func (t *Terminal) names(typ, ns string) []string {
	reg := t.Cluster.API.Registry
	typ = strings.Split(typ, ",")[0]
	res, ok := reg.Resolve(typ)
	if !ok {
		return nil
	}
	if !res.Namespaced {
		ns = ""
	}
	objs, _ := t.Cluster.Client("completion").List(res, ns, apiserver.ListOptions{})
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectMeta().Name)
	}
	return out
}

func (t *Terminal) fileCandidates(word string) []string {
	dir, base := "", word
	if i := strings.LastIndex(word, "/"); i >= 0 {
		dir, base = word[:i+1], word[i+1:]
	}
	_ = base
	abs := dir
	if !strings.HasPrefix(abs, "/") {
		abs = t.Shell.Cwd + "/" + dir
	}
	entries, err := t.FS.ReadDir(abs)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := dir + e.Name()
		if e.IsDir() {
			name += "/"
		}
		out = append(out, name)
	}
	return out
}
