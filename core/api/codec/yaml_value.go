package codec

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// From events to values, as yaml.v2 decodes a document into interface{}:
// anchors and aliases, merge keys (<<), duplicate keys (last one wins, or an
// error in strict mode), and its guard against alias bombs.

type nodeKind uint8

const (
	ndDocument nodeKind = iota + 1
	ndMapping
	ndSequence
	ndScalar
	ndAlias
)

type ynode struct {
	kind     nodeKind
	pos      mark
	tag      string
	value    string // scalar text, or alias name
	implicit bool   // plain scalar (no tag, or the "!" tag)
	children []*ynode
	alias    *ynode
}

// Values are nil, bool, int, uint64, float64, string, *ymap and *yseq; the
// containers remember where each entry was written, for error positions.

type ymap struct {
	keys    []any
	vals    []any
	keyPos  []mark
	valPos  []mark
	indexOf map[any]int
}

type yseq struct {
	items []any
	pos   []mark
}

func (m *ymap) set(k, v any, kp, vp mark) {
	if i, ok := m.indexOf[k]; ok {
		m.vals[i], m.valPos[i] = v, vp
		return
	}
	if m.indexOf == nil {
		m.indexOf = map[any]int{}
	}
	m.indexOf[k] = len(m.keys)
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	m.keyPos = append(m.keyPos, kp)
	m.valPos = append(m.valPos, vp)
}

func (m *ymap) has(k any) bool {
	_, ok := m.indexOf[k]
	return ok
}

// abort carries a fatal error up through the recursive descent; it is
// recovered in yamlToValue and never leaves the package.
type abort struct{ err *yamlError }

func failAt(at mark, format string, args ...any) {
	panic(abort{&yamlError{kind: decodeErr, problem: fmt.Sprintf(format, args...), problemMark: at,
		text: "yaml: " + fmt.Sprintf(format, args...)}})
}

// composer builds the node tree of the first document, as yaml.v2 does.
type composer struct {
	p       *parser
	ev      event
	have    bool
	anchors map[string]*ynode
}

func (c *composer) fetch() {
	if !c.have {
		if !c.p.parse(&c.ev) {
			panic(abort{c.p.err})
		}
		c.have = true
	}
}

func (c *composer) peek() eventType {
	c.fetch()
	return c.ev.typ
}

func (c *composer) expect(t eventType) {
	c.fetch()
	if c.ev.typ == evStreamEnd {
		failAt(c.ev.start, "attempted to go past the end of stream; corrupted value?")
	}
	if c.ev.typ != t {
		panic(abort{&yamlError{kind: decodeErr, problemMark: c.ev.start,
			problem: "expected " + eventNames[t] + " event but got " + eventNames[c.ev.typ],
			text:    "yaml: expected " + eventNames[t] + " event but got " + eventNames[c.ev.typ]}})
	}
	c.have = false
}

// root reads the stream start and the first document; nil for an empty stream.
func (c *composer) root() *ynode {
	c.expect(evStreamStart)
	if c.peek() == evStreamEnd {
		return nil
	}
	return c.node()
}

func (c *composer) node() *ynode {
	switch c.peek() {
	case evScalar:
		n := c.newNode(ndScalar)
		n.value = string(c.ev.value)
		n.tag = string(c.ev.tag)
		n.implicit = c.ev.implicit
		c.anchor(n)
		c.expect(evScalar)
		return n
	case evAlias:
		n := c.newNode(ndAlias)
		n.value = string(c.ev.anchor)
		n.alias = c.anchors[n.value]
		if n.alias == nil {
			failAt(n.pos, "unknown anchor '%s' referenced", n.value)
		}
		c.expect(evAlias)
		return n
	case evMappingStart:
		n := c.newNode(ndMapping)
		n.tag = string(c.ev.tag)
		c.anchor(n)
		c.expect(evMappingStart)
		for c.peek() != evMappingEnd {
			k := c.node()
			v := c.node()
			n.children = append(n.children, k, v)
		}
		c.expect(evMappingEnd)
		return n
	case evSequenceStart:
		n := c.newNode(ndSequence)
		n.tag = string(c.ev.tag)
		c.anchor(n)
		c.expect(evSequenceStart)
		for c.peek() != evSequenceEnd {
			n.children = append(n.children, c.node())
		}
		c.expect(evSequenceEnd)
		return n
	case evDocumentStart:
		n := c.newNode(ndDocument)
		c.anchors = map[string]*ynode{}
		c.expect(evDocumentStart)
		n.children = append(n.children, c.node())
		c.expect(evDocumentEnd)
		return n
	case evStreamEnd:
		return nil
	}
	failAt(c.ev.start, "attempted to parse unknown event: %s", eventNames[c.ev.typ])
	return nil
}

func (c *composer) newNode(k nodeKind) *ynode {
	return &ynode{kind: k, pos: c.ev.start}
}

func (c *composer) anchor(n *ynode) {
	if len(c.ev.anchor) > 0 {
		c.anchors[string(c.ev.anchor)] = n
	}
}

// decoder turns nodes into values.
type decoder struct {
	strict      bool
	terrors     []string
	terrPos     mark
	aliases     map[*ynode]bool
	decodeCount int
	aliasCount  int
	aliasDepth  int
}

// allowedAliasRatio is yaml.v2's budget for values produced by aliases.
func allowedAliasRatio(decodeCount int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodeCount <= low:
		return 0.99
	case decodeCount >= high:
		return 0.10
	}
	return 0.99 - 0.89*(float64(decodeCount-low)/float64(high-low))
}

