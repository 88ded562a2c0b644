package playground

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/api/defaults"
	"kubeplay/core/api/validation"
)

// Marker is a problem the editor underlines: 1-based line and column
// (Column 0: the whole line) and the engine's own message.
type Marker struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Diagnose reads a manifest as `kubectl apply -f` would and places each
// problem it finds at its line and column: YAML syntax (the reader's real
// position), document separators, unknown kinds, unknown fields (strict
// decoding), and what the API server's validation would reject, located by
// field path. It never changes the cluster.
func (h *Host) Diagnose(text string) []Marker {
	var reg func(api.Object) bool
	if h != nil && h.C != nil {
		reg = func(o api.Object) bool {
			res, ok := h.C.API.Registry.ForKind(o.GetTypeMeta().APIVersion, o.GetTypeMeta().Kind)
			return !ok || res.Namespaced
		}
	}
	return diagnose(text, reg)
}

func diagnose(text string, namespaced func(api.Object) bool) (ms []Marker) {
	defer func() {
		if r := recover(); r != nil {
			ms = append(ms, Marker{Line: 1, Message: "kubeplay: could not check this manifest"})
		}
	}()
	docs, err := codec.Split([]byte(text))
	var sep *codec.SeparatorError
	var js *codec.JSONSyntaxError
	switch {
	case errors.As(err, &sep):
		ms = append(ms, Marker{Line: sep.Line, Message: err.Error()})
	case errors.As(err, &js):
		ms = append(ms, Marker{Line: js.Line, Column: js.Column, Message: err.Error()})
	case err != nil:
		ms = append(ms, Marker{Line: 1, Message: err.Error()})
	}
	for _, d := range docs {
		obj, err := codec.DecodeDocument(d, codec.DecodeOptions{Strict: true})
		docText := string(d.Data)
		var se *codec.SyntaxError
		var nk *codec.NoKindMatchError
		var sd *codec.StrictDecodingError
		switch {
		case errors.As(err, &se):
			ms = append(ms, Marker{Line: se.Line, Column: se.Column, Message: se.Error()})
			continue
		case errors.As(err, &nk):
			ms = append(ms, at(docText, d.Line, "kind", err.Error()))
			continue
		case errors.As(err, &sd):
			for _, e := range sd.Errors {
				if m := unknownField().FindStringSubmatch(e); m != nil {
					ms = append(ms, at(docText, d.Line, m[1], e))
				} else {
					ms = append(ms, Marker{Line: d.Line, Message: e})
				}
			}
		case err != nil:
			ms = append(ms, Marker{Line: d.Line, Message: err.Error()})
			continue
		}
		if obj == nil {
			continue
		}
		o := obj.DeepCopyObject()
		if namespaced == nil || namespaced(o) {
			if o.GetObjectMeta().Namespace == "" {
				o.GetObjectMeta().Namespace = "default"
			}
		}
		defaults.Default(o)
		ns := namespaced == nil || namespaced(o)
		for _, fe := range validation.ValidateObject(o, ns) {
			msg := fe.Error()
			if name := o.GetObjectMeta().Name; name != "" {
				msg = "The " + o.GetTypeMeta().Kind + " " + strconv.Quote(name) + " is invalid: " + msg
			}
			ms = append(ms, at(docText, d.Line, fe.Field, msg))
		}
	}
	return ms
}

var unknownField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unknown field "([^"]+)"`) })

// at places a message at a field path of a document that starts at line
// first of the input (the document's first line if the path is not found).
func at(doc string, first int, path, msg string) Marker {
	line, col := locate(doc, path)
	if line == 0 {
		return Marker{Line: first, Message: msg}
	}
	return Marker{Line: first + line - 1, Column: col, Message: msg}
}

type yline struct {
	indent int    // column of the first non-space character
	dash   bool   // the line starts a sequence item ("- ")
	key    string // the mapping key on the line ("" if none)
	keyCol int    // 0-based column of the key
	blank  bool   // empty or comment
}

