package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// flagSpec and commandSpec are rows of zz_commands.go.
type flagSpec struct{ name, short, typ, def string }

type commandSpec struct {
	path    string
	aliases []string
	short   string
	usage   string
	hidden  bool
	flags   []flagSpec
}

// Command is one node of kubectl's command tree, cut as cobra cuts it.
type Command struct {
	Name     string
	Aliases  []string
	Short    string
	Usage    string
	Hidden   bool
	Parent   *Command
	Children []*Command
	flags    []flagSpec
	run      func(*Invocation) error
}

// Path is "kubectl rollout status".
func (c *Command) Path() string {
	if c.Parent == nil {
		return c.Name
	}
	return c.Parent.Path() + " " + c.Name
}

func (c *Command) key() string {
	p := c.Path()
	return strings.TrimPrefix(p, "kubectl ")
}

func (c *Command) child(name string) *Command {
	for _, ch := range c.Children {
		if ch.Name == name {
			return ch
		}
		for _, a := range ch.Aliases {
			if a == name {
				return ch
			}
		}
	}
	return nil
}

// globalFlags are kubectl's options, inherited by every command.
var globalFlags = []flagSpec{
	{"as", "", "string", ""},
	{"as-group", "", "array", ""},
	{"as-uid", "", "string", ""},
	{"cache-dir", "", "string", "/root/.kube/cache"},
	{"certificate-authority", "", "string", ""},
	{"client-certificate", "", "string", ""},
	{"client-key", "", "string", ""},
	{"cluster", "", "string", ""},
	{"context", "", "string", ""},
	{"disable-compression", "", "bool", "false"},
	{"insecure-skip-tls-verify", "", "bool", "false"},
	{"kubeconfig", "", "string", ""},
	{"log-flush-frequency", "", "duration", "5s"},
	{"match-server-version", "", "bool", "false"},
	{"namespace", "n", "string", ""},
	{"password", "", "string", ""},
	{"profile", "", "string", "none"},
	{"profile-output", "", "string", "profile.pprof"},
	{"request-timeout", "", "string", "0"},
	{"server", "s", "string", ""},
	{"tls-server-name", "", "string", ""},
	{"token", "", "string", ""},
	{"user", "", "string", ""},
	{"username", "", "string", ""},
	{"v", "v", "int", "0"},
	{"vmodule", "", "string", ""},
	{"warnings-as-errors", "", "bool", "false"},
}

// recordCommands keep the hidden, deprecated --record flag.
var recordCommands = map[string]bool{
	"create": true, "expose": true, "run": true, "set image": true, "set resources": true,
	"set selector": true, "set serviceaccount": true, "edit": true, "scale": true,
	"autoscale": true, "apply": true, "patch": true, "label": true, "annotate": true,
}

// flagsFor builds the flag set a command parses: its own, then the global ones.
func (c *Command) flagsFor() *FlagSet {
	fs := newFlagSet()
	for _, s := range c.flags {
		f := fs.add(s)
		switch s.name {
		case "dry-run":
			f.NoOptDefVal = "unchanged"
		case "validate":
			f.NoOptDefVal = "strict"
		case "cascade":
			f.NoOptDefVal = "background"
		}
	}
	if recordCommands[c.key()] {
		f := fs.add(flagSpec{"record", "", "bool", "false"})
		f.Hidden = true
		f.Deprecated = "--record will be removed in the future"
	}
	for _, s := range globalFlags {
		fs.add(s)
	}
	return fs
}

// commandTree is the command tree, built on first use and then only
// read: every invocation walks the same one.
var commandTree = sync.OnceValue(buildTree)

// buildTree makes the command tree from commandTable and binds runners.
func buildTree() *Command {
	root := &Command{Name: "kubectl", Short: "kubectl controls the Kubernetes cluster manager", Usage: "kubectl [flags] [options]"}
	for _, s := range commandTable {
		parts := strings.Fields(s.path)
		parent := root
		for _, p := range parts[:len(parts)-1] {
			parent = parent.child(p)
		}
		c := &Command{Name: parts[len(parts)-1], Aliases: s.aliases, Short: s.short, Usage: s.usage,
			Hidden: s.hidden, Parent: parent, flags: s.flags}
		c.run = runners[s.path]
		parent.Children = append(parent.Children, c)
	}
	return root
}

