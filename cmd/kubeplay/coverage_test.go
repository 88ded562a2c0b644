package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"kubeplay/core/apiserver"
	"kubeplay/core/kubectl"
	"kubeplay/core/session"
)

// The matrix of what the real-kubectl conformance replay must exercise:
// every command of issue 5's list (with the generators, output formats and
// flags it names), and for every kind the lessons use, get, get -o wide,
// get -o yaml and describe. TestConformanceCoverage reads the corpus that
// TestRealKubectlMatchesOurs replays and names each cell no command line
// of it fills.

// commandCells are the command-level cells: a name and what a parsed
// kubectl line must look like to fill it.
var commandCells = []struct {
	name string
	fill func(c kubectl.CommandLine) bool
}{
	{"apply -f", pathWithFlag("apply", "filename")},
	{"apply --record", pathWithFlag("apply", "record")},
	{"create -f", pathWithFlag("create", "filename")},
	{"create deployment", cmdPath("create deployment")},
	{"create namespace", cmdPath("create namespace")},
	{"create configmap", cmdPath("create configmap")},
	{"create secret generic", cmdPath("create secret generic")},
	{"create secret tls", cmdPath("create secret tls")},
	{"create secret docker-registry", cmdPath("create secret docker-registry")},
	{"create job", cmdPath("create job")},
	{"create cronjob", cmdPath("create cronjob")},
	{"create service clusterip", cmdPath("create service clusterip")},
	{"create service nodeport", cmdPath("create service nodeport")},
	{"create service loadbalancer", cmdPath("create service loadbalancer")},
	{"create service externalname", cmdPath("create service externalname")},
	{"get several kinds", func(c kubectl.CommandLine) bool {
		return c.Path == "get" && len(c.Args) > 0 && strings.Contains(c.Args[0], ",")
	}},
	{"get all", func(c kubectl.CommandLine) bool { return c.Path == "get" && slices.Contains(c.Args, "all") }},
	{"get TYPE NAME", func(c kubectl.CommandLine) bool {
		return c.Path == "get" && len(c.Args) > 1 && !strings.Contains(c.Args[0], "/")
	}},
	{"get TYPE/NAME", func(c kubectl.CommandLine) bool {
		return c.Path == "get" && len(c.Args) > 0 && strings.Contains(c.Args[0], "/")
	}},
	{"get deployment.v1.apps/NAME", func(c kubectl.CommandLine) bool {
		return c.Path == "get" && len(c.Args) > 0 && regexp.MustCompile(`^\w+\.v\d\w*\.[\w.]+`).MatchString(c.Args[0])
	}},
	{"get Kind (in its own case)", func(c kubectl.CommandLine) bool {
		return c.Path == "get" && len(c.Args) > 0 && regexp.MustCompile(`^[A-Z]`).MatchString(c.Args[0])
	}},
	{"get -o wide", getOutput("wide")},
	{"get -o yaml", getOutput("yaml")},
	{"get -o json", getOutput("json")},
	{"get -o name", getOutput("name")},
	{"get -o jsonpath", getOutput("jsonpath")},
	{"get -o custom-columns", getOutput("custom-columns")},
	{"get -l", pathWithFlag("get", "selector")},
	{"get -L", pathWithFlag("get", "label-columns")},
	{"get --show-labels", pathWithFlag("get", "show-labels")},
	{"get --field-selector", pathWithFlag("get", "field-selector")},
	{"get -w", pathWithFlag("get", "watch")},
	{"get -A", pathWithFlag("get", "all-namespaces")},
	{"get -n", pathWithFlag("get", "namespace")},
	{"get --sort-by", pathWithFlag("get", "sort-by")},
	{"describe", cmdPath("describe")},
	{"delete", cmdPath("delete")},
	{"delete --cascade=background", pathWithFlagValue("delete", "cascade", "background")},
	{"delete --cascade=foreground", pathWithFlagValue("delete", "cascade", "foreground")},
	{"delete --cascade=orphan", pathWithFlagValue("delete", "cascade", "orphan")},
	{"delete --cascade=false (deprecated)", pathWithFlagValue("delete", "cascade", "false")},
	{"delete --grace-period", pathWithFlag("delete", "grace-period")},
	{"delete --force", pathWithFlag("delete", "force")},
	{"delete --now", pathWithFlag("delete", "now")},
	{"delete -l", pathWithFlag("delete", "selector")},
	{"delete --all", pathWithFlag("delete", "all")},
	{"edit", cmdPath("edit")},
	{"scale", cmdPath("scale")},
	{"autoscale", cmdPath("autoscale")},
	{"rollout status", cmdPath("rollout status")},
	{"rollout history", cmdPath("rollout history")},
	{"rollout history --revision", pathWithFlag("rollout history", "revision")},
	{"rollout undo", cmdPath("rollout undo")},
	{"rollout undo --to-revision", pathWithFlag("rollout undo", "to-revision")},
	{"rollout pause", cmdPath("rollout pause")},
	{"rollout resume", cmdPath("rollout resume")},
	{"rollout restart", cmdPath("rollout restart")},
	{"set image", cmdPath("set image")},
	{"set resources", cmdPath("set resources")},
	{"set env", cmdPath("set env")},
	{"set env --list", pathWithFlag("set env", "list")},
	{"set env --from", pathWithFlag("set env", "from")},
	{"patch (strategic)", func(c kubectl.CommandLine) bool {
		return c.Path == "patch" && (len(c.Flags["type"]) == 0 || slices.Contains(c.Flags["type"], "strategic"))
	}},
	{"patch --type=merge", pathWithFlagValue("patch", "type", "merge")},
	{"patch --type=json", pathWithFlagValue("patch", "type", "json")},
	{"label", cmdPath("label")},
	{"label --overwrite", pathWithFlag("label", "overwrite")},
	{"label KEY-", pathWithArgSuffix("label", "-")},
	{"annotate", cmdPath("annotate")},
	{"annotate --overwrite", pathWithFlag("annotate", "overwrite")},
	{"annotate KEY-", pathWithArgSuffix("annotate", "-")},
	{"taint", cmdPath("taint")},
	{"taint KEY:EFFECT-", pathWithArgSuffix("taint", "-")},
	{"cordon", cmdPath("cordon")},
	{"uncordon", cmdPath("uncordon")},
	{"drain", cmdPath("drain")},
	{"drain --ignore-daemonsets", pathWithFlag("drain", "ignore-daemonsets")},
	{"drain --delete-emptydir-data", pathWithFlag("drain", "delete-emptydir-data")},
	{"drain --force", pathWithFlag("drain", "force")},
	{"logs", cmdPath("logs")},
	{"logs -f", pathWithFlag("logs", "follow")},
	{"logs --tail", pathWithFlag("logs", "tail")},
	{"logs -c", pathWithFlag("logs", "container")},
	{"logs --previous", pathWithFlag("logs", "previous")},
	{"logs -l", pathWithFlag("logs", "selector")},
	{"exec", cmdPath("exec")},
	{"exec -it", func(c kubectl.CommandLine) bool {
		return c.Path == "exec" && len(c.Flags["stdin"]) > 0 && len(c.Flags["tty"]) > 0
	}},
	{"run", cmdPath("run")},
	{"run --overrides", pathWithFlag("run", "overrides")},
	{"expose", cmdPath("expose")},
	{"api-resources", cmdPath("api-resources")},
	{"api-resources --api-group", pathWithFlag("api-resources", "api-group")},
	{"api-resources -o wide", func(c kubectl.CommandLine) bool {
		return c.Path == "api-resources" && slices.Contains(c.Flags["output"], "wide")
	}},
	{"api-versions", cmdPath("api-versions")},
	{"explain", cmdPath("explain")},
	{"version", cmdPath("version")},
	{"cluster-info", cmdPath("cluster-info")},
	{"config set-context --current --namespace", func(c kubectl.CommandLine) bool {
		return c.Path == "config set-context" && len(c.Flags["current"]) > 0 && len(c.Flags["namespace"]) > 0
	}},
	{"config set-cluster", cmdPath("config set-cluster")},
	{"config set-credentials", cmdPath("config set-credentials")},
	{"config set", cmdPath("config set")},
	{"config unset", cmdPath("config unset")},
	{"config use-context", cmdPath("config use-context")},
	{"proxy", cmdPath("proxy")},
	{"top pod", cmdPath("top pod")},
	{"top node", cmdPath("top node")},
}