func scanLines(doc string) []yline {
	var out []yline
	for _, raw := range strings.Split(doc, "\n") {
		l := yline{}
		t := strings.TrimLeft(raw, " ")
		l.indent = len(raw) - len(t)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "---") && l.indent == 0 {
			l.blank = true
			out = append(out, l)
			continue
		}
		col := l.indent
		for strings.HasPrefix(t, "- ") || t == "-" {
			l.dash = true
			rest := strings.TrimLeft(strings.TrimPrefix(t, "-"), " ")
			col += len(t) - len(rest)
			t = rest
		}
		if k, ok := mapKey(t); ok {
			l.key, l.keyCol = k, col
		}
		out = append(out, l)
	}
	return out
}

// mapKey reads "key:" at the start of s (plain or quoted keys).
func mapKey(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if s[0] == '"' || s[0] == '\'' {
		q := s[0]
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", false
		}
		rest := s[end+2:]
		if strings.HasPrefix(rest, ":") {
			return s[1 : end+1], true
		}
		return "", false
	}
	i := strings.Index(s, ":")
	for i >= 0 {
		if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' {
			return strings.TrimSpace(s[:i]), true
		}
		j := strings.Index(s[i+1:], ":")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return "", false
}

var pathPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([^.\[\]]+)|\[([^\]]*)\]`) })

// locate finds the line (1-based within doc) and column of a field path
// such as spec.template.spec.containers[0].image in block-style YAML; 0
// when it cannot.
func locate(doc, path string) (int, int) {
	lines := scanLines(doc)
	lo, hi := 0, len(lines) // the block searched: lines[lo:hi]
	parent := -1            // the indent the block's children must exceed
	found, col := 0, 0
	for _, m := range pathPart().FindAllStringSubmatch(path, -1) {
		if m[1] != "" {
			key := m[1]
			idx := -1
			for i := lo; i < hi; i++ {
				l := lines[i]
				if l.blank {
					continue
				}
				if l.keyCol <= parent && l.key != "" || !l.dash && l.indent <= parent {
					break
				}
				if l.key == key && l.keyCol > parent {
					idx = i
					break
				}
			}
			if idx < 0 {
				return found, col
			}
			found, col = idx+1, lines[idx].keyCol+1
			parent = lines[idx].keyCol
			lo = idx + 1
			hi = blockEnd(lines, lo, parent)
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			// A map key in brackets (labels[app]): search it as a key.
			key := strings.Trim(m[2], `"'`)
			for i := lo; i < hi; i++ {
				if lines[i].key == key {
					return i + 1, lines[i].keyCol + 1
				}
			}
			return found, col
		}
		// The n-th sequence item in the block.
		seen := -1
		itemIndent := -1
		idx := -1
		for i := lo; i < hi; i++ {
			l := lines[i]
			if l.blank || !l.dash {
				continue
			}
			if itemIndent < 0 {
				itemIndent = l.indent
			}
			if l.indent != itemIndent {
				continue
			}
			seen++
			if seen == n {
				idx = i
				break
			}
		}
		if idx < 0 {
			return found, col
		}
		found, col = idx+1, lines[idx].indent+1
		// The item's block: its own line (for the key after "- ") and the
		// lines indented deeper than its dash.
		end := idx + 1
		for end < hi && (lines[end].blank || lines[end].indent > itemIndent) {
			end++
		}
		lo, hi = idx, end
		parent = itemIndent
	}
	return found, col
}

// blockEnd is where the block of children of a key at column parent,
// starting at line lo, ends.
func blockEnd(lines []yline, lo, parent int) int {
	i := lo
	for i < len(lines) {
		l := lines[i]
		if !l.blank && l.indent <= parent && !(l.dash && l.indent == parent) {
			break
		}
		// A sequence at the key's own indent belongs to the key
		// ("containers:\n- name: x").
		if !l.blank && l.dash && l.indent == parent && i > lo && !lines[i-1].dash && lines[i-1].indent < parent {
			break
		}
		i++
	}
	return i
}
