package kubectl

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/apiserver"
)

// generic is upstream's genericDescriber, used for kinds without their own
// describer (Event, Lease, ControllerRevision, …): name, namespace, labels
// and annotations, then every other field of the object as the API serves
// it, keys sorted and turned into words ("holderIdentity" → "Holder
// Identity"), then its events.
func (d *describer) generic(res *apiserver.Resource, obj api.Object) (string, error) {
	content, err := codec.Unstructured(obj)
	if err != nil {
		return "", err
	}
	content["apiVersion"] = res.APIVersion()
	content["kind"] = res.Kind
	m := obj.GetObjectMeta()
	events := d.objectEvents(res.Kind, m)

	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", m.Name)
	w.write(0, "Namespace:\t%s\n", m.Namespace)
	w.writeLabels("", "Labels", m.Labels)
	w.writeAnnotations("Annotations", m.Annotations)
	writeUnstructured(w, 0, content, "", map[string]bool{
		".metadata.managedFields": true, ".metadata.name": true, ".metadata.namespace": true,
		".metadata.labels": true, ".metadata.annotations": true,
	})
	d.writeEvents(w, events)
	return w.String(), nil
}

// writeUnstructured prints a map's fields sorted by key: maps and lists as
// headings with their content indented, anything else as "Label:\tvalue".
// skip holds dotted paths (".metadata.name") left out.
func writeUnstructured(w *describeWriter, level int, content map[string]any, prefix string, skip map[string]bool) {
	for _, field := range slices.Sorted(maps.Keys(content)) {
		path := prefix + "." + field
		if skip[path] {
			continue
		}
		switch v := content[field].(type) {
		case map[string]any:
			w.write(level, "%s:\n", smartLabel(field))
			writeUnstructured(w, level+1, v, path, skip)
		case []any:
			w.write(level, "%s:\n", smartLabel(field))
			for _, item := range v {
				if m, ok := item.(map[string]any); ok {
					writeUnstructured(w, level+1, m, path, skip)
				} else {
					w.write(level+1, "%v\n", item)
				}
			}
		default:
			w.write(level, "%s:\t%v\n", smartLabel(field), v)
		}
	}
}

// smartLabel turns a camelCase field name into words, keeping common
// acronyms upper case; a name with characters other than letters and '-'
// (an annotation key, say) is left as it is.
func smartLabel(field string) string {
	if strings.IndexFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) != -1 {
		return field
	}
	var words []string
	for _, part := range splitCamelCase(field) {
		if part == "_" {
			continue
		}
		switch up := strings.ToUpper(part); up {
		case "API", "URL", "UID", "OSB", "GUID":
			part = up
		default:
			r, n := utf8.DecodeRuneInString(part)
			part = string(unicode.ToTitle(r)) + part[n:]
		}
		words = append(words, part)
	}
	return strings.Join(words, " ")
}

// splitCamelCase splits where the character class (lower, upper, digit,
// other) changes, moving an upper-case run's last letter to a following
// lower-case run: "podIPs" → pod, I, Ps; "PDFLoader" → PDF, Loader.
func splitCamelCase(s string) []string {
	if !utf8.ValidString(s) {
		return []string{s}
	}
	class := func(r rune) int {
		switch {
		case unicode.IsLower(r):
			return 1
		case unicode.IsUpper(r):
			return 2
		case unicode.IsDigit(r):
			return 3
		}
		return 4
	}
	var runs [][]rune
	last := 0
	for _, r := range s {
		c := class(r)
		if c == last && len(runs) > 0 {
			runs[len(runs)-1] = append(runs[len(runs)-1], r)
		} else {
			runs = append(runs, []rune{r})
		}
		last = c
	}
	for i := 0; i < len(runs)-1; i++ {
		if len(runs[i]) > 0 && len(runs[i+1]) > 0 && unicode.IsUpper(runs[i][0]) && unicode.IsLower(runs[i+1][0]) {
			runs[i+1] = append([]rune{runs[i][len(runs[i])-1]}, runs[i+1]...)
			runs[i] = runs[i][:len(runs[i])-1]
		}
	}
	var out []string
	for _, r := range runs {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}
