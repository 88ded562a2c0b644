package shell

import (
	"bytes"
	"io"
	"strings"

	"kubeplay/core/vfs"
)

// closedFD stands for a descriptor closed with >&-.
type closedFD struct{}

func (closedFD) Write([]byte) (int, error) { return 0, vfs.ErrBadFD }
func (closedFD) Read([]byte) (int, error)  { return 0, vfs.ErrBadFD }

// redirect applies redirections in order and returns the streams the
// command gets, a function closing what was opened, and false (after
// reporting) when one failed, in which case the command does not run.
func (s *Shell) redirect(rs []*redir, st streams) (streams, func(), bool) {
	if len(rs) == 0 {
		return st, func() {}, true
	}
	var opened []*vfs.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	fail := func() (streams, func(), bool) {
		closeAll()
		return st, func() {}, false
	}
	out := st
	setW := func(fd int, w io.Writer) {
		switch fd {
		case 1:
			out.out = w
		case 2:
			out.err = w
		}
	}
	getW := func(fd int) (io.Writer, bool) {
		switch fd {
		case 1:
			return out.out, true
		case 2:
			return out.err, true
		}
		return nil, false
	}
	for _, r := range rs {
		fd := r.fd
		if fd < 0 {
			fd = 1
			if strings.HasPrefix(r.op, "<") {
				fd = 0
			}
		}
		switch r.op {
		case "<<", "<<-":
			body, err := s.expandString(r.hdoc, st)
			if err != nil {
				s.expandFailed(err, st)
				return fail()
			}
			if fd == 0 {
				out.in = strings.NewReader(body)
			}
			continue
		case "<<<":
			text, err := s.expandString(r.target, st)
			if err != nil {
				s.expandFailed(err, st)
				return fail()
			}
			if fd == 0 {
				out.in = strings.NewReader(text + "\n")
			}
			continue
		}
		target, ok := s.redirTarget(r.target, st)
		if !ok {
			return fail()
		}
		switch r.op {
		case ">&", "<&":
			if target == "-" {
				if fd == 0 {
					out.in = closedFD{}
				} else {
					setW(fd, closedFD{})
				}
				continue
			}
			if isDigits(target) {
				src := int(target[0] - '0')
				if len(target) > 1 {
					src = 99
				}
				if fd == 0 || r.op == "<&" {
					if src != 0 {
						s.errorf(st, "%s: Bad file descriptor", target)
						return fail()
					}
					continue
				}
				w, ok := getW(src)
				if !ok {
					s.errorf(st, "%s: Bad file descriptor", target)
					return fail()
				}
				setW(fd, w)
				continue
			}
			if r.op == "<&" {
				s.errorf(st, "%s: ambiguous redirect", r.target.raw)
				return fail()
			}
			// >&file sends both stdout and stderr to file, like &>.
			w, f, ok := s.openOut(target, false, st, &out)
			if !ok {
				return fail()
			}
			if f != nil {
				opened = append(opened, f)
			}
			out.out, out.err = w, w
		case ">", ">|", ">>", "&>", "&>>":
			appendTo := r.op == ">>" || r.op == "&>>"
			w, f, ok := s.openOut(target, appendTo, st, &out)
			if !ok {
				return fail()
			}
			if f != nil {
				opened = append(opened, f)
			}
			if strings.HasPrefix(r.op, "&") {
				out.out, out.err = w, w
			} else {
				setW(fd, w)
			}
		case "<", "<>":
			var rd io.Reader
			switch target {
			case "/dev/null":
				rd = bytes.NewReader(nil)
			case "/dev/stdin":
				rd = out.in
			default:
				flag := vfs.O_RDONLY
				if r.op == "<>" {
					flag = vfs.O_RDWR | vfs.O_CREATE
				}
				f, err := s.FS.OpenFile(vfs.Clean(s.Cwd, target), flag, 0o644)
				if err == nil {
					if fi, _ := f.Stat(); fi.IsDir() {
						f.Close()
						err = vfs.ErrIsDir
					}
				}
				if err != nil {
					s.errorf(st, "%s: %s", target, vfs.Reason(err))
					return fail()
				}
				opened = append(opened, f)
				rd = f
			}
			if fd == 0 {
				out.in = rd
			}
		}
	}
	return out, closeAll, true
}

// redirTarget expands a redirection's file name, which must be one word.
func (s *Shell) redirTarget(w *word, st streams) (string, bool) {
	fields, err := s.expandWords([]*word{w}, st)
	if err != nil {
		s.expandFailed(err, st)
		return "", false
	}
	if len(fields) != 1 {
		s.errorf(st, "%s: ambiguous redirect", w.raw)
		return "", false
	}
	if fields[0] == "" {
		s.errorf(st, ": No such file or directory")
		return "", false
	}
	return fields[0], true
}

// openOut opens a file for output (special /dev names included).
func (s *Shell) openOut(target string, appendTo bool, st streams, cur *streams) (io.Writer, *vfs.File, bool) {
	switch target {
	case "/dev/null":
		return io.Discard, nil, true
	case "/dev/stdout", "/dev/tty":
		return cur.out, nil, true
	case "/dev/stderr":
		return cur.err, nil, true
	}
	flag := vfs.O_WRONLY | vfs.O_CREATE
	if appendTo {
		flag |= vfs.O_APPEND
	} else {
		flag |= vfs.O_TRUNC
	}
	f, err := s.FS.OpenFile(vfs.Clean(s.Cwd, target), flag, 0o644)
	if err != nil {
		s.errorf(st, "%s: %s", target, vfs.Reason(err))
		return nil, nil, false
	}
	return f, f, true
}
