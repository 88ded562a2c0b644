package kubectl

import (
	"fmt"
	"strings"
	"unicode"
)

// kubectl explain's plaintext layout, read off an OpenAPI v3 document as
// kubectl v1.32 reads a real cluster's: the kind found through its paths'
// x-kubernetes-group-version-kind, the field path followed through
// properties, list items, map values and allOf, then DESCRIPTION and FIELDS
// (or the whole tree of field names with --recursive). Walking the document
// itself, not our Go types, keeps what we print and what the real kubectl
// prints against `kubeplay serve` one thing.

type explainRequest struct {
	group, version, resource string
	fieldPath                []string
	recursive                bool
}

func (r explainRequest) gvrString() string {
	return r.group + "/" + r.version + ", Resource=" + r.resource
}

func renderExplain(doc map[string]any, req explainRequest) (string, error) {
	gvk := findGVK(doc, req)
	if gvk == nil {
		return "", fmt.Errorf("error: GVR (%s) not found in OpenAPI schema", req.gvrString())
	}
	var b strings.Builder
	if g, _ := gvk["group"].(string); g != "" {
		b.WriteString("GROUP:      " + g + "\n")
	}
	fmt.Fprintf(&b, "KIND:       %v\nVERSION:    %v\n\n", gvk["kind"], gvk["version"])
	schemas := mapAt(doc, "components", "schemas")
	found := false
	for _, name := range sortedKeys(schemas) {
		s, _ := schemas[name].(map[string]any)
		if !hasGVK(s, gvk) {
			continue
		}
		found = true
		w := explainWalker{doc: doc, recursive: req.recursive}
		out := w.output(s, nil, req.fieldPath)
		if out == "" {
			return b.String(), fmt.Errorf("error: field %q does not exist", req.fieldPath[len(req.fieldPath)-1])
		}
		b.WriteString(out)
		break
	}
	if !found {
		return b.String(), fmt.Errorf("error: GVK map[group:%v kind:%v version:%v] not found in OpenAPI schema", gvk["group"], gvk["kind"], gvk["version"])
	}
	b.WriteString("\n")
	return b.String(), nil
}

// findGVK looks for the resource's list or item path, cluster-scoped then
// namespaced, and takes the kind from its first operation that names one.
func findGVK(doc map[string]any, req explainRequest) map[string]any {
	prefix := "/api"
	if req.group != "" {
		prefix = "/apis/" + req.group
	}
	base := prefix + "/" + req.version
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range []string{
		base + "/" + req.resource, base + "/" + req.resource + "/{name}",
		base + "/namespaces/{namespace}/" + req.resource, base + "/namespaces/{namespace}/" + req.resource + "/{name}",
	} {
		item, _ := paths[p].(map[string]any)
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			op, _ := item[method].(map[string]any)
			if gvk, ok := op["x-kubernetes-group-version-kind"].(map[string]any); ok {
				return gvk
			}
		}
	}
	return nil
}

func hasGVK(s map[string]any, gvk map[string]any) bool {
	list, _ := s["x-kubernetes-group-version-kind"].([]any)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok && m["group"] == gvk["group"] && m["version"] == gvk["version"] && m["kind"] == gvk["kind"] {
			return true
		}
	}
	return false
}

type explainWalker struct {
	doc       map[string]any
	recursive bool
}

func (w explainWalker) resolve(s map[string]any) (ref string, resolved map[string]any) {
	ref, _ = s["$ref"].(string)
	if strings.HasPrefix(ref, "#/components/schemas/") {
		if r, ok := mapAt(w.doc, "components", "schemas")[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any); ok {
			return ref, r
		}
	}
	return ref, s
}

// output follows path from s; at its end it prints the description and the
// fields. It returns "" when the path leads nowhere.
func (w explainWalker) output(s map[string]any, seen map[string]bool, path []string) string {
	ref, r := w.resolve(s)
	if len(path) == 0 {
		desc := w.description(s)
		if desc == "" {
			desc = "<empty>"
		}
		out := "DESCRIPTION:\n" + indentLines(wrapWords(desc, 76), 4) + "\n"
		if fields := w.fieldList(r, 1, nil); fields != "" {
			out += "FIELDS:\n" + fields
		}
		return out
	}
	if ref != "" && seen[ref] {
		return ""
	}
	next := with(seen, ref)
	props, _ := r["properties"].(map[string]any)
	if sub, ok := props[path[0]].(map[string]any); ok {
		head := ""
		if len(path) == 1 {
			head = "FIELD: " + path[0] + " <" + w.typeGuess(sub) + ">\n" + enumLong(sub) + "\n\n"
		}
		return head + w.output(sub, nil, path[1:])
	}
	if items, ok := r["items"].(map[string]any); ok {
		return w.output(items, next, path)
	}
	if ap, ok := r["additionalProperties"].(map[string]any); ok {
		return w.output(ap, next, path)
	}
	all, _ := r["allOf"].([]any)
	for _, a := range all {
		if sub, ok := a.(map[string]any); ok {
			if out := w.output(sub, next, path); out != "" {
				return out
			}
		}
	}
	return ""
}

// description joins the descriptions of s and of what it wraps.
func (w explainWalker) description(s map[string]any) string {
	_, r := w.resolve(s)
	out := ""
	if d, _ := r["description"].(string); d != "" {
		out += d + "\n"
	}
	all, _ := r["allOf"].([]any)
	for _, a := range all {
		if sub, ok := a.(map[string]any); ok {
			out += w.description(sub)
		}
	}
	if items, ok := r["items"].(map[string]any); ok {
		out += w.description(items)
	}
	if ap, ok := r["additionalProperties"].(map[string]any); ok {
		out += w.description(ap)
	}
	return out
}

