package shell

import (
	"regexp"
	"strconv"
	"strings"

	"kubeplay/core/vfs"
)

// test / [ and [[ ]]: file tests, string and integer comparisons.

type testError struct{ msg string }

func (e *testError) Error() string { return e.msg }

func isUnaryTest(op string) bool {
	switch op {
	case "-e", "-a", "-f", "-d", "-s", "-r", "-w", "-x", "-z", "-n", "-L", "-h", "-b", "-c", "-p", "-S", "-t", "-O", "-G", "-N", "-v", "-g", "-u", "-k":
		return true
	}
	return false
}

func isBinaryTest(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// unaryTest applies a unary test operator.
func (s *Shell) unaryTest(op, arg string) bool {
	switch op {
	case "-z":
		return arg == ""
	case "-n":
		return arg != ""
	case "-v":
		_, ok := s.lookupParam(arg)
		return ok
	case "-t":
		return false
	}
	if arg == "" {
		return false
	}
	switch arg {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return op == "-e" || op == "-a" || op == "-c" || op == "-r" || op == "-w"
	}
	fi, err := s.FS.Stat(vfs.Clean(s.Cwd, arg))
	if err != nil {
		return false
	}
	switch op {
	case "-e", "-a", "-r", "-w", "-O", "-G":
		return true
	case "-f":
		return !fi.IsDir()
	case "-d":
		return fi.IsDir()
	case "-s":
		return fi.Size() > 0 && !fi.IsDir() || fi.IsDir()
	case "-x":
		return fi.IsDir() || fi.Mode().Perm()&0o111 != 0
	}
	return false
}

func testInt(s string) (int64, error) {
	t := strings.TrimSpace(s)
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, &testError{msg: s + ": integer expression expected"}
	}
	return v, nil
}

// binaryTest applies a binary operator; ints says operands of -eq etc. are
// already numbers (in [[ ]] they are arithmetic expressions).
func (s *Shell) binaryTest(l, op, r string) (bool, error) {
	switch op {
	case "=", "==":
		return l == r, nil
	case "!=":
		return l != r, nil
	case "<":
		return l < r, nil
	case ">":
		return l > r, nil
	case "-nt", "-ot":
		a, errA := s.FS.Stat(vfs.Clean(s.Cwd, l))
		b, errB := s.FS.Stat(vfs.Clean(s.Cwd, r))
		if op == "-nt" {
			return errA == nil && (errB != nil || a.ModTime().After(b.ModTime())), nil
		}
		return errB == nil && (errA != nil || a.ModTime().Before(b.ModTime())), nil
	case "-ef":
		return vfs.Clean(s.Cwd, l) == vfs.Clean(s.Cwd, r) && s.FS.Exists(vfs.Clean(s.Cwd, l)), nil
	}
	x, err := testInt(l)
	if err != nil {
		return false, err
	}
	y, err := testInt(r)
	if err != nil {
		return false, err
	}
	return intCompare(op, x, y), nil
}

func intCompare(op string, x, y int64) bool {
	switch op {
	case "-eq":
		return x == y
	case "-ne":
		return x != y
	case "-lt":
		return x < y
	case "-le":
		return x <= y
	case "-gt":
		return x > y
	case "-ge":
		return x >= y
	}
	return false
}

// testArgs evaluates test's arguments with POSIX's rules by count, then a
// general parser for -a, -o, ! and parentheses.
func (s *Shell) testArgs(a []string) (bool, error) {
	switch len(a) {
	case 0:
		return false, nil
	case 1:
		return a[0] != "", nil
	case 2:
		if a[0] == "!" {
			return a[1] == "", nil
		}
		if isUnaryTest(a[0]) {
			return s.unaryTest(a[0], a[1]), nil
		}
		return false, &testError{msg: a[0] + ": unary operator expected"}
	case 3:
		if isBinaryTest(a[1]) {
			return s.binaryTest(a[0], a[1], a[2])
		}
		if a[1] == "-a" || a[1] == "-o" {
			break
		}
		if a[0] == "!" {
			v, err := s.testArgs(a[1:])
			return !v, err
		}
		if a[0] == "(" && a[2] == ")" {
			return a[1] != "", nil
		}
		return false, &testError{msg: a[1] + ": binary operator expected"}
	case 4:
		if a[0] == "!" {
			v, err := s.testArgs(a[1:])
			return !v, err
		}
		if a[0] == "(" && a[3] == ")" {
			return s.testArgs(a[1:3])
		}
	}
	t := &testParser{s: s, args: a}
	v, err := t.or()
	if err == nil && t.pos < len(a) {
		err = &testError{msg: "too many arguments"}
	}
	return v, err
}

type testParser struct {
	s    *Shell
	args []string
	pos  int
	nest int
}

func (t *testParser) peek() string {
	if t.pos < len(t.args) {
		return t.args[t.pos]
	}
	return ""
}

func (t *testParser) or() (bool, error) {
	v, err := t.and()
	for err == nil && t.peek() == "-o" {
		t.pos++
		var r bool
		r, err = t.and()
		v = v || r
	}
	return v, err
}

