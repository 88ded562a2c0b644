// Package jsonpath is kubectl's JSONPath templates (-o jsonpath,
// custom-columns): text with {expressions} evaluated over an object's JSON
// form, with range/end, filters, slices, unions and recursive descent.
package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Template is a parsed JSONPath template.
type Template struct {
	nodes []node
	// AllowMissingKeys prints nothing for a missing field instead of failing.
	AllowMissingKeys bool
}

type node interface{}

type textNode struct{ text string }

type exprNode struct{ steps []step }

type rangeNode struct {
	steps []step
	body  []node
}

type stepKind int

const (
	stepField stepKind = iota
	stepRecursive
	stepIndex
	stepSlice
	stepWildcard
	stepFilter
	stepUnion
	stepLiteral
	stepCurrent
)

type step struct {
	kind   stepKind
	name   string   // field
	names  []string // union of fields
	idx    []int    // union of indexes
	slice  [3]*int
	filter *filter
	lit    string
}

type filter struct {
	left  []step
	op    string
	right string // literal (unquoted) or path
	rpath []step
	num   bool
}

// Parse parses a template such as "{.items[*].metadata.name}".
func Parse(text string) (*Template, error) {
	p := &parser{src: text}
	nodes, err := p.parseNodes(false)
	if err != nil {
		return nil, err
	}
	return &Template{nodes: nodes}, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) parseNodes(inRange bool) ([]node, error) {
	var out []node
	for p.pos < len(p.src) {
		i := strings.IndexByte(p.src[p.pos:], '{')
		if i < 0 {
			out = append(out, textNode{p.src[p.pos:]})
			p.pos = len(p.src)
			break
		}
		if i > 0 {
			out = append(out, textNode{p.src[p.pos : p.pos+i]})
		}
		p.pos += i + 1
		end, err := p.closing()
		if err != nil {
			return nil, err
		}
		inner := strings.TrimSpace(p.src[p.pos:end])
		p.pos = end + 1
		switch {
		case inner == "end":
			if !inRange {
				return nil, fmt.Errorf("not in range, nothing to end")
			}
			return out, nil
		case strings.HasPrefix(inner, "range "):
			steps, err := parsePath(strings.TrimSpace(inner[len("range "):]))
			if err != nil {
				return nil, err
			}
			body, err := p.parseNodes(true)
			if err != nil {
				return nil, err
			}
			out = append(out, rangeNode{steps: steps, body: body})
		default:
			steps, err := parsePath(inner)
			if err != nil {
				return nil, err
			}
			out = append(out, exprNode{steps})
		}
	}
	if inRange {
		return nil, fmt.Errorf("unclosed action")
	}
	return out, nil
}

// closing finds the '}' that ends the action at p.pos, skipping quoted text.
func (p *parser) closing() (int, error) {
	var quote byte
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '}':
			return i, nil
		}
	}
	return 0, fmt.Errorf("unclosed action")
}

// parsePath parses one action's expression.
func parsePath(s string) ([]step, error) {
	if s == "" {
		return []step{{kind: stepCurrent}}, nil
	}
	if s[0] == '"' || s[0] == '\'' {
		lit, err := unquote(s)
		if err != nil {
			return nil, err
		}
		return []step{{kind: stepLiteral, lit: lit}}, nil
	}
	var steps []step
	i := 0
	if s[0] == '$' || s[0] == '@' {
		i = 1
	}
	for i < len(s) {
		switch {
		case strings.HasPrefix(s[i:], ".."):
			i += 2
			name, n := readName(s[i:])
			steps = append(steps, step{kind: stepRecursive})
			if name == "*" {
				steps = append(steps, step{kind: stepWildcard})
			} else if name != "" {
				steps = append(steps, step{kind: stepField, name: name})
			}
			i += n
		case s[i] == '.':
			i++
			name, n := readName(s[i:])
			if n == 0 {
				if i == len(s) {
					return steps, nil
				}
				return nil, fmt.Errorf("unrecognized character in action: %q", s[i:])
			}
			if name == "*" {
				steps = append(steps, step{kind: stepWildcard})
			} else {
				steps = append(steps, step{kind: stepField, name: name})
			}
			i += n
		case s[i] == '[':
			end := matchBracket(s, i)
			if end < 0 {
				return nil, fmt.Errorf("unterminated array")
			}
			st, err := parseBracket(s[i+1 : end])
			if err != nil {
				return nil, err
			}
			steps = append(steps, st)
			i = end + 1
		default:
			name, n := readName(s[i:])
			if n == 0 {
				return nil, fmt.Errorf("unrecognized character in action: %q", s[i:])
			}
			steps = append(steps, step{kind: stepField, name: name})
			i += n
		}
	}
	return steps, nil
}

