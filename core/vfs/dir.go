package vfs

import "sort"

// A directory keeps its entries in a slice sorted by name rather than in a
// map: most directories hold a handful of names, and every container's
// root filesystem has a dozen of them alive for as long as it runs, so one
// small array apiece costs a fraction of a map's buckets. Listings come
// out sorted as they are.

// dirent is one name in a directory.
type dirent struct {
	name string
	n    *node
}

// find returns where name is, or would be inserted, in the directory.
func (n *node) find(name string) (int, bool) {
	i := sort.Search(len(n.children), func(i int) bool { return n.children[i].name >= name })
	return i, i < len(n.children) && n.children[i].name == name
}

// child returns the entry called name, or nil.
func (n *node) child(name string) *node {
	if i, ok := n.find(name); ok {
		return n.children[i].n
	}
	return nil
}

// setChild adds c as name, replacing an entry of that name.
func (n *node) setChild(name string, c *node) {
	i, ok := n.find(name)
	if ok {
		n.children[i].n = c
		return
	}
	n.children = append(n.children, dirent{})
	copy(n.children[i+1:], n.children[i:])
	n.children[i] = dirent{name: name, n: c}
}

// removeChild drops the entry called name, if there is one.
func (n *node) removeChild(name string) {
	if i, ok := n.find(name); ok {
		copy(n.children[i:], n.children[i+1:])
		n.children[len(n.children)-1] = dirent{}
		n.children = n.children[:len(n.children)-1]
	}
}
