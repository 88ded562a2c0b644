package codec

import (
	"strconv"
	"strings"
)

// SyntaxError is a document that could not be read as YAML (or converted to
// JSON). Error() is the text kubectl prints after "error converting YAML to
// JSON: ", e.g. `yaml: line 5: mapping values are not allowed in this
// context`; its line number is yaml.v2's, counted from the start of the
// document and, for parser errors, one less than the line of the problem, as
// upstream prints it. Line and Column are the real 1-based position of the
// problem for editor markers; for a document from Split they count from the
// start of the whole input.
type SyntaxError struct {
	Line, Column int
	Msg          string // the problem alone, e.g. "did not find expected key"
	text         string
}

func (e *SyntaxError) Error() string {
	if e.text != "" {
		return e.text
	}
	return "yaml: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// NoKindMatchError is an apiVersion/kind the scheme does not serve.
type NoKindMatchError struct {
	Group, Version, Kind string
}

func (e *NoKindMatchError) Error() string {
	v := e.Version
	if e.Group != "" {
		v = e.Group + "/" + e.Version
	}
	return "no matches for kind " + strconv.Quote(e.Kind) + " in version " + strconv.Quote(v)
}

// MissingKindError is a document without kind; Data is the JSON document,
// printed as upstream prints it.
type MissingKindError struct{ Data string }

func (e *MissingKindError) Error() string { return "Object 'Kind' is missing in '" + e.Data + "'" }

// MissingVersionError is a document without apiVersion.
type MissingVersionError struct{ Data string }

func (e *MissingVersionError) Error() string {
	return "Object 'apiVersion' is missing in '" + e.Data + "'"
}

// StrictDecodingError lists what strict field validation rejects: unknown
// fields, duplicate fields, duplicate YAML keys. Decode returns it together
// with the decoded object, as upstream does, so a caller may use the list as
// warnings instead.
type StrictDecodingError struct {
	Errors []string // e.g. `unknown field "spec.foo"`, `duplicate field "spec.replicas"`
}

func (e *StrictDecodingError) Error() string {
	return "strict decoding error: " + strings.Join(e.Errors, ", ")
}

// Internal errors from the YAML reader, before they become SyntaxErrors.

type yamlErrKind uint8

const (
	readerErr  yamlErrKind = iota + 1 // bad bytes; reported without a line
	scannerErr                        // line printed 1-based
	parserErr                         // line printed 0-based, as yaml.v2 does
	decodeErr                         // text is complete; marks say where
)

type yamlError struct {
	kind        yamlErrKind
	problem     string
	problemMark mark
	context     string
	contextMark mark
	offset      int    // reader errors: byte offset of the bad byte
	text        string // decodeErr: the full message
}

// syntaxError turns an internal error into the public one; in is the
// document, used to place reader errors.
func (y *yamlError) syntaxError(in []byte) *SyntaxError {
	e := &SyntaxError{Msg: y.problem}
	switch y.kind {
	case readerErr:
		e.Line, e.Column = positionOf(in, y.offset)
		e.text = "yaml: " + y.problem
	case decodeErr:
		e.Line, e.Column = y.problemMark.line+1, y.problemMark.column+1
		e.text = y.text
	default:
		e.Line, e.Column = y.problemMark.line+1, y.problemMark.column+1
		// yaml.v2 prints the problem's line, 1-based for scanner errors and
		// 0-based for parser errors; on the first line it falls back to the
		// context's line, and omits a zero.
		line := 0
		if y.problemMark.line != 0 {
			line = y.problemMark.line
			if y.kind == scannerErr {
				line++
			}
		} else if y.contextMark.line != 0 {
			line = y.contextMark.line
		}
		if line != 0 {
			e.text = "yaml: line " + strconv.Itoa(line) + ": " + y.problem
		} else {
			e.text = "yaml: " + y.problem
		}
	}
	if e.Line < 1 {
		e.Line = 1
	}
	if e.Column < 1 {
		e.Column = 1
	}
	return e
}

// positionOf gives the 1-based line and column (in characters) of a byte offset.
func positionOf(in []byte, offset int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < offset && i < len(in); i++ {
		switch {
		case in[i] == '\n':
			line++
			col = 1
		case in[i]&0xC0 != 0x80:
			col++
		}
	}
	return line, col
}