func (t *testParser) and() (bool, error) {
	v, err := t.not()
	for err == nil && t.peek() == "-a" {
		t.pos++
		var r bool
		r, err = t.not()
		v = v && r
	}
	return v, err
}

func (t *testParser) not() (bool, error) {
	if t.nest++; t.nest > maxNesting {
		return false, &testError{msg: "expression nesting too deep"}
	}
	defer func() { t.nest-- }()
	if t.peek() == "!" && t.pos+1 < len(t.args) {
		t.pos++
		v, err := t.not()
		return !v, err
	}
	return t.primary()
}

func (t *testParser) primary() (bool, error) {
	if t.pos >= len(t.args) {
		return false, &testError{msg: "argument expected"}
	}
	a := t.args[t.pos]
	if a == "(" {
		t.pos++
		v, err := t.or()
		if err != nil {
			return false, err
		}
		if t.peek() != ")" {
			return false, &testError{msg: "`)' expected"}
		}
		t.pos++
		return v, nil
	}
	if t.pos+2 < len(t.args)+0 && isBinaryTest(t.args[t.pos+1]) {
		l, op, r := a, t.args[t.pos+1], t.args[t.pos+2]
		t.pos += 3
		return t.s.binaryTest(l, op, r)
	}
	if isUnaryTest(a) && t.pos+1 < len(t.args) {
		t.pos += 2
		return t.s.unaryTest(a, t.args[t.pos-1]), nil
	}
	t.pos++
	return a != "", nil
}

// testCmd is test and [.
func testCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	if ctx.Name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			s.errorf(streams{err: ctx.Stderr}, "[: missing `]'")
			return 2
		}
		args = args[:len(args)-1]
	}
	v, err := s.testArgs(args)
	if err != nil {
		s.errorf(streams{err: ctx.Stderr}, "%s: %s", ctx.Name, err.Error())
		return 2
	}
	if v {
		return 0
	}
	return 1
}

// execCond runs [[ ]].
func (s *Shell) execCond(c *condCmd, st streams) int {
	if !s.step(st) {
		return s.status
	}
	s.lineno = c.line
	v, err := s.evalCond(c.expr, st)
	if err != nil {
		var ee *expandError
		if asExpand(err, &ee) {
			return s.expandFailed(err, st)
		}
		s.errorf(st, "%s", err.Error())
		return 2
	}
	if v {
		return 0
	}
	return 1
}

func asExpand(err error, target **expandError) bool {
	e, ok := err.(*expandError)
	if ok {
		*target = e
	}
	return ok
}

func (s *Shell) evalCond(e *condExpr, st streams) (bool, error) {
	switch e.op {
	case "&&":
		l, err := s.evalCond(e.left, st)
		if err != nil || !l {
			return false, err
		}
		return s.evalCond(e.right, st)
	case "||":
		l, err := s.evalCond(e.left, st)
		if err != nil || l {
			return l, err
		}
		return s.evalCond(e.right, st)
	case "!":
		v, err := s.evalCond(e.left, st)
		return !v, err
	case "()":
		return s.evalCond(e.left, st)
	}
	w := e.words
	opOf := func(i int) string {
		if e.ops[i] != "" {
			return e.ops[i]
		}
		t, _ := w[i].litText()
		return t
	}
	switch len(w) {
	case 1:
		v, err := s.expandString(w[0], st)
		return v != "", err
	case 2:
		op := opOf(0)
		if !isUnaryTest(op) {
			return false, &testError{msg: "conditional binary operator expected"}
		}
		v, err := s.expandString(w[1], st)
		if err != nil {
			return false, err
		}
		return s.unaryTest(op, v), nil
	case 3:
		op := opOf(1)
		l, err := s.expandString(w[0], st)
		if err != nil {
			return false, err
		}
		switch op {
		case "==", "=", "!=":
			pat, err := s.expandPattern(w[2], st)
			if err != nil {
				return false, err
			}
			m := globMatch(pat, l)
			if op == "!=" {
				return !m, nil
			}
			return m, nil
		case "=~":
			r, err := s.expandString(w[2], st)
			if err != nil {
				return false, err
			}
			re, cerr := regexp.Compile(r)
			if cerr != nil {
				return false, &testError{msg: "invalid regular expression `" + r + "'"}
			}
			m := re.FindString(l)
			if re.MatchString(l) {
				s.setVar("BASH_REMATCH", m)
				return true, nil
			}
			return false, nil
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			r, err := s.expandString(w[2], st)
			if err != nil {
				return false, err
			}
			x, err := s.arith(l, 0)
			if err != nil {
				return false, err
			}
			y, err := s.arith(r, 0)
			if err != nil {
				return false, err
			}
			return intCompare(op, x, y), nil
		}
		if !isBinaryTest(op) {
			return false, &testError{msg: "syntax error in conditional expression"}
		}
		r, err := s.expandString(w[2], st)
		if err != nil {
			return false, err
		}
		return s.binaryTest(l, op, r)
	}
	return false, &testError{msg: "syntax error in conditional expression"}
}
