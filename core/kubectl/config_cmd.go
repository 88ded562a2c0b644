package kubectl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"kubeplay/core/kubectl/jsonpath"
)

// toJSONValue is v as decoded JSON, what templates walk.
func toJSONValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

// kubectl config: the terminal's kubeconfig (kubeadm's admin one), read
// and changed in place.

func runConfigCurrentContext(inv *Invocation) error {
	if inv.Env.Config.CurrentContext == "" {
		return fmt.Errorf("current-context is not set")
	}
	fmt.Fprintln(inv.out(), inv.Env.Config.CurrentContext)
	return nil
}

func runConfigGetContexts(inv *Invocation) error {
	c := inv.Env.Config
	var shown []*ConfigContext
	for _, ctx := range c.Contexts {
		if len(inv.Args) == 0 || contains(inv.Args, ctx.Name) {
			shown = append(shown, ctx)
		}
	}
	for _, a := range inv.Args {
		if c.context(a) == nil {
			return fmt.Errorf("context %s not found", a)
		}
	}
	if inv.Flags.String("output") == "name" {
		for _, ctx := range shown {
			fmt.Fprintln(inv.out(), ctx.Name)
		}
		return nil
	}
	tw := tabwriter.NewWriter(inv.out(), 0, 4, 3, ' ', 0)
	if !inv.Flags.Bool("no-headers") {
		fmt.Fprintln(tw, "CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE")
	}
	for _, ctx := range shown {
		mark := ""
		if ctx.Name == c.CurrentContext {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", mark, ctx.Name, ctx.Cluster, ctx.AuthInfo, ctx.Namespace)
	}
	return tw.Flush()
}

func runConfigGetClusters(inv *Invocation) error {
	fmt.Fprintln(inv.out(), "NAME")
	for _, cl := range inv.Env.Config.Clusters {
		fmt.Fprintln(inv.out(), cl.Name)
	}
	return nil
}

func runConfigGetUsers(inv *Invocation) error {
	fmt.Fprintln(inv.out(), "NAME")
	var names []string
	for _, u := range inv.Env.Config.Users {
		names = append(names, u.Name)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintln(inv.out(), n)
	}
	return nil
}

func runConfigUseContext(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	name := inv.Args[0]
	if inv.Env.Config.context(name) == nil {
		return fmt.Errorf("no context exists with the name: %q", name)
	}
	inv.Env.Config.CurrentContext = name
	fmt.Fprintf(inv.out(), "Switched to context %q.\n", name)
	return nil
}

func runConfigSetContext(inv *Invocation) error {
	c := inv.Env.Config
	name := ""
	switch {
	case inv.Flags.Bool("current"):
		if len(inv.Args) > 0 {
			return fmt.Errorf("you cannot specify a context name and --current")
		}
		if c.CurrentContext == "" {
			return fmt.Errorf("no current context is set")
		}
		name = c.CurrentContext
	case len(inv.Args) == 1:
		name = inv.Args[0]
	default:
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	ctx := c.context(name)
	created := ctx == nil
	if created {
		ctx = &ConfigContext{Name: name}
		c.Contexts = append(c.Contexts, ctx)
	}
	if inv.Flags.Changed("cluster") {
		ctx.Cluster = inv.Flags.String("cluster")
	}
	if inv.Flags.Changed("user") {
		ctx.AuthInfo = inv.Flags.String("user")
	}
	if inv.Flags.Changed("namespace") {
		ctx.Namespace = inv.Flags.String("namespace")
	}
	if created {
		fmt.Fprintf(inv.out(), "Context %q created.\n", name)
	} else {
		fmt.Fprintf(inv.out(), "Context %q modified.\n", name)
	}
	return nil
}

func runConfigDeleteContext(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	c := inv.Env.Config
	name := inv.Args[0]
	for i, ctx := range c.Contexts {
		if ctx.Name == name {
			if name == c.CurrentContext {
				fmt.Fprintln(inv.errOut(), "warning: this removed your active context, use \"kubectl config use-context\" to select a different one")
			}
			c.Contexts = append(c.Contexts[:i], c.Contexts[i+1:]...)
			fmt.Fprintf(inv.out(), "deleted context %s from %s\n", name, kubeconfigPath)
			return nil
		}
	}
	return fmt.Errorf("cannot delete context %s, not in /root/.kube/config", name)
}

func runConfigRenameContext(inv *Invocation) error {
	if len(inv.Args) != 2 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	c := inv.Env.Config
	ctx := c.context(inv.Args[0])
	if ctx == nil {
		return fmt.Errorf("cannot rename the context %q, it's not in /root/.kube/config", inv.Args[0])
	}
	if c.context(inv.Args[1]) != nil {
		return fmt.Errorf("cannot rename the context %q, the context %q already exists in /root/.kube/config", inv.Args[0], inv.Args[1])
	}
	if c.CurrentContext == ctx.Name {
		c.CurrentContext = inv.Args[1]
	}
	ctx.Name = inv.Args[1]
	fmt.Fprintf(inv.out(), "Context %q renamed to %q.\n", inv.Args[0], inv.Args[1])
	return nil
}

func runConfigView(inv *Invocation) error {
	c := inv.Env.Config
	minify := inv.Flags.Bool("minify")
	var clusters, contexts, users []any
	for _, ctx := range c.Contexts {
		if minify && ctx.Name != c.CurrentContext {
			continue
		}
		body := map[string]any{"cluster": ctx.Cluster, "user": ctx.AuthInfo}
		if ctx.Namespace != "" {
			body["namespace"] = ctx.Namespace
		}
		contexts = append(contexts, map[string]any{"name": ctx.Name, "context": body})
	}
	cur := c.current()
	for _, cl := range c.Clusters {
		if minify && (cur == nil || cl.Name != cur.Cluster) {
			continue
		}
		body := map[string]any{"server": cl.Server}
		if cl.certificateAuthority {
			body["certificate-authority-data"] = "DATA+OMITTED"
		}
		if cl.InsecureSkipTLSVerify {
			body["insecure-skip-tls-verify"] = true
		}
		clusters = append(clusters, map[string]any{"name": cl.Name, "cluster": body})
	}
	for _, u := range c.Users {
		if minify && (cur == nil || u.Name != cur.AuthInfo) {
			continue
		}
		users = append(users, map[string]any{"name": u.Name, "user": u.view()})
	}
	// A kubeconfig keeps its entries in maps: they are written by name.
	for _, list := range [][]any{clusters, contexts, users} {
		slices.SortStableFunc(list, func(a, b any) int {
			return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
		})
	}
	v := map[string]any{"apiVersion": "v1", "kind": "Config", "clusters": clusters, "contexts": contexts, "users": users,
		"current-context": c.CurrentContext, "preferences": map[string]any{}}
	switch inv.outputFormat() {
	case "json":
		return writeJSON(inv.out(), v)
	case "jsonpath":
		arg := inv.Flags.String("output")
		tmpl := arg[strings.IndexByte(arg, '=')+1:]
		t, err := jsonpath.Parse(tmpl)
		if err != nil {
			return fmt.Errorf("error parsing jsonpath %s, %v", tmpl, err)
		}
		t.AllowMissingKeys = true
		data, err := toJSONValue(v)
		if err != nil {
			return err
		}
		out, err := t.Execute(data)
		if err != nil {
			return jsonPathError(tmpl, err, data)
		}
		fmt.Fprint(inv.out(), out)
		return nil
	}
	return writeYAML(inv.out(), v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
