package codec

import (
	"errors"
	"reflect"
	"testing"
)

// How kubectl v1.32 cuts `-f` input (checked with kubectl.1.32 on files).
func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		docs  []string
		lines []int
		err   string
	}{
		{"one document, final newline added", "a: 1", []string{"a: 1\n"}, []int{1}, ""},
		{"separator between documents is dropped", "a: 1\n---\nb: 2\n", []string{"a: 1\n", "b: 2\n"}, []int{1, 3}, ""},
		{"a leading separator is kept", "---\na: 1\n", []string{"---\na: 1\n"}, []int{1}, ""},
		{"a separator after a separator opens the next chunk", "a: 1\n---\n---\nb: 2\n", []string{"a: 1\n", "---\nb: 2\n"}, []int{1, 3}, ""},
		{"comment after the dashes", "a: 1\n--- # next\nb: 2\n", []string{"a: 1\n", "b: 2\n"}, []int{1, 3}, ""},
		{"empty, comment-only and null documents are skipped", "---\n# only\n---\nnull\n---\n\n---\na: 1\n", []string{"a: 1\n"}, []int{8}, ""},
		{"CR LF becomes LF", "a: 1\r\nb: 2\r\n", []string{"a: 1\nb: 2\n"}, []int{1}, ""},
		{"text after the dashes", "a: 1\n---x\nb: 2\n", []string{"a: 1\n"}, []int{1}, "invalid Yaml document separator: x"},
		{"four dashes", "a: 1\n----\n", []string{"a: 1\n"}, []int{1}, "invalid Yaml document separator: -"},
		{"broken documents are kept for the decoder", "a: [\n---\nb: 1\n", []string{"a: [\n", "b: 1\n"}, []int{1, 3}, ""},
		{"JSON stream", " {\"a\":1}\n{\"b\":2} null [3]", []string{`{"a":1}`, `{"b":2}`, `[3]`}, []int{1, 2, 2}, ""},
		{"JSON stream cut short", `{"a":1}{"b"`, []string{`{"a":1}`}, []int{1}, "unexpected EOF"},
		{"JSON syntax error", `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}} {"kind":"Pod",]`,
			[]string{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}`}, []int{1},
			"json: offset 72: invalid character ']' looking for beginning of object key string"},
	}
	for _, tt := range tests {
		docs, err := Split([]byte(tt.in))
		var got []string
		var lines []int
		for _, d := range docs {
			got = append(got, string(d.Data))
			lines = append(lines, d.Line)
		}
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if !reflect.DeepEqual(got, tt.docs) || !reflect.DeepEqual(lines, tt.lines) || errText != tt.err {
			t.Errorf("%s: Split(%q) = %q lines %v, %q; want %q lines %v, %q", tt.name, tt.in, got, lines, errText, tt.docs, tt.lines, tt.err)
		}
	}
}

func TestSplitDocuments(t *testing.T) {
	got := SplitDocuments([]byte("a: 1\n---\n# nothing\n---\nb: 2"))
	want := [][]byte{[]byte("a: 1\n"), []byte("b: 2\n")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// kubectl prints a YAML error's line counted from the document; the editor
// needs it counted from the file.
func TestDecodeDocumentLines(t *testing.T) {
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: z\n   labels: {}\n"
	docs, err := Split([]byte(in))
	if err != nil || len(docs) != 2 {
		t.Fatalf("Split: %v %v", docs, err)
	}
	_, err = DecodeDocument(docs[1], DecodeOptions{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v", err)
	}
	if se.Error() != "yaml: line 5: mapping values are not allowed in this context" || se.Line != 9 || se.Column != 10 {
		t.Errorf("got %q at %d:%d", se.Error(), se.Line, se.Column)
	}
}
