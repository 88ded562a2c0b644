package vfs

import (
	"io/fs"
	"strings"
	"time"
)

// Stat describes the file or directory at name.
func (f *FS) Stat(name string) (FileInfo, error) {
	l, err := f.existing("stat", name)
	if err != nil {
		return FileInfo{}, err
	}
	return infoOf(l.name, l.node), nil
}

// Exists reports whether name exists.
func (f *FS) Exists(name string) bool {
	_, err := f.Stat(name)
	return err == nil
}

// IsDir reports whether name is an existing directory.
func (f *FS) IsDir(name string) bool {
	fi, err := f.Stat(name)
	return err == nil && fi.IsDir()
}

// Mkdir creates one directory; its parent must exist.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	l, err := f.walk(name)
	if err != nil {
		return perr("mkdir", name, err)
	}
	if l.node != nil {
		return perr("mkdir", name, ErrExist)
	}
	now := l.fs.now()
	l.parent.setChild(l.name, &node{mode: fs.ModeDir | perm.Perm(), mtime: now})
	l.parent.mtime = now
	return nil
}

// MkdirAll creates name and any missing parents; an existing directory is
// fine, an existing file in the way is ENOTDIR/EEXIST.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	clean := Clean("/", name)
	comps := split(clean)
	p := ""
	for _, c := range comps {
		p += "/" + c
		l, err := f.walk(p)
		if err != nil {
			return perr("mkdir", name, err)
		}
		if l.node != nil {
			if !l.node.isDir() {
				if p == clean {
					return perr("mkdir", name, ErrExist)
				}
				return perr("mkdir", name, ErrNotDir)
			}
			continue
		}
		now := l.fs.now()
		l.parent.setChild(l.name, &node{mode: fs.ModeDir | perm.Perm(), mtime: now})
		l.parent.mtime = now
	}
	return nil
}

// ReadFile returns a copy of the file's content.
func (f *FS) ReadFile(name string) ([]byte, error) {
	l, err := f.existing("open", name)
	if err != nil {
		return nil, err
	}
	if l.node.isDir() {
		return nil, perr("read", name, ErrIsDir)
	}
	return append([]byte(nil), l.node.data...), nil
}

// WriteFile replaces the file's content, creating it with perm if missing.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return f.write(name, data, perm, false)
}

// Append adds data at the end of the file, creating it (0644) if missing.
func (f *FS) Append(name string, data []byte) error {
	return f.write(name, data, defaultPerm, true)
}

// WriteFileShared is WriteFile for content that never changes (an image's
// files, written into every container): the file keeps data itself rather
// than a copy, and copies it only when something writes to the file.
func (f *FS) WriteFileShared(name string, data []byte, perm fs.FileMode) error {
	return f.writeMode(name, data, perm, false, true)
}

func (f *FS) write(name string, data []byte, perm fs.FileMode, appendData bool) error {
	return f.writeMode(name, data, perm, appendData, false)
}

func (f *FS) writeMode(name string, data []byte, perm fs.FileMode, appendData, share bool) error {
	n, owner, err := f.openNode(name, perm, true)
	if err != nil {
		return err
	}
	old := int64(len(n.data))
	if appendData {
		if err := owner.grow(int64(len(data))); err != nil {
			return perr("write", name, err)
		}
		n.own()
		n.data = append(n.data, data...)
	} else {
		if err := owner.grow(int64(len(data)) - old); err != nil {
			return perr("write", name, err)
		}
		if share {
			n.data, n.shared = data[:len(data):len(data)], true
		} else {
			n.data, n.shared = append([]byte(nil), data...), false
		}
	}
	n.mtime = owner.now()
	return nil
}