// fieldList prints a schema's fields in name order at an indentation level;
// with --recursive it prints names and types only, nested under their
// parents, and stops where a definition would contain itself.
func (w explainWalker) fieldList(s map[string]any, level int, seen map[string]bool) string {
	ref, r := w.resolve(s)
	if ref != "" && seen[ref] {
		return ""
	}
	next := with(seen, ref)
	var b strings.Builder
	props, _ := r["properties"].(map[string]any)
	for _, name := range sortedKeys(props) {
		sub, _ := props[name].(map[string]any)
		b.WriteString(w.fieldDetail(r, name, sub, level))
		if w.recursive {
			b.WriteString(w.fieldList(sub, level+1, next))
		}
	}
	all, _ := r["allOf"].([]any)
	for _, a := range all {
		if sub, ok := a.(map[string]any); ok {
			b.WriteString(w.fieldList(sub, level, next))
		}
	}
	if items, ok := r["items"].(map[string]any); ok {
		b.WriteString(w.fieldList(items, level, next))
	}
	if ap, ok := r["additionalProperties"].(map[string]any); ok {
		b.WriteString(w.fieldList(ap, level, next))
	}
	return b.String()
}

func (w explainWalker) fieldDetail(parent map[string]any, name string, f map[string]any, level int) string {
	ind := level * 2
	line := strings.Repeat(" ", ind) + name + "\t<" + w.typeGuess(f) + ">"
	if req, _ := parent["required"].([]any); containsAny(req, name) {
		line += " -required-"
	}
	line += enumShort(f, ind) + "\n"
	if w.recursive {
		return line
	}
	desc, _ := f["description"].(string)
	if desc == "" {
		desc = "<no description>"
	}
	return line + indentLines(wrapWords(desc, 78-ind), ind+2) + "\n\n"
}

// typeGuess is the type shown in angle brackets: a list or map of its
// element, a referenced definition's short name (or its primitive type),
// else Object or the primitive type.
func (w explainWalker) typeGuess(s map[string]any) string {
	if items, ok := s["items"].(map[string]any); ok {
		return "[]" + w.typeGuess(items)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return "map[string]" + w.typeGuess(ap)
	}
	if all, _ := s["allOf"].([]any); len(all) == 1 && s["properties"] == nil {
		if sub, ok := all[0].(map[string]any); ok {
			return w.typeGuess(sub)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		_, r := w.resolve(s)
		if t, _ := r["type"].(string); t != "" && t != "object" && r["$ref"] == nil {
			return t
		}
		name := ref[strings.LastIndexByte(ref, '/')+1:]
		if short := name[strings.LastIndexByte(name, '.')+1:]; short != "" {
			return short
		}
		return "Object"
	}
	t, _ := s["type"].(string)
	if t == "" || t == "object" {
		return "Object"
	}
	return t
}

func enumValues(s map[string]any) []string {
	list, _ := s["enum"].([]any)
	var out []string
	for _, e := range list {
		if str, ok := e.(string); ok && str == "" {
			out = append(out, `""`)
		} else {
			out = append(out, fmt.Sprint(e))
		}
	}
	return out
}

// enumShort is the "enum: A, B, C, D, ...." line under a field in a list.
func enumShort(s map[string]any, ind int) string {
	vals := enumValues(s)
	if len(vals) == 0 {
		return ""
	}
	if len(vals) > 4 {
		vals = append(vals[:4:4], "....")
	}
	return "\n" + strings.Repeat(" ", ind) + "enum: " + strings.Join(vals, ", ")
}

// enumLong lists every value under FIELD, one a line.
func enumLong(s map[string]any) string {
	vals := enumValues(s)
	if len(vals) == 0 {
		return ""
	}
	return "ENUM:\n    " + strings.Join(vals, "\n    ")
}

// wrapWords breaks text at spaces so lines stay within limit where words
// allow (go-wordwrap's rule, which kubectl uses); a word longer than the
// limit overflows instead of being cut, and the text's own line breaks stay.
func wrapWords(s string, limit int) string {
	var out, word, space strings.Builder
	lineLen := 0
	for _, r := range s {
		if r == '\n' {
			if word.Len() > 0 || lineLen+space.Len() <= limit {
				out.WriteString(space.String())
			}
			out.WriteString(word.String())
			space.Reset()
			word.Reset()
			out.WriteByte('\n')
			lineLen = 0
			continue
		}
		if unicode.IsSpace(r) && r != '\u00a0' {
			if space.Len() == 0 || word.Len() > 0 {
				lineLen += space.Len() + word.Len()
				out.WriteString(space.String())
				out.WriteString(word.String())
				space.Reset()
				word.Reset()
			}
			space.WriteRune(r)
			continue
		}
		word.WriteRune(r)
		if lineLen+space.Len()+word.Len() > limit && word.Len() < limit {
			out.WriteByte('\n')
			lineLen = 0
			space.Reset()
		}
	}
	if word.Len() == 0 {
		if lineLen+space.Len() <= limit {
			out.WriteString(space.String())
		}
	} else {
		out.WriteString(space.String())
		out.WriteString(word.String())
	}
	return out.String()
}

func indentLines(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

func with(seen map[string]bool, ref string) map[string]bool {
	out := make(map[string]bool, len(seen)+1)
	for k := range seen {
		out[k] = true
	}
	out[ref] = true
	return out
}

func mapAt(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m, _ = m[k].(map[string]any)
	}
	return m
}

func containsAny(list []any, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
