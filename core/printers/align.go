package printers

import (
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// alignedCell is one cell of tab-separated text: its bytes in the text,
// its width in characters and the width it is padded to (0: not padded,
// as the text after a line's last tab never is).
type alignedCell struct {
	start, end int32
	width, pad int32
}

// writeAligned writes tab-separated lines laid out as text/tabwriter lays
// them out with kubectl's settings (tabMinWidth, tabPadding, spaces, no
// flags), in one write. A table is laid out for every command, and the
// tabwriter's copies of the text and its cells were half of what
// `kubectl get pods` allocated. Text with tabwriter's escape character or
// a form feed (which this layout does not model) goes to the tabwriter.
func writeAligned(w io.Writer, text string) error {
	if strings.ContainsAny(text, "\xff\f") || len(text) > 1<<30 {
		tw := tabwriter.NewWriter(w, tabMinWidth, tabWidth, tabPadding, tabPadChar, 0)
		if _, err := io.WriteString(tw, text); err != nil {
			return err
		}
		return tw.Flush()
	}
	a := aligner{text: text}
	a.split()
	a.columns(0, 0, len(a.lines)-1)
	_, err := w.Write(a.render())
	return err
}

type aligner struct {
	text  string
	cells []alignedCell
	// lines[i] is the index of line i's first cell; one more entry
	// closes the last line.
	lines []int
}

// split cuts the text into lines at '\n' and cells at '\t' or '\v' (the
// tabwriter ends a cell at either).
func (a *aligner) split() {
	n := strings.Count(a.text, "\n") + 1
	a.lines = make([]int, 0, n+1)
	a.cells = make([]alignedCell, 0, n+strings.Count(a.text, "\t")+strings.Count(a.text, "\v"))
	a.lines = append(a.lines, 0)
	start := 0
	for i := 0; i < len(a.text); i++ {
		switch a.text[i] {
		case '\t', '\v':
			a.addCell(start, i)
			start = i + 1
		case '\n':
			a.addCell(start, i)
			start = i + 1
			a.lines = append(a.lines, len(a.cells))
		}
	}
	// The text after the last line break, if any, is the last line's last
	// cell (the tabwriter keeps no empty one there).
	if start < len(a.text) {
		a.addCell(start, len(a.text))
	}
	a.lines = append(a.lines, len(a.cells))
}

func (a *aligner) addCell(start, end int) {
	a.cells = append(a.cells, alignedCell{start: int32(start), end: int32(end), width: int32(utf8.RuneCountInString(a.text[start:end]))})
}

// cellsOf is line i's cells.
func (a *aligner) cellsOf(i int) []alignedCell { return a.cells[a.lines[i]:a.lines[i+1]] }

// columns sets the padded width of column col in lines first..last-1: each
// run of consecutive lines that have a cell there (one ended by a tab, so
// not a line's last) is a block whose cells are as wide as its widest
// plus tabPadding, and at least tabMinWidth; the next column is then laid
// out within each block.
func (a *aligner) columns(col, first, last int) {
	for i := first; i < last; {
		if col >= len(a.cellsOf(i))-1 {
			i++
			continue
		}
		end := i
		width := int32(tabMinWidth)
		for ; end < last && col < len(a.cellsOf(end))-1; end++ {
			if w := a.cellsOf(end)[col].width + tabPadding; w > width {
				width = w
			}
		}
		for k := i; k < end; k++ {
			a.cellsOf(k)[col].pad = width
		}
		a.columns(col+1, i, end)
		i = end
	}
}

// render writes the lines with each cell padded with spaces to its width.
func (a *aligner) render() []byte {
	size := len(a.text)
	for _, c := range a.cells {
		if c.pad > c.width {
			size += int(c.pad - c.width)
		}
	}
	out := make([]byte, 0, size)
	last := len(a.lines) - 2
	for i := 0; i <= last; i++ {
		for _, c := range a.cellsOf(i) {
			out = append(out, a.text[c.start:c.end]...)
			for n := c.pad - c.width; n > 0; n-- {
				out = append(out, tabPadChar)
			}
		}
		if i < last {
			out = append(out, '\n')
		}
	}
	return out
}