// openNode finds a regular file, creating it when create is set.
func (f *FS) openNode(name string, perm fs.FileMode, create bool) (*node, *FS, error) {
	l, err := f.walk(name)
	if err != nil {
		return nil, nil, perr("open", name, err)
	}
	if l.node == nil {
		if !create {
			return nil, nil, perr("open", name, ErrNotExist)
		}
		if strings.HasSuffix(name, "/") {
			return nil, nil, perr("open", name, ErrIsDir)
		}
		n := &node{mode: perm.Perm(), mtime: l.fs.now()}
		l.parent.setChild(l.name, n)
		l.parent.mtime = l.fs.now()
		return n, l.fs, nil
	}
	if l.node.isDir() {
		return nil, nil, perr("open", name, ErrIsDir)
	}
	return l.node, l.fs, nil
}

// Remove deletes a file or an empty directory.
func (f *FS) Remove(name string) error {
	l, err := f.existing("remove", name)
	if err != nil {
		return err
	}
	if l.parent == nil || l.mountPoint || f.hasMountAt(l) {
		return perr("remove", name, ErrBusy)
	}
	if l.node.isDir() && len(l.node.children) > 0 {
		return perr("remove", name, ErrNotEmpty)
	}
	l.fs.unlink(l)
	return nil
}

func (f *FS) unlink(l loc) {
	f.release(l.node, 0)
	l.parent.removeChild(l.name)
	l.parent.mtime = f.now()
}

// release returns a removed subtree's bytes to the FS's budget.
func (f *FS) release(n *node, depth int) {
	if depth > maxDepth {
		return
	}
	f.used -= int64(len(n.data))
	for _, c := range n.children {
		f.release(c.n, depth+1)
	}
}

// RemoveAll deletes name and everything below it; a missing name is not an
// error. Like rm -rf, it empties a mounted directory but cannot remove the
// mount point itself (EBUSY).
func (f *FS) RemoveAll(name string) error {
	l, err := f.walk(name)
	if err != nil {
		if err == ErrNotExist {
			return nil
		}
		return perr("remove", name, err)
	}
	if l.node == nil {
		return nil
	}
	return f.removeAll(name, l, 0)
}

