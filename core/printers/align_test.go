package printers

import (
	"bytes"
	"testing"
	"text/tabwriter"
)

// viaTabwriter is the layout writeAligned must reproduce.
func viaTabwriter(text string) string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, tabMinWidth, tabWidth, tabPadding, tabPadChar, 0)
	tw.Write([]byte(text))
	tw.Flush()
	return b.String()
}

func TestWriteAlignedMatchesTabwriter(t *testing.T) {
	for _, text := range []string{
		"",
		"\n",
		"NAME\tREADY\tSTATUS\nweb-1\t1/1\tRunning\n",
		"NAME\tAGE\nx\t5s\nlong-name-here\t10m\n",
		"a\n",                             // one column: nothing to align
		"a\tb\nc\n d\te\tf\n",             // a line without a tab ends the block
		"a\tb\tc\nlonger\tx\n\ty\tz\tw\n", // ragged lines: blocks per column
		"héllo\twörld\nx\ty\n",            // widths in characters, not bytes
		"a\vb\nccccccc\vd\n",              // a vertical tab ends a cell too
		"\t\t\n\t\t\n",                    // empty cells still pad
		"trailing\ttext",                  // no final line break
		"x\ty\nmid\tline\ttab\tin\ta\tcell\n",
		"bad\x80utf8\tok\nz\tz\n",
		"esc\xffaped\xff\tb\nc\td\n", // the escape character: the tabwriter's own path
		"form\tfeed\f\tx\ny\tz\n",
	} {
		var b bytes.Buffer
		if err := writeAligned(&b, text); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), viaTabwriter(text); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", text, got, want)
		}
	}
}

func FuzzWriteAligned(f *testing.F) {
	for _, s := range []string{"NAME\tREADY\nweb\t1/1\n", "a\tb\tc\n\tx\ny\n", "é\tx\v\ty\n\n\tz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var b bytes.Buffer
		if err := writeAligned(&b, text); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), viaTabwriter(text); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", text, got, want)
		}
	})
}
