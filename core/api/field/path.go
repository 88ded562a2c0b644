// Package field is field paths and field errors, printed as upstream's
// apiserver prints them ("spec.containers[0].image: Required value").
package field

import (
	"strconv"
	"strings"
)

// Path is a field path, built from the root down.
type Path struct {
	name   string
	index  string
	parent *Path
}

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
func (p *Path) Index(i int) *Path { return &Path{index: strconv.Itoa(i), parent: p} }

// Key appends a map key: [app].
func (p *Path) Key(k string) *Path { return &Path{index: k, parent: p} }

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
		if e.index != "" || (e.name == "" && e.parent != nil) {
			b.WriteString("[" + e.index + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}