func (f *FS) removeAll(name string, l loc, depth int) error {
	if depth > maxDepth {
		return perr("remove", name, ErrLoop)
	}
	var firstErr error
	if l.node.isDir() {
		names := l.node.names()
		for _, c := range names {
			child := strings.TrimSuffix(name, "/") + "/" + c
			cl, err := f.walk(child)
			if err == nil && cl.node != nil {
				err = f.removeAll(child, cl, depth+1)
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	if l.parent == nil || l.mountPoint || f.hasMountAt(l) {
		if firstErr == nil {
			firstErr = perr("remove", name, ErrBusy)
		}
		return firstErr
	}
	if l.node.isDir() && len(l.node.children) > 0 {
		if firstErr == nil {
			firstErr = perr("remove", name, ErrNotEmpty)
		}
		return firstErr
	}
	l.fs.unlink(l)
	return firstErr
}

// hasMountAt reports whether something is mounted at or below l in its FS,
// which pins the directory like a busy mount point.
func (f *FS) hasMountAt(l loc) bool {
	prefix := strings.TrimSuffix(l.path, "/") + "/"
	for _, m := range l.fs.mounts {
		if p := m.target; p == l.path || strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// ReadDir lists a directory sorted by name.
func (f *FS) ReadDir(name string) ([]FileInfo, error) {
	l, err := f.existing("open", name)
	if err != nil {
		return nil, err
	}
	if !l.node.isDir() {
		return nil, perr("open", name, ErrNotDir)
	}
	out := make([]FileInfo, 0, len(l.node.children))
	for _, c := range l.node.children {
		n := c.n
		// A mount point shows the mounted directory, as ls does.
		if m := l.fs.mountAt(strings.TrimSuffix(l.path, "/") + "/" + c.name); m != nil {
			if src, err := m.src.lookup(m.srcPath); err == nil {
				n = src
			}
		}
		out = append(out, infoOf(c.name, n))
	}
	return out, nil
}

// names lists a directory's entries, in order.
func (n *node) names() []string {
	names := make([]string, len(n.children))
	for i, c := range n.children {
		names[i] = c.name
	}
	return names
}

// Rename moves oldname to newname with rename(2)'s rules: a file replaces a
// file, a directory replaces an empty directory, nothing moves into itself
// or across filesystems.
func (f *FS) Rename(oldname, newname string) error {
	ol, err := f.existing("rename", oldname)
	if err != nil {
		return err
	}
	nl, err := f.walk(newname)
	if err != nil {
		return perr("rename", newname, err)
	}
	if ol.parent == nil || ol.mountPoint || f.hasMountAt(ol) {
		return perr("rename", oldname, ErrBusy)
	}
	if nl.fs != ol.fs {
		return perr("rename", newname, ErrXDev)
	}
	if nl.node == ol.node {
		return nil
	}
	if ol.node.isDir() && (nl.path == ol.path || strings.HasPrefix(nl.path, ol.path+"/")) {
		return perr("rename", oldname, ErrInvalid)
	}
	if nl.node != nil {
		if nl.parent == nil || nl.mountPoint || f.hasMountAt(nl) {
			return perr("rename", newname, ErrBusy)
		}
		switch {
		case ol.node.isDir() && !nl.node.isDir():
			return perr("rename", newname, ErrNotDir)
		case !ol.node.isDir() && nl.node.isDir():
			return perr("rename", newname, ErrIsDir)
		case nl.node.isDir() && len(nl.node.children) > 0:
			return perr("rename", newname, ErrNotEmpty)
		}
		ol.fs.release(nl.node, 0)
	}
	ol.parent.removeChild(ol.name)
	nl.parent.setChild(nl.name, ol.node)
	now := ol.fs.now()
	ol.parent.mtime, nl.parent.mtime = now, now
	return nil
}

// Chmod sets the permission bits.
func (f *FS) Chmod(name string, perm fs.FileMode) error {
	l, err := f.existing("chmod", name)
	if err != nil {
		return err
	}
	l.node.mode = l.node.mode.Type() | perm.Perm()
	return nil
}

// Chtimes sets the modification time.
func (f *FS) Chtimes(name string, mtime time.Time) error {
	l, err := f.existing("utimes", name)
	if err != nil {
		return err
	}
	l.node.mtime = mtime.UTC()
	return nil
}

// Touch creates an empty file or stamps an existing one with Now, as touch does.
func (f *FS) Touch(name string) error {
	l, err := f.walk(name)
	if err != nil {
		return perr("touch", name, err)
	}
	if l.node != nil {
		l.node.mtime = l.fs.now()
		return nil
	}
	_, _, err = f.openNode(name, defaultPerm, true)
	return err
}

// Walk calls fn for root and everything below it, in sorted order,
// descending into mounted directories; fn returning fs.SkipDir skips a
// directory's contents.
func (f *FS) Walk(root string, fn func(path string, info FileInfo, err error) error) error {
	fi, err := f.Stat(root)
	if err != nil {
		return fn(root, FileInfo{}, err)
	}
	budget := maxWalk
	return f.walkTree(root, fi, fn, 0, &budget)
}

// maxWalk bounds the entries one Walk visits: mounts can make a tree that
// is finite only thanks to maxHops, yet exponentially wide.
const maxWalk = 1 << 20

func (f *FS) walkTree(p string, fi FileInfo, fn func(string, FileInfo, error) error, depth int, budget *int) error {
	if *budget--; depth > maxDepth || *budget < 0 {
		return fn(p, fi, perr("walk", p, ErrLoop))
	}
	if err := fn(p, fi, nil); err != nil {
		if err == fs.SkipDir {
			return nil
		}
		return err
	}
	if !fi.IsDir() {
		return nil
	}
	entries, err := f.ReadDir(p)
	if err != nil {
		return fn(p, fi, err)
	}
	for _, e := range entries {
		child := strings.TrimSuffix(p, "/") + "/" + e.Name()
		if err := f.walkTree(child, e, fn, depth+1, budget); err != nil {
			return err
		}
	}
	return nil
}