func (d *decoder) count(n *ynode) {
	d.decodeCount++
	if d.aliasDepth > 0 {
		d.aliasCount++
	}
	if d.aliasCount > 100 && d.decodeCount > 1000 && float64(d.aliasCount)/float64(d.decodeCount) > allowedAliasRatio(d.decodeCount) {
		failAt(n.pos, "document contains excessive aliasing")
	}
}

func (d *decoder) value(n *ynode) any {
	d.count(n)
	switch n.kind {
	case ndDocument:
		if len(n.children) == 1 {
			return d.value(n.children[0])
		}
		return nil
	case ndAlias:
		d.enterAlias(n)
		v := d.value(n.alias)
		d.leaveAlias(n)
		return v
	case ndScalar:
		return d.scalar(n)
	case ndMapping:
		m := &ymap{}
		d.mappingInto(n, m)
		return m
	case ndSequence:
		s := &yseq{items: make([]any, 0, len(n.children)), pos: make([]mark, 0, len(n.children))}
		for _, c := range n.children {
			s.items = append(s.items, d.value(c))
			s.pos = append(s.pos, c.pos)
		}
		return s
	}
	return nil
}

func (d *decoder) enterAlias(n *ynode) {
	if d.aliases[n] {
		failAt(n.pos, "anchor '%s' value contains itself", n.value)
	}
	if d.aliases == nil {
		d.aliases = map[*ynode]bool{}
	}
	d.aliases[n] = true
	d.aliasDepth++
}

func (d *decoder) leaveAlias(n *ynode) {
	d.aliasDepth--
	delete(d.aliases, n)
}

func (d *decoder) scalar(n *ynode) any {
	if n.tag == "" && !n.implicit {
		return n.value // quoted: always a string
	}
	tag, v, err := resolveScalar(n.tag, n.value)
	if err != nil {
		failAt(n.pos, "%s", err.Error())
	}
	if tag == tagBinary {
		data, err := base64.StdEncoding.DecodeString(v.(string))
		if err != nil {
			failAt(n.pos, "!!binary value contains invalid base64 data")
		}
		v = string(data)
	}
	if v == nil {
		return nil
	}
	if tag == tagTimestamp {
		return n.value // yaml.v2 keeps timestamps as written
	}
	return v
}

func isMerge(n *ynode) bool {
	return n.kind == ndScalar && n.value == "<<" && (n.implicit || n.tag == tagMerge)
}

// mappingInto adds a mapping's entries to m (a new map, or the target of a merge).
func (d *decoder) mappingInto(n *ynode, m *ymap) {
	for i := 0; i+1 < len(n.children); i += 2 {
		kn, vn := n.children[i], n.children[i+1]
		if isMerge(kn) {
			d.merge(vn, m)
			continue
		}
		k := d.value(kn)
		switch k.(type) {
		case *ymap, *yseq:
			failAt(kn.pos, "invalid map key: %#v", goValue(k))
		}
		v := d.value(vn)
		if d.strict && m.has(k) {
			if len(d.terrors) == 0 {
				d.terrPos = vn.pos
			}
			d.terrors = append(d.terrors, fmt.Sprintf("line %d: key %#v already set in map", vn.pos.line+1, k))
			continue
		}
		m.set(k, v, kn.pos, vn.pos)
	}
}

// into decodes a mapping (or an alias of one) into an existing map.
func (d *decoder) into(n *ynode, m *ymap) {
	d.count(n)
	switch n.kind {
	case ndAlias:
		d.enterAlias(n)
		d.into(n.alias, m)
		d.leaveAlias(n)
	case ndMapping:
		d.mappingInto(n, m)
	}
}

func (d *decoder) merge(n *ynode, m *ymap) {
	wantMap := func() { failAt(n.pos, "map merge requires map or sequence of maps as the value") }
	switch n.kind {
	case ndMapping:
		d.into(n, m)
	case ndAlias:
		if n.alias != nil && n.alias.kind != ndMapping {
			wantMap()
		}
		d.into(n, m)
	case ndSequence:
		// Earlier maps take precedence, so they are applied last.
		for i := len(n.children) - 1; i >= 0; i-- {
			c := n.children[i]
			if c.kind == ndAlias {
				if c.alias != nil && c.alias.kind != ndMapping {
					wantMap()
				}
			} else if c.kind != ndMapping {
				wantMap()
			}
			d.into(c, m)
		}
	default:
		wantMap()
	}
}

// goValue converts a value to the Go types yaml.v2 would hold, so fmt
// prints it in error messages exactly as upstream does.
func goValue(v any) any {
	switch v := v.(type) {
	case *ymap:
		m := make(map[any]any, len(v.keys))
		for i, k := range v.keys {
			m[k] = goValue(v.vals[i])
		}
		return m
	case *yseq:
		s := make([]any, len(v.items))
		for i, x := range v.items {
			s[i] = goValue(x)
		}
		return s
	}
	return v
}

// yamlToValue reads the first document of in as yaml.v2 would.
func yamlToValue(in []byte, strict bool) (v any, rootPos mark, yerr *yamlError) {
	if len(in) == 0 {
		in = []byte{'\n'}
	}
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(abort)
			if !ok {
				panic(r)
			}
			v, yerr = nil, a.err
		}
	}()
	c := &composer{p: newParser(in)}
	root := c.root()
	if root == nil {
		return nil, mark{}, nil
	}
	d := &decoder{strict: strict}
	v = d.value(root)
	if len(d.terrors) > 0 {
		text := "yaml: unmarshal errors:\n  " + strings.Join(d.terrors, "\n  ")
		return nil, mark{}, &yamlError{kind: decodeErr, problem: d.terrors[0], problemMark: d.terrPos, text: text}
	}
	if len(root.children) == 1 {
		rootPos = root.children[0].pos
	}
	return v, rootPos, nil
}
