// Package vfs is an in-memory POSIX-ish filesystem: the terminal's home
// directory and, later, the filesystems of simulated containers.
//
// It holds regular files and directories with modes and modification
// times. Times come from the FS's Now function, which the caller supplies
// (the simulation's virtual clock); the wall clock is never read. Paths
// are cleaned lexically (there are no symlinks), so `..` and `.` need no
// parent pointers. A directory of one FS can be mounted into another, which
// is how the containers of a pod share an emptyDir. Everything is
// deterministic: directory listings are sorted and Snapshot walks in order.
package vfs

import (
	"io/fs"
	"path"
	"strings"
	"time"
)

// DefaultMaxBytes bounds the bytes of file content one FS holds, so a
// runaway loop in the terminal fills the "disk" instead of the tab's memory.
const DefaultMaxBytes = 64 << 20

// maxHops bounds how many mounts a single path may cross (ELOOP past it),
// and maxDepth how deep a recursive walk goes, so a filesystem mounted
// inside itself cannot make a walk run forever.
const (
	maxHops     = 40
	maxDepth    = 256
	maxPathLen  = 4096
	maxNameLen  = 255
	defaultPerm = 0o644
	defaultDir  = 0o755
)

// FS is one filesystem tree. The zero value is not usable; call New.
type FS struct {
	// Now stamps modification times; nil stamps the zero time.
	Now func() time.Time
	// MaxBytes bounds the content this FS stores (0: DefaultMaxBytes).
	MaxBytes int64
	// Name identifies this FS in other filesystems' snapshots when it is
	// mounted into them (e.g. "pod/default/web/volume/data").
	Name string

	root *node
	// mounts are sorted by target: a container has one or two, so a
	// slice is lighter than a map and lists them in order.
	mounts []mount
	used   int64
	// fill is a pending Seed (seed.go), run with the clock held at
	// filledAt while filling.
	fill     func(*FS)
	filledAt time.Time
	filling  bool
}

type node struct {
	mode fs.FileMode // type bits (fs.ModeDir) and permissions
	// shared says data belongs to someone else as well (WriteFileShared):
	// it is copied before anything changes it in place.
	shared   bool
	mtime    time.Time
	data     []byte
	children []dirent // a directory's entries, sorted by name (dir.go)
}

func (n *node) isDir() bool { return n.mode.IsDir() }

// own makes n's data its own to change in place.
func (n *node) own() {
	if n.shared {
		n.data = append([]byte(nil), n.data...)
		n.shared = false
	}
}

// New returns an empty filesystem holding only the root directory.
func New() *FS {
	f := &FS{}
	f.root = &node{mode: fs.ModeDir | defaultDir}
	return f
}

func (f *FS) now() time.Time {
	if f.filling {
		return f.filledAt
	}
	if f.Now == nil {
		return time.Time{}
	}
	return f.Now().UTC()
}

func (f *FS) limit() int64 {
	if f.MaxBytes > 0 {
		return f.MaxBytes
	}
	return DefaultMaxBytes
}

// grow accounts for delta more bytes of content, failing with ENOSPC.
func (f *FS) grow(delta int64) error {
	if delta > 0 && f.used+delta > f.limit() {
		return ErrNoSpace
	}
	f.used += delta
	return nil
}

// Clean returns the absolute, lexically cleaned form of p, resolving a
// relative p against cwd (itself taken as "/" when empty or relative).
func Clean(cwd, p string) string {
	if !strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(cwd, "/") {
			cwd = "/" + cwd
		}
		p = cwd + "/" + p
	}
	return path.Clean(p)
}

// Split returns the components of a cleaned absolute path ("/" has none).
func split(clean string) []string {
	if clean == "/" {
		return nil
	}
	return strings.Split(clean[1:], "/")
}

// loc is where a path leads: the FS that owns the final name (after
// crossing mounts), the node if it exists, and its parent directory.
type loc struct {
	fs     *FS
	path   string // the path inside fs
	node   *node  // nil when the last component does not exist
	parent *node  // nil for a root
	name   string // last component inside fs
	// mountPoint: the last component is where another FS is mounted, so it
	// cannot be removed or renamed from here.
	mountPoint bool
}

// walk resolves name. The last component may be missing (loc.node nil,
// parent set), but every earlier one must be an existing directory.
func (f *FS) walk(name string) (loc, error) {
	f.materialize()
	if len(name) > maxPathLen {
		return loc{}, ErrNameTooLong
	}
	if name == "" {
		return loc{}, ErrNotExist
	}
	clean := Clean("/", name)
	cur, n, p := f, f.root, "/"
	var parent *node
	hops := 0
	mp := false
	// Components are read off clean in place, and while no mount has
	// taken the walk elsewhere p is a prefix of clean, so the paths on
	// the way are slices of it rather than new strings.
	inClean := true
	for rest, more := clean[1:], clean != "/"; more; {
		var c string
		c, rest, more = strings.Cut(rest, "/")
		if len(c) > maxNameLen {
			return loc{}, ErrNameTooLong
		}
		if !n.isDir() {
			return loc{}, ErrNotDir
		}
		child := n.child(c)
		var cp string
		if inClean {
			// c ends where the rest, and the slash before it, begin.
			end := len(clean) - len(rest)
			if more {
				end--
			}
			cp = clean[:end]
		} else {
			cp = path.Join(p, c)
		}
		last := !more
		if child == nil {
			if last {
				return loc{fs: cur, path: cp, parent: n, name: c}, nil
			}
			return loc{}, ErrNotExist
		}
		parent, n, p, mp = n, child, cp, false
		for {
			m := cur.mountAt(p)
			if m == nil {
				break
			}
			if hops++; hops > maxHops {
				return loc{}, ErrLoop
			}
			src, err := m.src.lookup(m.srcPath)
			if err != nil {
				return loc{}, err
			}
			cur, n, p, mp = m.src, src, m.srcPath, true
			inClean = false
		}
	}
	_, base := path.Split(p)
	return loc{fs: cur, path: p, node: n, parent: parent, name: base, mountPoint: mp}, nil
}

// lookup finds an existing node by a clean absolute path inside f
// (used for a mount's source, which may itself sit under a mount).
func (f *FS) lookup(clean string) (*node, error) {
	l, err := f.walk(clean)
	if err != nil {
		return nil, err
	}
	if l.node == nil {
		return nil, ErrNotExist
	}
	return l.node, nil
}

// existing resolves name and requires it to exist.
func (f *FS) existing(op, name string) (loc, error) {
	l, err := f.walk(name)
	if err != nil {
		return l, perr(op, name, err)
	}
	if l.node == nil {
		return l, perr(op, name, ErrNotExist)
	}
	return l, nil
}

// FileInfo describes a file; it implements fs.FileInfo.
type FileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	// Nlink is the link count `ls -l` shows (2 + subdirectories for a directory).
	Nlink int
}

func (i FileInfo) Name() string       { return i.name }
func (i FileInfo) Size() int64        { return i.size }
func (i FileInfo) Mode() fs.FileMode  { return i.mode }
func (i FileInfo) ModTime() time.Time { return i.mtime }
func (i FileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i FileInfo) Sys() any           { return nil }

func infoOf(name string, n *node) FileInfo {
	fi := FileInfo{name: name, mode: n.mode, mtime: n.mtime, Nlink: 1}
	if n.isDir() {
		fi.size = 4096
		fi.Nlink = 2
		for _, c := range n.children {
			if c.n.isDir() {
				fi.Nlink++
			}
		}
	} else {
		fi.size = int64(len(n.data))
	}
	return fi
}
