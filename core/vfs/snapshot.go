package vfs

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"
)

// Snapshot is a whole FS as plain data (JSON-friendly): every directory and
// file in sorted path order, and the mounts by source name. Mounted content
// belongs to its source FS and is not copied.
type Snapshot struct {
	MaxBytes int64           `json:"maxBytes,omitempty"`
	Entries  []SnapshotEntry `json:"entries"`
	Mounts   []SnapshotMount `json:"mounts,omitempty"`
}

// SnapshotEntry is one directory or file. Content is Text when it is UTF-8
// (readable in a saved session), Base64 otherwise.
type SnapshotEntry struct {
	Path    string    `json:"path"`
	Dir     bool      `json:"dir,omitempty"`
	Mode    uint32    `json:"mode"`
	ModTime time.Time `json:"mtime"`
	Text    string    `json:"text,omitempty"`
	Base64  string    `json:"base64,omitempty"`
}

// SnapshotMount is a mount; Source is the source FS's Name.
type SnapshotMount struct {
	Target     string `json:"target"`
	Source     string `json:"source"`
	SourcePath string `json:"sourcePath"`
}

// Snapshot captures f. The root directory is the first entry.
func (f *FS) Snapshot() Snapshot {
	f.materialize()
	s := Snapshot{MaxBytes: f.MaxBytes}
	f.snap(&s, "/", f.root, 0)
	for _, m := range f.Mounts() {
		s.Mounts = append(s.Mounts, SnapshotMount{Target: m.Target, Source: m.Source.Name, SourcePath: m.SourcePath})
	}
	return s
}

func (f *FS) snap(s *Snapshot, p string, n *node, depth int) {
	e := SnapshotEntry{Path: p, Dir: n.isDir(), Mode: uint32(n.mode.Perm()), ModTime: n.mtime}
	if !n.isDir() {
		if utf8.Valid(n.data) {
			e.Text = string(n.data)
		} else {
			e.Base64 = base64.StdEncoding.EncodeToString(n.data)
		}
	}
	s.Entries = append(s.Entries, e)
	if depth > maxDepth {
		return
	}
	for _, c := range n.children {
		cp := strings.TrimSuffix(p, "/") + "/" + c.name
		f.snap(s, cp, c.n, depth+1)
	}
}

// Restore rebuilds an FS from a snapshot. lookup finds a mount's source FS
// by name; with a nil lookup, or for a name it does not know, the mount is
// dropped (the directory below stays). Bad entries are rejected whole.
func Restore(s Snapshot, lookup func(name string) *FS) (*FS, error) {
	f := New()
	f.MaxBytes = s.MaxBytes
	for i, e := range s.Entries {
		if !strings.HasPrefix(e.Path, "/") || Clean("/", e.Path) != e.Path {
			return nil, fmt.Errorf("vfs: snapshot entry %d: path %q is not clean and absolute", i, e.Path)
		}
		mode := fs.FileMode(e.Mode).Perm()
		if e.Path == "/" {
			if !e.Dir {
				return nil, fmt.Errorf("vfs: snapshot entry %d: the root must be a directory", i)
			}
			f.root.mode, f.root.mtime = fs.ModeDir|mode, e.ModTime
			continue
		}
		l, err := f.walk(e.Path)
		if err != nil || l.node != nil {
			return nil, fmt.Errorf("vfs: snapshot entry %d: cannot create %s (parent missing or duplicate)", i, e.Path)
		}
		n := &node{mode: mode, mtime: e.ModTime}
		if e.Dir {
			n.mode |= fs.ModeDir
		} else {
			n.data = []byte(e.Text)
			if e.Base64 != "" {
				b, err := base64.StdEncoding.DecodeString(e.Base64)
				if err != nil {
					return nil, fmt.Errorf("vfs: snapshot entry %d: %v", i, err)
				}
				n.data = b
			}
			if err := f.grow(int64(len(n.data))); err != nil {
				return nil, fmt.Errorf("vfs: snapshot entry %d: %v", i, err)
			}
		}
		l.parent.setChild(l.name, n)
	}
	for _, m := range s.Mounts {
		if lookup == nil {
			break
		}
		src := lookup(m.Source)
		if src == nil {
			continue
		}
		if err := f.Mount(m.Target, src, m.SourcePath); err != nil {
			return nil, fmt.Errorf("vfs: snapshot mount %s: %v", m.Target, err)
		}
	}
	return f, nil
}
