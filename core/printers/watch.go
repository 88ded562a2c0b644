package printers

import (
	"io"
	"strings"
	"unicode/utf8"
)

// WatchWriter prints the rows of `kubectl get -w` as they come. kubectl's
// tabwriter remembers column widths across flushes: a column widens when a
// wider cell comes, and later rows keep the width.
type WatchWriter struct {
	w      io.Writer
	opts   Options
	widths []int
	header bool
}

// NewWatchWriter returns a writer that prints the header with the first table.
func NewWatchWriter(w io.Writer, opts Options) *WatchWriter {
	return &WatchWriter{w: w, opts: opts, header: !opts.NoHeaders}
}

// Print writes t's rows (and the header, the first time).
func (ww *WatchWriter) Print(t *Table) error {
	if t == nil || len(t.Rows) == 0 {
		return nil
	}
	o := ww.opts
	o.NoHeaders = !ww.header
	ww.header = false
	text := format(t, o)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	// The widths of this block, as a tabwriter computes them, joined with
	// the widths remembered from earlier blocks.
	for _, line := range lines {
		cells := strings.Split(line, "\t")
		for i, c := range cells[:len(cells)-1] {
			w := utf8.RuneCountInString(c) + tabPadding
			if w < tabMinWidth {
				w = tabMinWidth
			}
			if i >= len(ww.widths) {
				ww.widths = append(ww.widths, w)
			} else if w > ww.widths[i] {
				ww.widths[i] = w
			}
		}
	}
	var b strings.Builder
	for _, line := range lines {
		cells := strings.Split(line, "\t")
		for i, c := range cells {
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", ww.widths[i]-utf8.RuneCountInString(c)))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(ww.w, b.String())
	return err
}
