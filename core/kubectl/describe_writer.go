package kubectl

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"kubeplay/core/api"
)

// describeWriter is kubectl describe's prefix writer: every describer writes
// "Label:\tvalue" lines at an indentation level (two spaces a level) and a
// tabwriter with upstream's settings (padding 2, spaces) aligns each run of
// lines that share a column. Writing the same cells in the same order as
// upstream is what makes the alignment byte-exact.
type describeWriter struct {
	buf bytes.Buffer
	tw  *tabwriter.Writer
	// nest shifts every write, line() included, by that many levels: the
	// nested writer upstream uses for a PVC template inside a volume.
	nest int
}

func newDescribeWriter() *describeWriter {
	w := &describeWriter{}
	w.tw = tabwriter.NewWriter(&w.buf, 0, 8, 2, ' ', 0)
	return w
}

// terminalEscaper keeps object text from driving the user's terminal, as
// cli-runtime's WriteEscaped does.
var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", `\r`)

// write prints format at an indentation level.
func (w *describeWriter) write(level int, format string, args ...any) {
	s := strings.Repeat("  ", level+w.nest) + format
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	w.tw.Write([]byte(terminalEscaper.Replace(s)))
}

// line ends the current line with its words, unindented (WriteLine).
func (w *describeWriter) line(a ...any) {
	w.tw.Write([]byte(terminalEscaper.Replace(strings.Repeat("  ", w.nest) + fmt.Sprintln(a...))))
}

// String flushes the tabwriter and returns the description.
func (w *describeWriter) String() string {
	w.tw.Flush()
	return w.buf.String()
}

// writeLabels prints a map as "Title:\tk=v" with one key a line, sorted;
// "<none>" when empty. indent goes before the title and the later lines.
func (w *describeWriter) writeLabels(indent, title string, m map[string]string) {
	w.write(0, "%s%s:\t", indent, title)
	if len(m) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i != 0 {
			w.write(0, "%s\t", indent)
		}
		w.write(0, "%s=%s\n", k, m[k])
	}
}

// maxAnnotationLen is where upstream folds an annotation onto its own lines.
const maxAnnotationLen = 140

// writeAnnotations prints annotations as "key: value", one a line; a long
// or multi-line value goes below its key, each line cut at 138 characters.
// kubectl's own last-applied-configuration is never shown.
func (w *describeWriter) writeAnnotations(title string, m map[string]string) {
	w.write(0, "%s:\t", title)
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != describeHiddenAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range keys {
		if i != 0 {
			w.write(0, "\t")
		}
		v := strings.TrimSuffix(m[k], "\n")
		if len(v)+len(k)+2 > maxAnnotationLen || strings.Contains(v, "\n") {
			w.write(0, "%s:\n", k)
			for _, s := range strings.Split(v, "\n") {
				w.write(0, "\t  %s\n", shorten(s, maxAnnotationLen-2))
			}
			continue
		}
		w.write(0, "%s: %s\n", k, v)
	}
}

// describeHiddenAnnotation is kubectl apply's own record, never shown.
const describeHiddenAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// writeTaints prints taints sorted by effect then key.
func (w *describeWriter) writeTaints(title string, taints []api.Taint) {
	w.write(0, "%s:\t", title)
	if len(taints) == 0 {
		w.line("<none>")
		return
	}
	ts := append([]api.Taint(nil), taints...)
	sort.Slice(ts, func(i, j int) bool {
		return ts[i].Effect+","+ts[i].Key < ts[j].Effect+","+ts[j].Key
	})
	for i := range ts {
		if i != 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s\n", ts[i].ToString())
	}
}

// writeTolerations prints tolerations sorted by key in upstream's
// shorthand: "key=value:Effect op=Exists for 300s".
func (w *describeWriter) writeTolerations(title string, tols []api.Toleration) {
	w.write(0, "%s:\t", title)
	if len(tols) == 0 {
		w.line("<none>")
		return
	}
	ts := append([]api.Toleration(nil), tols...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Key < ts[j].Key })
	for i, t := range ts {
		if i != 0 {
			w.write(0, "\t")
		}
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + t.Effect
		}
		// An Exists toleration with neither key nor effect tolerates
		// everything and reads as a bare "op=Exists".
		if t.Operator == api.TolerationOpExists && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				s += " "
			}
			s += "op=Exists"
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
		}
		w.write(0, "%s\n", s)
	}
}

// rfc1123z is how describe prints timestamps: "Sun, 22 Nov 2026 11:31:35 +0000".
func rfc1123z(t api.Time) string {
	return t.Time.Format("Mon, 02 Jan 2006 15:04:05 -0700")
}

// printBool is describe's "True"/"False".
func printBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// printBoolPtr is printBool with "<unset>" for nil.
func printBoolPtr(b *bool) string {
	if b == nil {
		return "<unset>"
	}
	return printBool(*b)
}

func stringOrNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// formatLabelMap is labels.FormatLabels: "k=v,k2=v2" sorted, "<none>" when empty.
func formatLabelMap(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

// controllerOf is "Kind/name" of the object's controller, "" when none.
func controllerOf(m *api.ObjectMeta) string {
	if ref := m.GetControllerOf(); ref != nil {
		return ref.Kind + "/" + ref.Name
	}
	return ""
}
