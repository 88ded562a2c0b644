package kubectl

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/apiserver"
)

// outputFormat is -o without its argument ("jsonpath" for -o jsonpath=...).
func (inv *Invocation) outputFormat() string {
	o := inv.Flags.String("output")
	if i := strings.IndexByte(o, '='); i >= 0 {
		return o[:i]
	}
	return o
}

// checkOutputFormat rejects an -o value the command cannot print.
func (inv *Invocation) checkOutputFormat(allowed ...string) error {
	o := inv.outputFormat()
	if o == "" {
		return nil
	}
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	// kubectl lists them sorted, whatever order the printers have.
	sorted := slices.Sorted(slices.Values(allowed))
	return fmt.Errorf("unable to match a printer suitable for the output format %q, allowed formats are: %s", inv.Flags.String("output"), strings.Join(sorted, ","))
}

// printFormats are what -o accepts on commands that print objects.
var printFormats = []string{"json", "yaml", "name", "go-template", "go-template-file", "template", "templatefile", "jsonpath", "jsonpath-as-json", "jsonpath-file"}

// printObject prints one object as -o asks (json, yaml or name); it
// reports false when the format is none of those.
func printObject(w io.Writer, format string, res *apiserver.Resource, obj api.Object) (bool, error) {
	switch format {
	case "yaml":
		return true, writeYAML(w, obj)
	case "json":
		return true, writeJSON(w, obj)
	case "name":
		_, err := fmt.Fprintf(w, "%s/%s\n", kindName(res), obj.GetObjectMeta().Name)
		return true, err
	}
	return false, nil
}

func writeYAML(w io.Writer, v any) error {
	b, err := codec.EncodeYAML(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func writeJSON(w io.Writer, v any) error {
	u, err := codec.Unstructured(v)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(u)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// listOf wraps objects in the v1 List kubectl prints for several items.
func listOf(objs []api.Object) map[string]any {
	items := make([]any, 0, len(objs))
	for _, o := range objs {
		u, err := codec.Unstructured(o)
		if err == nil {
			items = append(items, u)
		}
	}
	return map[string]any{
		"apiVersion": "v1",
		"items":      items,
		"kind":       "List",
		"metadata":   map[string]any{"resourceVersion": ""},
	}
}

// operationMessage is `deployment.apps/web created (dry run)`.
func (inv *Invocation) operationMessage(res *apiserver.Resource, name, op string) string {
	msg := fmt.Sprintf("%s/%s %s", kindName(res), name, op)
	switch inv.dryRun() {
	case "client":
		msg += " (dry run)"
	case "server":
		msg += " (server dry run)"
	}
	return msg
}

// dryRun is "", "client" or "server".
func (inv *Invocation) dryRun() string {
	switch v := inv.Flags.String("dry-run"); v {
	case "client", "server":
		return v
	case "unchanged", "true":
		return "client"
	}
	return ""
}

// checkDryRun rejects a --dry-run value kubectl does not know.
func (inv *Invocation) checkDryRun() error {
	switch v := inv.Flags.String("dry-run"); v {
	case "", "none", "client", "server", "unchanged", "true", "false":
		return nil
	default:
		return fmt.Errorf("Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".", v)
	}
}

// isTemplateFormat reports the -o formats printTemplate prints.
func isTemplateFormat(f string) bool {
	switch f {
	case "jsonpath", "jsonpath-file", "jsonpath-as-json", "go-template", "go-template-file", "template", "templatefile":
		return true
	}
	return false
}
