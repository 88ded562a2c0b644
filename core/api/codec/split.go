package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode"
)

// Document is one document of a manifest stream, cut as kubectl cuts
// `kubectl apply -f` input.
type Document struct {
	// Data is the document's text. For YAML it is what kubectl hands to the
	// YAML reader: lines ending in \n (CR LF turned into LF), the leading
	// `---` line kept only when the document opens the chunk after another
	// separator or the file. YAML error line numbers count from here.
	Data []byte
	// Line is the 1-based line of the input where Data starts.
	Line int
	// JSON is set when the stream is JSON (its first character is '{'):
	// Data is then one JSON value, to be given to Decode, not DecodeYAML.
	JSON bool
}

// SeparatorError is a `---` line followed by something other than a comment.
type SeparatorError struct {
	Line int    // 1-based line of the separator in the input
	Text string // what follows the dashes
}

func (e *SeparatorError) Error() string { return "invalid Yaml document separator: " + e.Text }

// JSONSyntaxError is a broken JSON stream, printed as kubectl prints it.
type JSONSyntaxError struct {
	Offset       int64 // bytes read when the error was found
	Line, Column int   // 1-based position of Offset in the input
	Err          error
}

func (e *JSONSyntaxError) Error() string {
	var se *json.SyntaxError
	if errors.As(e.Err, &se) {
		return fmt.Sprintf("json: offset %d: %s", e.Offset, e.Err.Error())
	}
	return e.Err.Error()
}

func (e *JSONSyntaxError) Unwrap() error { return e.Err }

// SplitDocuments cuts a stream into its non-empty documents (see Split).
func SplitDocuments(data []byte) [][]byte {
	docs, _ := Split(data)
	out := make([][]byte, len(docs))
	for i, d := range docs {
		out[i] = d.Data
	}
	return out
}

// Split cuts a stream into documents the way kubectl's reader does
// (apimachinery's YAMLOrJSONDecoder): a stream whose first non-space
// character, within its first 4096 bytes, is '{' is a sequence of JSON
// values; anything else is YAML cut at lines starting with `---`. Documents
// that hold nothing (empty, comments only, `null`) are left out, as kubectl
// skips them. On an error (*SeparatorError, *JSONSyntaxError) Split returns
// the documents before it and the error, which kubectl prints after
// "error parsing FILE: ".
func Split(data []byte) ([]Document, error) {
	if isJSONStream(data) {
		return splitJSON(data)
	}
	return splitYAML(data)
}

func isJSONStream(data []byte) bool {
	peek := data
	if len(peek) > 4096 {
		peek = peek[:4096]
	}
	return bytes.HasPrefix(bytes.TrimLeftFunc(peek, unicode.IsSpace), []byte("{"))
}

func splitYAML(data []byte) ([]Document, error) {
	var docs []Document
	var buf []byte
	bufLine := 0
	line := 0
	flush := func() {
		if len(buf) > 0 && !emptyYAML(buf) {
			docs = append(docs, Document{Data: buf, Line: bufLine})
		}
		buf = nil
	}
	for len(data) > 0 {
		line++
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		if bytes.HasPrefix(text, []byte("---")) {
			rest := bytes.TrimSpace(text[3:])
			if len(rest) > 0 && rest[0] != '#' {
				flush()
				return docs, &SeparatorError{Line: line, Text: string(rest)}
			}
			if len(buf) > 0 {
				flush()
				continue
			}
		}
		if len(buf) == 0 {
			bufLine = line
		}
		buf = append(append(buf, text...), '\n')
	}
	flush()
	return docs, nil
}

// emptyYAML reports a document kubectl skips: one that reads as null.
// Documents with errors are kept, for the decoder to report.
func emptyYAML(doc []byte) bool {
	js, err := YAMLToJSON(doc)
	return err == nil && string(js) == "null"
}

func splitJSON(data []byte) ([]Document, error) {
	var docs []Document
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			var off int64
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = se.Offset
			} else {
				off = int64(len(data))
			}
			l, c := positionOf(data, int(off))
			return docs, &JSONSyntaxError{Offset: off, Line: l, Column: c, Err: err}
		}
		if string(raw) == "null" {
			continue
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		l, _ := positionOf(data, start)
		docs = append(docs, Document{Data: []byte(raw), Line: l, JSON: true})
	}
}