func readName(s string) (string, int) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] == '/' || s[i] == '*' || s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '\\' && i+1 < len(s)) {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	return strings.ReplaceAll(s[:i], `\.`, "."), i
}

func matchBracket(s string, start int) int {
	depth := 0
	var quote byte
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func parseBracket(in string) (step, error) {
	in = strings.TrimSpace(in)
	switch {
	case in == "*":
		return step{kind: stepWildcard}, nil
	case strings.HasPrefix(in, "?(") && strings.HasSuffix(in, ")"):
		f, err := parseFilter(in[2 : len(in)-1])
		if err != nil {
			return step{}, err
		}
		return step{kind: stepFilter, filter: f}, nil
	case strings.HasPrefix(in, "'") || strings.HasPrefix(in, "\""):
		var names []string
		for _, part := range splitTop(in, ',') {
			n, err := unquote(strings.TrimSpace(part))
			if err != nil {
				return step{}, err
			}
			names = append(names, n)
		}
		if len(names) == 1 {
			return step{kind: stepField, name: names[0]}, nil
		}
		return step{kind: stepUnion, names: names}, nil
	case strings.Contains(in, ":"):
		parts := strings.Split(in, ":")
		if len(parts) > 3 {
			return step{}, fmt.Errorf("invalid array index %s", in)
		}
		var st step
		st.kind = stepSlice
		for i, p := range parts {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			v, err := strconv.Atoi(p)
			if err != nil {
				return step{}, fmt.Errorf("invalid array index %s", in)
			}
			st.slice[i] = &v
		}
		return st, nil
	}
	var idx []int
	for _, part := range strings.Split(in, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return step{}, fmt.Errorf("invalid array index %s", in)
		}
		idx = append(idx, v)
	}
	return step{kind: stepIndex, idx: idx}, nil
}

func splitTop(s string, sep byte) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func unquote(s string) (string, error) {
	if len(s) < 2 || s[0] != s[len(s)-1] || (s[0] != '"' && s[0] != '\'') {
		return "", fmt.Errorf("invalid string literal %s", s)
	}
	if s[0] == '\'' {
		return s[1 : len(s)-1], nil
	}
	v, err := strconv.Unquote(s)
	if err != nil {
		return "", fmt.Errorf("invalid string literal %s", s)
	}
	return v, nil
}

func parseFilter(s string) (*filter, error) {
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">", "=~"} {
		if i := strings.Index(s, op); i >= 0 {
			left, err := parsePath(strings.TrimSpace(s[:i]))
			if err != nil {
				return nil, err
			}
			right := strings.TrimSpace(s[i+len(op):])
			f := &filter{left: left, op: op}
			switch {
			case strings.HasPrefix(right, "'") || strings.HasPrefix(right, "\""):
				v, err := unquote(right)
				if err != nil {
					return nil, err
				}
				f.right = v
			case strings.HasPrefix(right, "@") || strings.HasPrefix(right, "$"):
				p, err := parsePath(right)
				if err != nil {
					return nil, err
				}
				f.rpath = p
			default:
				if _, err := strconv.ParseFloat(right, 64); err != nil {
					return nil, fmt.Errorf("unrecognized filter operand %s", right)
				}
				f.right, f.num = right, true
			}
			return f, nil
		}
	}
	left, err := parsePath(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	return &filter{left: left, op: "exists"}, nil
}

