// Package lessons holds the guided lessons, one folder each. The kubeplay
// command embeds them (FS); the page does not carry them in its
// WebAssembly: the engine's worker fetches them as one bundle
// (dist/lessons.bin, which tools/lessonpack writes from FS) while the
// engine starts, and the page asks for them only once it is ready.
package lessons

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// Pack writes the page's bundle and Unpack reads it back as a file system
// like FS. The format: the number of files, then each file's path and
// content, each an unsigned varint length and the bytes, paths in order.

// Pack bundles every file of fsys.
func Pack(fsys fs.FS) ([]byte, error) {
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out := binary.AppendUvarint(nil, uint64(len(paths)))
	for _, p := range paths {
		if !plainPath(p) {
			return nil, fmt.Errorf("lesson file %q: name it with letters, digits, '.', '_' and '-' only", p)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(out, p...)
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out, nil
}

// Unpack reads a bundle Pack wrote.
func Unpack(b []byte) (fs.FS, error) {
	r := bytes.NewReader(b)
	field := func() ([]byte, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(r.Len()) {
			return nil, errors.New("the lesson bundle is cut short")
		}
		v := make([]byte, n)
		_, err = io.ReadFull(r, v)
		return v, err
	}
	count, err := binary.ReadUvarint(r)
	if err != nil || count > uint64(len(b)) {
		return nil, errors.New("the lesson bundle is cut short")
	}
	files := bundle{}
	for range count {
		p, err := field()
		if err != nil {
			return nil, err
		}
		content, err := field()
		if err != nil {
			return nil, err
		}
		name := string(p)
		if !plainPath(name) {
			return nil, fmt.Errorf("the lesson bundle has a bad path %q", name)
		}
		if _, dup := files[name]; dup {
			return nil, fmt.Errorf("the lesson bundle has %s twice", name)
		}
		files[name] = content
	}
	if r.Len() != 0 {
		return nil, errors.New("the lesson bundle has bytes after its last file")
	}
	for name := range files {
		for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
			if _, clash := files[dir]; clash {
				return nil, fmt.Errorf("the lesson bundle has %s as a file and a folder", dir)
			}
		}
	}
	return files, nil
}

// plainPath reports whether p is a valid fs path whose names use only
// letters, digits, '.', '_' and '-'. Lesson files need no more, and a
// backslash or a glob character would read differently on another system
// or to fs.Glob.
func plainPath(p string) bool {
	if !fs.ValidPath(p) || p == "." {
		return false
	}
	for _, c := range p {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '-' || c == '/'
		if !ok {
			return false
		}
	}
	return true
}

// bundle is an unpacked bundle: file contents by path. Folders are the
// paths' prefixes.
type bundle map[string][]byte

func (b bundle) Open(name string) (fs.File, error) {
	fi, err := b.Stat(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if fi.IsDir() {
		entries, _ := b.ReadDir(name)
		return &dir{info: fi, entries: entries}, nil
	}
	return &file{info: fi, Reader: bytes.NewReader(b[name])}, nil
}

func (b bundle) ReadFile(name string) ([]byte, error) {
	content, ok := b[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return bytes.Clone(content), nil
}

func (b bundle) Stat(name string) (fs.FileInfo, error) {
	if content, ok := b[name]; ok {
		return info{name: path.Base(name), size: int64(len(content))}, nil
	}
	if b.isDir(name) {
		return info{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (b bundle) ReadDir(name string) ([]fs.DirEntry, error) {
	if !b.isDir(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for p := range b {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		child, _, deeper := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		if deeper {
			out = append(out, fs.FileInfoToDirEntry(info{name: child, dir: true}))
		} else {
			out = append(out, fs.FileInfoToDirEntry(info{name: child, size: int64(len(b[p]))}))
		}
	}
	slices.SortFunc(out, func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	return out, nil
}

func (b bundle) isDir(name string) bool {
	if name == "." {
		return true
	}
	if !fs.ValidPath(name) {
		return false
	}
	for p := range b {
		if strings.HasPrefix(p, name+"/") {
			return true
		}
	}
	return false
}

type file struct {
	info fs.FileInfo
	*bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type dir struct {
	info    fs.FileInfo
	entries []fs.DirEntry // those ReadDir has not returned yet
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a directory")}
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n]
	d.entries = d.entries[n:]
	return out, nil
}

type info struct {
	name string
	size int64
	dir  bool
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.size }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.dir }
func (i info) Sys() any           { return nil }
func (i info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
