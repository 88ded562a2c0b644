package kubectl

import "testing"

// wrapWords follows go-wordwrap, which kubectl explain wraps descriptions
// with: break at spaces, keep the text's own line breaks, let a word longer
// than the limit overflow rather than cut it.
func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"one two three", 7, "one two\nthree"},
		{"one two three", 8, "one two\nthree"},
		{"one two three", 13, "one two three"},
		{"first\nsecond line here", 11, "first\nsecond line\nhere"},
		{"see https://example.com/a/very/long/path now", 10, "see\nhttps://example.com/a/very/long/path\nnow"},
		{"ends with newline\n", 80, "ends with newline\n"},
		{"trailing spaces   ", 15, "trailing spaces"},
		{"", 10, ""},
	} {
		if got := wrapWords(c.in, c.limit); got != c.want {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}