// find walks args to the command they name, as cobra's Find does: flags
// are skipped (with the value of a flag this level does not know as a bool),
// and the first remaining word picks the child.
//
// It also returns the flag set of the command found, not yet parsed.
func (c *Command) find(args []string) (*Command, []string, *FlagSet) {
	cmd := c
	for {
		fs := cmd.flagsFor()
		words := stripFlags(args, fs)
		if len(words) == 0 {
			return cmd, args, fs
		}
		next := cmd.child(words[0])
		if next == nil {
			return cmd, args, fs
		}
		args = argsMinusFirst(args, words[0], fs)
		cmd = next
	}
}

func stripFlags(args []string, fs *FlagSet) []string {
	var words []string
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		switch {
		case s == "--":
			return words
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "=") && !fs.hasNoOptDefVal(s[2:]):
			if len(args) <= 1 {
				return words
			}
			args = args[1:]
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && !strings.Contains(s, "=") && len(s) == 2 && !fs.shortHasNoOptDefVal(s[1:]):
			if len(args) <= 1 {
				return words
			}
			args = args[1:]
		case s != "" && !strings.HasPrefix(s, "-"):
			words = append(words, s)
		}
	}
	return words
}

// argsMinusFirst removes the first occurrence of word that is not a flag's
// value, as cobra's argsMinusFirstX does.
func argsMinusFirst(args []string, word string, fs *FlagSet) []string {
	for pos := 0; pos < len(args); pos++ {
		s := args[pos]
		switch {
		case s == "--":
			return args
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "=") && !fs.hasNoOptDefVal(s[2:]):
			pos++
			continue
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && !strings.Contains(s, "=") && len(s) == 2 && !fs.shortHasNoOptDefVal(s[1:]):
			pos++
			continue
		}
		if s == word {
			out := append([]string{}, args[:pos]...)
			return append(out, args[pos+1:]...)
		}
	}
	return args
}

// suggestionsFor lists commands within Levenshtein distance 2 of typed or
// starting with it, in registration order, as cobra suggests them.
func (c *Command) suggestionsFor(typed string) []string {
	var out []string
	for _, ch := range c.Children {
		if ch.Hidden || (ch.Parent != nil && ch.Parent.Parent == nil && ch.Name == "help") {
			continue
		}
		d := levenshtein(strings.ToLower(typed), strings.ToLower(ch.Name))
		if d <= 2 || strings.HasPrefix(strings.ToLower(ch.Name), strings.ToLower(typed)) {
			out = append(out, ch.Name)
		}
	}
	return out
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// help prints a command's help: its summary, subcommands, flags and usage.
func (c *Command) help() string {
	var b strings.Builder
	b.WriteString(c.Short)
	b.WriteString(".\n")
	var visible []*Command
	for _, ch := range c.Children {
		if !ch.Hidden {
			visible = append(visible, ch)
		}
	}
	if len(visible) > 0 {
		sorted := append([]*Command{}, visible...)
		if c.Parent != nil {
			sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
		}
		width := 0
		for _, ch := range sorted {
			width = max(width, len(ch.Name))
		}
		b.WriteString("\nAvailable Commands:\n")
		for _, ch := range sorted {
			fmt.Fprintf(&b, "  %-*s   %s\n", width, ch.Name, ch.Short)
		}
	}
	if len(c.Aliases) > 0 {
		fmt.Fprintf(&b, "\nAliases:\n%s\n", strings.Join(append([]string{c.Name}, c.Aliases...), ", "))
	}
	if len(c.flags) > 0 {
		b.WriteString("\nOptions:\n")
		for _, f := range c.flags {
			def := f.def
			switch f.typ {
			case "string":
				def = "'" + def + "'"
			case "slice", "array":
				def = "[]"
			}
			if f.short != "" {
				fmt.Fprintf(&b, "    -%s, --%s=%s:\n\n", f.short, f.name, def)
			} else {
				fmt.Fprintf(&b, "    --%s=%s:\n\n", f.name, def)
			}
		}
	}
	fmt.Fprintf(&b, "\nUsage:\n  %s\n\n", c.Usage)
	if len(visible) > 0 {
		fmt.Fprintf(&b, "Use \"%s <command> --help\" for more information about a given command.\n", c.Path())
	}
	b.WriteString("Use \"kubectl options\" for a list of global command-line options (applies to all commands).\n")
	return b.String()
}
