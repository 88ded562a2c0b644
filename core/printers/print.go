package printers

import (
	"io"
	"strings"
)

// Options are kubectl get's printing flags.
type Options struct {
	Wide          bool     // -o wide
	NoHeaders     bool     // --no-headers
	WithNamespace bool     // -A / --all-namespaces: NAMESPACE column first
	WithKind      string   // "pod", "deployment.apps": names print as kind/name (several types in one get)
	ShowLabels    bool     // --show-labels: LABELS column last
	LabelColumns  []string // -L key1,key2: one upper-cased column each
}

// cli-runtime's GetNewTabWriter settings. Its tabwriter fork adds only
// RememberWidths, which matters across flushes; kubectl flushes a table
// once, so the standard tabwriter lays it out the same.
const (
	tabMinWidth = 6
	tabWidth    = 4
	tabPadding  = 3
	tabPadChar  = ' '
)

// cellBreakChars end a cell's text: tabwriter would start a new line.
const cellBreakChars = "\f\n\r"

// terminalEscaper keeps cell text from driving the terminal (cli-runtime's
// WriteEscaped).
var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", "\\r")

// Print writes t as kubectl does: headers upper-cased, Priority 1 columns
// only when wide, NAMESPACE first with WithNamespace, -L columns and LABELS
// last, names as kind/name with WithKind, columns aligned by a tabwriter.
// A table without rows prints nothing (kubectl then says "No resources
// found", which is the caller's to print).
func Print(w io.Writer, t *Table, opts Options) error {
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	return writeAligned(w, format(t, opts))
}

// format lays t out as tab-separated lines, header first unless NoHeaders.
func format(t *Table, opts Options) string {
	labelKeys := splitLabelColumns(opts.LabelColumns)
	nameCol := -1
	if opts.WithKind != "" {
		for i, c := range t.Columns {
			if c.Name == "Name" {
				nameCol = i
				break
			}
		}
	}
	var b strings.Builder
	if !opts.NoHeaders {
		var head []string
		if opts.WithNamespace {
			head = append(head, "NAMESPACE")
		}
		for _, c := range t.Columns {
			if opts.Wide || c.Priority == 0 {
				head = append(head, strings.ToUpper(c.Name))
			}
		}
		for _, k := range labelKeys {
			head = append(head, labelHeader(k))
		}
		if opts.ShowLabels {
			head = append(head, "LABELS")
		}
		for i, h := range head {
			head[i] = cellText(h) // -L keys are the user's text
		}
		b.WriteString(strings.Join(head, "\t"))
		b.WriteByte('\n')
	}
	// About a terminal line a row: the builder grows once or twice, not
	// a dozen times.
	b.Grow(len(t.Rows) * 128)
	var cells []string
	for _, row := range t.Rows {
		cells = cells[:0]
		var labels map[string]string
		if row.Object != nil {
			m := row.Object.GetObjectMeta()
			labels = m.Labels
			if opts.WithNamespace {
				cells = append(cells, m.Namespace)
			}
		} else if opts.WithNamespace {
			cells = append(cells, "")
		}
		for i, c := range t.Columns {
			if !opts.Wide && c.Priority != 0 {
				continue
			}
			cell := ""
			if i < len(row.Cells) {
				cell = row.Cells[i]
			}
			if i == nameCol {
				cell = strings.ToLower(opts.WithKind) + "/" + cell
			}
			cells = append(cells, cell)
		}
		for _, k := range labelKeys {
			cells = append(cells, labels[k])
		}
		if opts.ShowLabels {
			// A row without an object has no labels to show, not "<none>".
			show := ""
			if row.Object != nil {
				show = formatLabels(labels)
			}
			cells = append(cells, show)
		}
		for i, c := range cells {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(cellText(c))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// cellText is what a cell shows: cut at the first line break (marked
// "..."), terminal escapes made visible.
func cellText(s string) string {
	if i := strings.IndexAny(s, cellBreakChars); i >= 0 {
		return terminalEscaper.Replace(s[:i]) + "..."
	}
	return terminalEscaper.Replace(s)
}

// labelHeader is the -L column title: the key's last path segment,
// upper-cased ("statefulset.kubernetes.io/pod-name" → "POD-NAME").
func labelHeader(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		key = key[i+1:]
	}
	return strings.ToUpper(key)
}

// splitLabelColumns accepts both repeated -L flags and "a,b" in one flag.
func splitLabelColumns(in []string) []string {
	var out []string
	for _, s := range in {
		for _, k := range strings.Split(s, ",") {
			if k = strings.TrimSpace(k); k != "" {
				out = append(out, k)
			}
		}
	}
	return out
}