// kindCells are the kinds every lesson's cluster can show; each must be
// read with get, get -o wide, get -o yaml and describe.
var kindCells = []string{
	"Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob",
	"Service", "Endpoints", "EndpointSlice", "ConfigMap", "Secret", "Namespace", "Node",
	"PersistentVolume", "PersistentVolumeClaim", "StorageClass", "HorizontalPodAutoscaler",
	"Event", "ServiceAccount", "ResourceQuota", "ControllerRevision", "Lease", "PodDisruptionBudget",
}

// kindReads are the per-kind reads: get (a table), get -o wide, get -o
// yaml, describe.
var kindReads = []string{"get", "get -o wide", "get -o yaml", "describe"}

// coverageExceptions are cells the real kubectl cannot fill yet, each with
// why; none is left.
func coverageExceptions() map[string]string {
	return map[string]string{}
}

func cmdPath(p string) func(kubectl.CommandLine) bool {
	return func(c kubectl.CommandLine) bool { return c.Path == p }
}

func pathWithFlag(p, flag string) func(kubectl.CommandLine) bool {
	return func(c kubectl.CommandLine) bool { return c.Path == p && len(c.Flags[flag]) > 0 }
}

func pathWithFlagValue(p, flag, value string) func(kubectl.CommandLine) bool {
	return func(c kubectl.CommandLine) bool { return c.Path == p && slices.Contains(c.Flags[flag], value) }
}