// Execute evaluates the template over data (a decoded JSON value).
func (t *Template) Execute(data any) (string, error) {
	var b bytes.Buffer
	if err := t.exec(&b, t.nodes, data, data); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (t *Template) exec(b *bytes.Buffer, nodes []node, root, cur any) error {
	for _, n := range nodes {
		switch n := n.(type) {
		case textNode:
			b.WriteString(n.text)
		case exprNode:
			vals, err := t.eval(n.steps, root, cur)
			if err != nil {
				return err
			}
			for i, v := range vals {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(Text(v))
			}
		case rangeNode:
			vals, err := t.eval(n.steps, root, cur)
			if err != nil {
				return err
			}
			var items []any
			for _, v := range vals {
				if arr, ok := v.([]any); ok && len(vals) == 1 {
					items = append(items, arr...)
				} else {
					items = append(items, v)
				}
			}
			for _, it := range items {
				if err := t.exec(b, n.body, root, it); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Text prints a value as kubectl does: strings raw, others as JSON.
func Text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func (t *Template) eval(steps []step, root, cur any) ([]any, error) {
	vals := []any{cur}
	for _, st := range steps {
		var next []any
		for _, v := range vals {
			out, err := t.apply(st, root, v)
			if err != nil {
				return nil, err
			}
			next = append(next, out...)
		}
		vals = next
	}
	return vals, nil
}

func (t *Template) apply(st step, root, v any) ([]any, error) {
	switch st.kind {
	case stepCurrent:
		return []any{v}, nil
	case stepLiteral:
		return []any{st.lit}, nil
	case stepField:
		m, ok := v.(map[string]any)
		if !ok {
			if t.AllowMissingKeys {
				return nil, nil
			}
			return nil, fmt.Errorf("%s is not found", st.name)
		}
		x, ok := m[st.name]
		if !ok {
			if t.AllowMissingKeys {
				return nil, nil
			}
			return nil, fmt.Errorf("%s is not found", st.name)
		}
		return []any{x}, nil
	case stepUnion:
		m, _ := v.(map[string]any)
		var out []any
		for _, n := range st.names {
			if x, ok := m[n]; ok {
				out = append(out, x)
			}
		}
		return out, nil
	case stepWildcard:
		switch x := v.(type) {
		case []any:
			return x, nil
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out := make([]any, len(keys))
			for i, k := range keys {
				out[i] = x[k]
			}
			return out, nil
		}
		return nil, nil
	case stepIndex:
		arr, ok := v.([]any)
		if !ok {
			return nil, nil
		}
		var out []any
		for _, i := range st.idx {
			if i < 0 {
				i += len(arr)
			}
			if i < 0 || i >= len(arr) {
				if t.AllowMissingKeys {
					continue
				}
				return nil, fmt.Errorf("array index out of bounds: index %d, length %d", i, len(arr))
			}
			out = append(out, arr[i])
		}
		return out, nil
	case stepSlice:
		arr, ok := v.([]any)
		if !ok {
			return nil, nil
		}
		start, end, stepN := 0, len(arr), 1
		if st.slice[0] != nil {
			start = *st.slice[0]
		}
		if st.slice[1] != nil {
			end = *st.slice[1]
		}
		if st.slice[2] != nil && *st.slice[2] > 0 {
			stepN = *st.slice[2]
		}
		if start < 0 {
			start += len(arr)
		}
		if end < 0 {
			end += len(arr)
		}
		start = max(0, min(start, len(arr)))
		end = max(0, min(end, len(arr)))
		var out []any
		for i := start; i < end; i += stepN {
			out = append(out, arr[i])
		}
		return out, nil
	case stepRecursive:
		var out []any
		var walk func(x any)
		walk = func(x any) {
			out = append(out, x)
			switch y := x.(type) {
			case []any:
				for _, e := range y {
					walk(e)
				}
			case map[string]any:
				keys := make([]string, 0, len(y))
				for k := range y {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					walk(y[k])
				}
			}
		}
		walk(v)
		return out, nil
	case stepFilter:
		arr, ok := v.([]any)
		if !ok {
			arr = []any{v}
		}
		var out []any
		for _, e := range arr {
			keep, err := t.match(st.filter, root, e)
			if err != nil {
				return nil, err
			}
			if keep {
				out = append(out, e)
			}
		}
		return out, nil
	}
	return nil, nil
}

func (t *Template) match(f *filter, root, e any) (bool, error) {
	saved := t.AllowMissingKeys
	t.AllowMissingKeys = true
	defer func() { t.AllowMissingKeys = saved }()
	lefts, err := t.eval(f.left, root, e)
	if err != nil || len(lefts) == 0 {
		return false, nil
	}
	if f.op == "exists" {
		return true, nil
	}
	right := f.right
	if f.rpath != nil {
		rs, _ := t.eval(f.rpath, root, e)
		if len(rs) == 0 {
			return false, nil
		}
		right = Text(rs[0])
	}
	left := Text(lefts[0])
	lf, lerr := strconv.ParseFloat(left, 64)
	rf, rerr := strconv.ParseFloat(right, 64)
	numeric := lerr == nil && rerr == nil && (f.num || isNumber(lefts[0]))
	switch f.op {
	case "==":
		if numeric {
			return lf == rf, nil
		}
		return left == right, nil
	case "!=":
		if numeric {
			return lf != rf, nil
		}
		return left != right, nil
	case "<", ">", "<=", ">=":
		if !numeric {
			return false, nil
		}
		switch f.op {
		case "<":
			return lf < rf, nil
		case ">":
			return lf > rf, nil
		case "<=":
			return lf <= rf, nil
		}
		return lf >= rf, nil
	}
	return false, nil
}

func isNumber(v any) bool {
	switch v.(type) {
	case float64, json.Number, int64, int:
		return true
	}
	return false
}

// Values evaluates a template of one action and returns its values.
func (t *Template) Values(data any) ([]any, error) {
	var out []any
	for _, n := range t.nodes {
		if e, ok := n.(exprNode); ok {
			vals, err := t.eval(e.steps, data, data)
			if err != nil {
				return nil, err
			}
			out = append(out, vals...)
		}
	}
	return out, nil
}
