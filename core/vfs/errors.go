package vfs

import (
	"errors"
	"io/fs"
)

// Errno is a POSIX error whose text is the one coreutils and busybox print
// (strerror's wording), so tools can write `cat: /x: No such file or directory`.
type Errno string

func (e Errno) Error() string { return string(e) }

// Is lets errors.Is(err, fs.ErrNotExist) and friends work on vfs errors.
func (e Errno) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e == ErrNotExist
	case fs.ErrExist:
		return e == ErrExist
	case fs.ErrPermission:
		return e == ErrPermission
	case fs.ErrInvalid:
		return e == ErrInvalid
	}
	return false
}

// The errors an operation can fail with; their text is strerror's.
const (
	ErrNotExist    Errno = "No such file or directory"
	ErrExist       Errno = "File exists"
	ErrNotDir      Errno = "Not a directory"
	ErrIsDir       Errno = "Is a directory"
	ErrNotEmpty    Errno = "Directory not empty"
	ErrBusy        Errno = "Device or resource busy"
	ErrXDev        Errno = "Invalid cross-device link"
	ErrInvalid     Errno = "Invalid argument"
	ErrPermission  Errno = "Permission denied"
	ErrNoSpace     Errno = "No space left on device"
	ErrLoop        Errno = "Too many levels of symbolic links"
	ErrNameTooLong Errno = "File name too long"
	ErrBadFD       Errno = "Bad file descriptor"
)

// PathError records the operation and the path as the caller gave it.
type PathError struct {
	Op   string
	Path string
	Err  error
}

// Error reads like the tail of a coreutils message: "/x: No such file or directory".
func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *PathError) Unwrap() error { return e.Err }

// Reason is the strerror part of err ("No such file or directory"), for
// tools that print the path the user typed rather than the resolved one.
func Reason(err error) string {
	var pe *PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var en Errno
	if errors.As(err, &en) {
		return string(en)
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func perr(op, path string, err error) error {
	return &PathError{Op: op, Path: path, Err: err}
}
