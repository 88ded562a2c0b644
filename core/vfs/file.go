package vfs

import (
	"io"
	"io/fs"
)

// Open flags, as open(2)'s.
const (
	O_RDONLY = 0x0
	O_WRONLY = 0x1
	O_RDWR   = 0x2
	O_APPEND = 0x400
	O_CREATE = 0x40
	O_EXCL   = 0x80
	O_TRUNC  = 0x200
)

// File is an open file: reads and writes go straight to the stored content,
// so a shell redirection and a reader see each other's bytes as they happen.
type File struct {
	fs     *FS
	n      *node
	name   string
	off    int64
	flag   int
	closed bool
}

// Open opens name for reading.
func (f *FS) Open(name string) (*File, error) { return f.OpenFile(name, O_RDONLY, 0) }

// Create truncates or creates name for writing.
func (f *FS) Create(name string) (*File, error) {
	return f.OpenFile(name, O_RDWR|O_CREATE|O_TRUNC, defaultPerm)
}

// OpenFile opens name with open(2)'s flags; perm applies to a new file.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (*File, error) {
	l, err := f.walk(name)
	if err != nil {
		return nil, perr("open", name, err)
	}
	if l.node != nil && flag&(O_CREATE|O_EXCL) == O_CREATE|O_EXCL {
		return nil, perr("open", name, ErrExist)
	}
	if l.node != nil && l.node.isDir() {
		if flag&(O_WRONLY|O_RDWR) != 0 {
			return nil, perr("open", name, ErrIsDir)
		}
		return &File{fs: l.fs, n: l.node, name: name, flag: flag}, nil
	}
	n, owner, err := f.openNode(name, perm, flag&O_CREATE != 0)
	if err != nil {
		return nil, err
	}
	if flag&O_TRUNC != 0 && flag&(O_WRONLY|O_RDWR) != 0 {
		owner.used -= int64(len(n.data))
		n.data, n.shared = nil, false
		n.mtime = owner.now()
	}
	return &File{fs: owner, n: n, name: name, flag: flag}, nil
}

// Name is the name the file was opened as.
func (fl *File) Name() string { return fl.name }

// Read reads from the current offset.
func (fl *File) Read(p []byte) (int, error) {
	if fl.closed || fl.flag&O_WRONLY != 0 {
		return 0, perr("read", fl.name, ErrBadFD)
	}
	if fl.n.isDir() {
		return 0, perr("read", fl.name, ErrIsDir)
	}
	if fl.off >= int64(len(fl.n.data)) {
		return 0, io.EOF
	}
	k := copy(p, fl.n.data[fl.off:])
	fl.off += int64(k)
	return k, nil
}

// Write writes at the offset (at the end with O_APPEND), growing the file.
func (fl *File) Write(p []byte) (int, error) {
	if fl.closed || fl.flag&(O_WRONLY|O_RDWR) == 0 {
		return 0, perr("write", fl.name, ErrBadFD)
	}
	if fl.flag&O_APPEND != 0 {
		fl.off = int64(len(fl.n.data))
	}
	end := fl.off + int64(len(p))
	fl.n.own()
	if grow := end - int64(len(fl.n.data)); grow > 0 {
		if err := fl.fs.grow(grow); err != nil {
			return 0, perr("write", fl.name, err)
		}
		fl.n.data = append(fl.n.data, make([]byte, grow)...)
	}
	copy(fl.n.data[fl.off:], p)
	fl.off = end
	fl.n.mtime = fl.fs.now()
	return len(p), nil
}

// Seek moves the offset (whence as in io.Seeker).
func (fl *File) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += fl.off
	case io.SeekEnd:
		offset += int64(len(fl.n.data))
	default:
		return 0, perr("seek", fl.name, ErrInvalid)
	}
	if offset < 0 {
		return 0, perr("seek", fl.name, ErrInvalid)
	}
	fl.off = offset
	return offset, nil
}

// Stat describes the open file.
func (fl *File) Stat() (FileInfo, error) { return infoOf(fl.name, fl.n), nil }

// Close ends use of the handle.
func (fl *File) Close() error {
	if fl.closed {
		return perr("close", fl.name, ErrBadFD)
	}
	fl.closed = true
	return nil
}