func pathWithArgSuffix(p, suffix string) func(kubectl.CommandLine) bool {
	return func(c kubectl.CommandLine) bool {
		if c.Path != p {
			return false
		}
		for _, a := range c.Args[min(1, len(c.Args)):] {
			if strings.HasSuffix(a, suffix) {
				return true
			}
		}
		return false
	}
}

// getOutput fills "get -o FORMAT" (jsonpath=..., custom-columns=...).
func getOutput(format string) func(kubectl.CommandLine) bool {
	return func(c kubectl.CommandLine) bool {
		if c.Path != "get" {
			return false
		}
		for _, o := range c.Flags["output"] {
			if o == format || strings.HasPrefix(o, format+"=") {
				return true
			}
		}
		return false
	}
}

// kindsRead are the kinds a get or describe line names by its resource
// arguments ("all" and -f name none).
func kindsRead(reg *apiserver.Registry, c kubectl.CommandLine) []string {
	if len(c.Args) == 0 {
		return nil
	}
	var types []string
	if strings.Contains(c.Args[0], "/") {
		for _, a := range c.Args {
			t, _, _ := strings.Cut(a, "/")
			types = append(types, t)
		}
	} else {
		types = strings.Split(c.Args[0], ",")
	}
	var kinds []string
	for _, t := range types {
		if res, ok := reg.Resolve(t); ok {
			kinds = append(kinds, res.Kind)
		}
	}
	return kinds
}

// readOf names the per-kind read a line makes ("" for none).
func readOf(c kubectl.CommandLine) string {
	switch c.Path {
	case "describe":
		return "describe"
	case "get":
		switch o := c.Flags["output"]; {
		case len(o) == 0:
			return "get"
		case slices.Contains(o, "wide"):
			return "get -o wide"
		case slices.Contains(o, "yaml"):
			return "get -o yaml"
		}
	}
	return ""
}

func TestConformanceCoverage(t *testing.T) {
	reg := apiserver.NewRegistry()
	filled := map[string]bool{}
	lines := 0
	for _, g := range corpusGlobs {
		files, _ := filepath.Glob(g)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sf, err := session.Parse(f, string(data))
			if err != nil {
				t.Fatal(err)
			}
			for _, step := range sf.Steps {
				if _, ok := excluded[filepath.Base(f)+": "+step.Command]; ok {
					continue
				}
				for _, args := range kubectlInvocations(step.Command) {
					c, err := kubectl.ParseCommandLine(args)
					if err != nil {
						continue
					}
					lines++
					for _, cell := range commandCells {
						if cell.fill(c) {
							filled[cell.name] = true
						}
					}
					if read := readOf(c); read != "" {
						for _, k := range kindsRead(reg, c) {
							filled[read+" "+k] = true
						}
					}
				}
			}
		}
	}
	exceptions := coverageExceptions()
	var missing []string
	for _, cell := range commandCells {
		if !filled[cell.name] {
			if why, ok := exceptions[cell.name]; ok {
				t.Logf("not covered, by exception: %s (%s)", cell.name, why)
				continue
			}
			missing = append(missing, "("+cell.name+")")
		}
	}
	for _, k := range kindCells {
		for _, read := range kindReads {
			if !filled[read+" "+k] {
				missing = append(missing, "("+read+", "+k+")")
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d cells that no transcript replayed through the real kubectl fills:\n%s", len(missing), strings.Join(missing, "\n"))
	}
	t.Logf("%d kubectl lines read; %d command cells, %d kind cells", lines, len(commandCells), len(kindCells)*len(kindReads))
}

// kubectlInvocations finds the kubectl (or k) commands on a shell line:
// each simple command of its pipelines and lists, and of its $(...), after
// variable assignments and the wrappers timeout and watch.
func kubectlInvocations(line string) [][]string {
	var out [][]string
	for _, words := range simpleCommands(line) {
		for len(words) > 0 {
			switch w := words[0]; {
			case regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`).MatchString(w):
				words = words[1:]
				continue
			case w == "timeout" && len(words) > 1:
				words = words[2:]
				continue
			case w == "watch":
				words = words[1:]
				for len(words) > 1 && strings.HasPrefix(words[0], "-") {
					words = words[2:]
				}
				continue
			}
			break
		}
		if len(words) > 0 && (words[0] == "kubectl" || words[0] == "k") {
			out = append(out, words[1:])
		}
	}
	return out
}

// simpleCommands splits a shell line into the words of its simple
// commands: quotes and backslashes as the shell reads them; |, ||, &&, ;,
// &, $( and ) end a command.
func simpleCommands(line string) [][]string {
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				j = len(line) - i - 1
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case ch == '"':
			inWord = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
				}
				word.WriteByte(line[i])
			}
		case ch == '\\' && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		case ch == '$' && i+1 < len(line) && line[i+1] == '(':
			endCmd()
			i++
		case strings.IndexByte("|&;()`", ch) >= 0:
			endCmd()
		case ch == ' ' || ch == '\t':
			endWord()
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	endCmd()
	return cmds
}
