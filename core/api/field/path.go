// Package field is field paths and field errors, printed as upstream's
// apiserver prints them ("spec.containers[0].image: Required value").
package field

import "strconv"

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
	if len(more) > 0 {
		return newPathMore(name, more)
	}
	return &Path{name: name}
}

// newPathMore is kept out of line: inlined, its loop would put every
// NewPath's element on the heap.
//
//go:noinline
func newPathMore(name string, more []string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child appends a field name. It is small enough to inline, and nothing
// keeps a path (an error prints it), so a path a validator builds and
// drops can live on its stack: validation builds one for every field it
// reads. Upstream's Child takes more names; chain calls instead.
func (p *Path) Child(name string) *Path { return &Path{name: name, parent: p} }

// Index appends a list index: [3].
func (p *Path) Index(i int) *Path { return &Path{index: int32(i), kind: indexElem, parent: p} }

// Key appends a map key: [app].
func (p *Path) Key(k string) *Path { return &Path{name: k, kind: keyElem, parent: p} }

// String prints the path: spec.containers[0].image. It measures the path
// and then fills it in from the end, keeping no pointer to any element.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	n := 0
	for q := p; q != nil; q = q.parent {
		n += q.width()
	}
	buf := make([]byte, n)
	for q := p; q != nil; q = q.parent {
		w := q.width()
		q.put(buf[n-w : n])
		n -= w
	}
	return string(buf)
}

// bracketed: an index, a key, or an empty name below the root, which
// upstream prints as [].
func (e *Path) bracketed() bool {
	return e.kind != fieldElem || e.name == "" && e.parent != nil
}

// width is the element's length in print, with the dot before a field
// name that follows anything.
func (e *Path) width() int {
	switch {
	case e.kind == indexElem:
		return 2 + digits(int(e.index))
	case e.bracketed():
		return 2 + len(e.name)
	case e.dotted():
		return 1 + len(e.name)
	}
	return len(e.name)
}

// dotted: a field name with something printed before it. Only a root of
// no name prints nothing.
func (e *Path) dotted() bool {
	r := e.parent
	return r != nil && !(r.parent == nil && r.kind == fieldElem && r.name == "")
}

// put prints the element into dst, which is width() long.
func (e *Path) put(dst []byte) {
	switch {
	case e.kind == indexElem:
		dst[0] = '['
		strconv.AppendInt(dst[1:1], int64(e.index), 10)
		dst[len(dst)-1] = ']'
	case e.bracketed():
		dst[0] = '['
		copy(dst[1:], e.name)
		dst[len(dst)-1] = ']'
	case e.dotted():
		dst[0] = '.'
		copy(dst[1:], e.name)
	default:
		copy(dst, e.name)
	}
}

func digits(i int) int {
	n := 1
	if i < 0 {
		n++
		i = -i
	}
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}
