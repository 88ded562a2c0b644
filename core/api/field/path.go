// Package field is field paths and field errors, printed as upstream's
// apiserver prints them ("spec.containers[0].image: Required value").
package field

import (
	"strconv"
	"strings"
)

// Path is a field path, built from the root down. Validation builds one
// for every field it looks at, so an element is kept to 32 bytes.
type Path struct {
	parent *Path
	name   string // a field name, or a map key
	index  int32  // a list index
	kind   pathKind
}

type pathKind uint8

const (
	fieldElem pathKind = iota
	indexElem
	keyElem
)

// NewPath starts a path at name, with optional further children.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child appends field names.
func (p *Path) Child(name string, more ...string) *Path {
	c := &Path{name: name, parent: p}
	for _, m := range more {
		c = c.Child(m)
	}
	return c
}

// Index appends a list index: [3].
func (p *Path) Index(i int) *Path { return &Path{index: int32(i), kind: indexElem, parent: p} }

// Key appends a map key: [app].
func (p *Path) Key(k string) *Path { return &Path{name: k, kind: keyElem, parent: p} }

// String prints the path: spec.containers[0].image.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var elems []*Path
	for q := p; q != nil; q = q.parent {
		elems = append(elems, q)
	}
	var b strings.Builder
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		switch {
		case e.kind == indexElem:
			b.WriteString("[" + strconv.Itoa(int(e.index)) + "]")
			continue
		case e.kind == keyElem, e.name == "" && e.parent != nil:
			b.WriteString("[" + e.name + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}
