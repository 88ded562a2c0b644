// Package jsonpath is kubectl's JSONPath templates (-o jsonpath,
// custom-columns): text with {expressions} evaluated over an object's JSON
// form, with range/end, filters, slices, unions and recursive descent.
package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Template is a parsed JSONPath template.
type Template struct {
	nodes []node
	// AllowMissingKeys prints nothing for a missing field instead of failing.
	AllowMissingKeys bool
	// spent counts the values the current run has selected and the range
	// items it has gone through, against maxValues.
	spent int
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
	stepSlice // also an index: [i] is [i:i+1] with its end derived
	stepWildcard
	stepFilter
	stepUnion
	stepLiteral    // a quoted string: one value, whatever the input
	stepConstant   // a number or a boolean: one copy per input value
	stepIdentifier // a bare word, which fails when evaluated
)

type step struct {
	kind   stepKind
	name   string   // field, identifier
	union  [][]step // alternatives, each over the whole input
	slice  [3]*int  // start, end, step
	derive bool     // the end follows from the start (an index)
	filter *filter
	lit    any
}

type filter struct {
	left, right []step
	op          string
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

// Execute evaluates the template over data (a decoded JSON value).
func (t *Template) Execute(data any) (string, error) {
	var b bytes.Buffer
	t.spent = 0
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
			if b.Len() > maxOutput {
				return errTooMuchOutput
			}
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
				if b.Len() > maxOutput {
					return errTooMuchOutput
				}
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
				if err := t.spend(1); err != nil {
					return err
				}
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

// Values evaluates a template of one action and returns its values.
func (t *Template) Values(data any) ([]any, error) {
	var out []any
	t.spent = 0
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
