package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/kubectl/gotemplate"
	"kubeplay/core/kubectl/jsonpath"
)

// printTemplate prints objects through -o jsonpath=…, custom-columns=… or
// go-template=…, over their JSON form: one object alone, several as a List.
func (inv *Invocation) printTemplate(format string, single bool, all []api.Object) error {
	arg := inv.Flags.String("output")
	if i := strings.IndexByte(arg, '='); i >= 0 {
		arg = arg[i+1:]
	} else {
		arg = inv.Flags.String("template")
	}
	if strings.HasSuffix(format, "-file") || format == "templatefile" {
		b, err := inv.Env.FS.ReadFile(absPath(inv.Env.Cwd, arg))
		if err != nil {
			return fmt.Errorf("error reading --template %s, %v", arg, err)
		}
		arg = string(b)
	}
	var data any
	if single && len(all) == 1 {
		u, err := codec.Unstructured(all[0])
		if err != nil {
			return err
		}
		data = u
	} else {
		data = listOf(all)
	}
	allowMissing := true
	if f := inv.Flags.Lookup("allow-missing-template-keys"); f != nil {
		allowMissing = inv.Flags.Bool("allow-missing-template-keys")
	}
	switch format {
	case "jsonpath", "jsonpath-file", "jsonpath-as-json":
		if arg == "" {
			return fmt.Errorf("template format specified but no template given")
		}
		t, err := jsonpath.Parse(arg)
		if err != nil {
			return fmt.Errorf("error parsing jsonpath %s, %v", arg, err)
		}
		t.AllowMissingKeys = allowMissing
		out, err := t.Execute(data)
		if err != nil {
			return jsonPathError(arg, err, data)
		}
		io.WriteString(inv.out(), out)
		return nil
	case "custom-columns", "custom-columns-file":
		return inv.printCustomColumns(arg, single, all)
	default: // go-template, template, templatefile, go-template-file
		return inv.printGoTemplate(arg, data, allowMissing)
	}
}

// printGoTemplate runs a go-template as kubectl's printer does: on an
// execution error it prints what it was given after the partial output.
func (inv *Invocation) printGoTemplate(text string, data any, allowMissing bool) error {
	t, err := gotemplate.Parse("output", text)
	if err != nil {
		return fmt.Errorf("error parsing template %s, %v", text, err)
	}
	t.MissingKeyError = !allowMissing
	out := inv.out()
	if err := safeExecute(t, out, data); err != nil {
		raw, _ := json.Marshal(data)
		fmt.Fprintf(out, "Error executing template: %v. Printing more information for debugging the template:\n", err)
		fmt.Fprintf(out, "\ttemplate was:\n\t\t%v\n", text)
		fmt.Fprintf(out, "\traw data was:\n\t\t%v\n", string(raw))
		fmt.Fprintf(out, "\tobject given to template engine was:\n\t\t%+v\n\n", data)
		return fmt.Errorf("error executing template %q: %v", text, err)
	}
	return nil
}

// safeExecute turns a panic of the executor into an error, as kubectl does.
func safeExecute(t *gotemplate.Template, w io.Writer, data any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("caught panic: %+v", r)
		}
	}()
	return t.Execute(w, data)
}

// printCustomColumns is -o custom-columns=HEADER:.path,…: one row per
// object, several values of a path joined with commas, <none> for none.
func (inv *Invocation) printCustomColumns(spec string, single bool, all []api.Object) error {
	if strings.TrimSpace(spec) == "" {
		return fmt.Errorf("custom-columns format specified but no custom columns given")
	}
	var headers []string
	var tmpls []*jsonpath.Template
	for _, col := range strings.Split(spec, ",") {
		h, p, ok := strings.Cut(col, ":")
		if !ok {
			return fmt.Errorf("unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", col)
		}
		expr, err := relaxedJSONPath(p)
		if err != nil {
			return err
		}
		t, err := jsonpath.Parse(expr)
		if err != nil {
			return errUnexpectedPath
		}
		t.AllowMissingKeys = true
		headers = append(headers, h)
		tmpls = append(tmpls, t)
	}
	tw := tabwriter.NewWriter(inv.out(), 6, 4, 3, ' ', 0)
	if !inv.Flags.Bool("no-headers") {
		fmt.Fprintln(tw, strings.Join(headers, "\t"))
	}
	for _, o := range all {
		u, err := codec.Unstructured(o)
		if err != nil {
			return err
		}
		cells := make([]string, len(tmpls))
		for i, t := range tmpls {
			vals, err := t.Values(u)
			if err != nil {
				// kubectl stops at the first failing cell, its header printed.
				tw.Flush()
				return err
			}
			if len(vals) == 0 {
				cells[i] = "<none>"
				continue
			}
			texts := make([]string, len(vals))
			for j, v := range vals {
				texts[j] = columnText(v)
			}
			cells[i] = strings.Join(texts, ",")
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// columnText is a custom-columns cell as kubectl's printer writes it,
// with Go's %v: maps as map[k:v ...] in key order, lists as [a b], and
// scalars inside them bare.
func columnText(v any) string {
	switch x := v.(type) {
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range sortedKeys(x) {
			parts = append(parts, k+":"+columnText(x[k]))
		}
		return "map[" + strings.Join(parts, " ") + "]"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = columnText(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case nil:
		return "<nil>"
	}
	return jsonpath.Text(v)
}

var errUnexpectedPath = errors.New("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")

// relaxedJSONPath accepts "name.x", ".name.x", "{name.x}" and "{.name.x}"
// and gives "{.name.x}", as kubectl's RelaxedJSONPathExpression does
// (anything else with a brace is refused; spaces are kept).
func relaxedJSONPath(p string) (string, error) {
	if p == "" {
		return p, nil
	}
	inner := p
	if len(p) >= 2 && p[0] == '{' && p[len(p)-1] == '}' {
		inner = p[1 : len(p)-1]
	}
	if field := strings.TrimPrefix(inner, "."); field != "" {
		inner = field
	}
	if inner == "" || strings.ContainsAny(inner, "{}") {
		return "", errUnexpectedPath
	}
	return "{." + inner + "}", nil
}

func absPath(cwd, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return strings.TrimSuffix(cwd, "/") + "/" + p
}

// jsonPathError is kubectl's report of a JSONPath template that failed on
// an object: the template and the object, as Go prints it with %#v.
func jsonPathError(tmpl string, err error, data any) error {
	return fmt.Errorf("error executing jsonpath %q: Error executing template: %v. Printing more information for debugging the template:\n\ttemplate was:\n\t\t%s\n\tobject given to jsonpath engine was:\n\t\t%#v\n\n\n", tmpl, err, tmpl, data)
}
