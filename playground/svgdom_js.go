//go:build js && wasm

package playground

import (
	"syscall/js"
)

// drawnEl is an El on the page with its DOM node. A redraw patches the
// drawn tree into the new one: attributes and text that differ are set,
// children are matched by key (a pod's chip by its pod, a node's box by
// its node) and only new, gone or moved ones touch the DOM. With 500 pods
// the picture has thousands of elements; building them anew each time
// took most of a frame.
type drawnEl struct {
	el   *El
	node js.Value
	kids []*drawnEl
}

// build makes DOM nodes from an El: attributes through setAttribute and
// text through textContent, so cluster data is never parsed as markup.
func build(e *El, pause func()) *drawnEl {
	d := &drawnEl{el: e, node: document.Call("createElementNS", svgNS, e.Tag)}
	for _, a := range e.Attrs {
		if a[0] != "xmlns" {
			d.node.Call("setAttribute", a[0], a[1])
		}
	}
	if e.Text != "" {
		d.node.Set("textContent", e.Text)
	}
	for _, k := range e.Kids {
		kd := build(k, pause)
		d.node.Call("appendChild", kd.node)
		d.kids = append(d.kids, kd)
		if len(k.Kids) > 0 {
			pause()
		}
	}
	return d
}

// patch makes d show e (same tag); pause is called after each child
// that has children of its own.
func (d *drawnEl) patch(e *El, pause func()) {
	old := d.el
	if old == e {
		return // a chip the painter kept: drawn as it is
	}
	d.el = e
	for _, a := range e.Attrs {
		if a[0] == "xmlns" {
			continue
		}
		if v, ok := attr(old, a[0]); !ok || v != a[1] {
			d.node.Call("setAttribute", a[0], a[1])
		}
	}
	for _, a := range old.Attrs {
		if _, ok := attr(e, a[0]); !ok {
			d.node.Call("removeAttribute", a[0])
		}
	}
	if e.Text != old.Text {
		d.node.Set("textContent", e.Text)
	}
	if sameKids(d.kids, e.Kids) {
		return // a moved chip: its inside is the painter's, as drawn
	}
	byKey := make(map[string]*drawnEl, len(d.kids))
	for i, k := range d.kids {
		byKey[kidKey(k.el, i)] = k
	}
	kids := make([]*drawnEl, len(e.Kids))
	kept := make(map[*drawnEl]bool, len(e.Kids))
	for i, k := range e.Kids {
		if m := byKey[kidKey(k, i)]; m != nil && !kept[m] {
			m.patch(k, pause)
			kids[i] = m
			kept[m] = true
		} else {
			kids[i] = build(k, pause)
		}
		if len(k.Kids) > 0 {
			pause()
		}
	}
	var stay []*drawnEl
	for _, k := range d.kids {
		if kept[k] {
			stay = append(stay, k)
		} else {
			d.node.Call("removeChild", k.node)
		}
	}
	// Put the children in order: walk the new list against the old order
	// of those that stay, moving or inserting only where they differ.
	placed := make(map[*drawnEl]bool, len(kids))
	j := 0
	for _, k := range kids {
		for j < len(stay) && placed[stay[j]] {
			j++
		}
		if j < len(stay) && stay[j] == k {
			placed[k] = true
			j++
			continue
		}
		ref := js.Null()
		if j < len(stay) {
			ref = stay[j].node
		}
		d.node.Call("insertBefore", k.node, ref)
		placed[k] = true
	}
	d.kids = kids
}

func attr(e *El, name string) (string, bool) {
	for _, a := range e.Attrs {
		if a[0] == name {
			return a[1], true
		}
	}
	return "", false
}

// sameKids reports whether kids were drawn from exactly els.
func sameKids(kids []*drawnEl, els []*El) bool {
	if len(kids) != len(els) {
		return false
	}
	for i, k := range kids {
		if k.el != els[i] {
			return false
		}
	}
	return true
}
