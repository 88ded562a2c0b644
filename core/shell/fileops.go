package shell

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/vfs"
)

// File commands on the vfs, as GNU coreutils words them: mkdir, rmdir,
// rm, touch, cp, mv, chmod and stat.

func missingOperand(ctx *Context) int {
	fmt.Fprintf(ctx.Stderr, "%s: missing operand\n", ctx.Name)
	tryHelp(ctx)
	return 1
}

func mkdirCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "pvm:", long: map[string]longOpt{
		"parents": {short: "p"}, "verbose": {short: "v"}, "mode": {short: "m", arg: reqArg},
	}})
	if !ok {
		return 1
	}
	parents, verbose := false, false
	perm := fs.FileMode(0o755)
	for _, o := range opts {
		switch o.name {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "m":
			m, ok := parseMode(o.val, 0o777, true)
			if !ok {
				fmt.Fprintf(ctx.Stderr, "mkdir: invalid mode ‘%s’\n", o.val)
				return 1
			}
			perm = m
		}
	}
	if len(operands) == 0 {
		return missingOperand(ctx)
	}
	code := 0
	for _, d := range operands {
		p := ctx.Abs(d)
		if parents {
			// Report each directory created, as mkdir -pv does.
			var created []string
			cur := ""
			for _, c := range strings.Split(strings.Trim(p, "/"), "/") {
				cur += "/" + c
				if !ctx.FS.Exists(cur) {
					created = append(created, cur)
				}
			}
			if err := ctx.FS.MkdirAll(p, perm); err != nil {
				fmt.Fprintf(ctx.Stderr, "mkdir: cannot create directory ‘%s’: %s\n", mkdirCulprit(ctx, d, err), vfs.Reason(err))
				code = 1
				continue
			}
			if verbose {
				for _, c := range created {
					rel := d
					if rest := strings.TrimPrefix(p, c); rest != "" {
						rel = strings.TrimSuffix(d, rest)
					}
					fmt.Fprintf(ctx.Stdout, "mkdir: created directory '%s'\n", rel)
				}
			}
			continue
		}
		if err := ctx.FS.Mkdir(p, perm); err != nil {
			fmt.Fprintf(ctx.Stderr, "mkdir: cannot create directory ‘%s’: %s\n", mkdirCulprit(ctx, d, err), vfs.Reason(err))
			code = 1
			continue
		}
		if verbose {
			fmt.Fprintf(ctx.Stdout, "mkdir: created directory '%s'\n", d)
		}
	}
	return code
}

// mkdirCulprit is the prefix of d that mkdir -p failed on: a file in the
// way of a parent reads "cannot create directory 'a/file'".
func mkdirCulprit(ctx *Context, d string, err error) string {
	if vfs.Reason(err) != string(vfs.ErrNotDir) {
		return d
	}
	parts := strings.Split(d, "/")
	for i := 1; i <= len(parts); i++ {
		prefix := strings.Join(parts[:i], "/")
		if prefix == "" {
			continue
		}
		if fi, err := ctx.FS.Stat(ctx.Abs(prefix)); err == nil && !fi.IsDir() {
			return prefix
		}
	}
	return d
}

func rmdirCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "pv", long: map[string]longOpt{
		"parents": {short: "p"}, "verbose": {short: "v"}, "ignore-fail-on-non-empty": {},
	}})
	if !ok {
		return 1
	}
	parents, verbose, ignore := false, false, false
	for _, o := range opts {
		switch o.name {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "ignore-fail-on-non-empty":
			ignore = true
		}
	}
	if len(operands) == 0 {
		return missingOperand(ctx)
	}
	code := 0
	for _, d := range operands {
		names := []string{d}
		if parents {
			for p := path.Dir(strings.TrimRight(d, "/")); p != "." && p != "/"; p = path.Dir(p) {
				names = append(names, p)
			}
		}
		for _, n := range names {
			p := ctx.Abs(n)
			if verbose {
				fmt.Fprintf(ctx.Stdout, "rmdir: removing directory, '%s'\n", n)
			}
			fi, err := ctx.FS.Stat(p)
			if err == nil && !fi.IsDir() {
				err = vfs.ErrNotDir
			}
			if err == nil {
				err = ctx.FS.Remove(p)
			}
			if err != nil {
				if ignore && vfs.Reason(err) == string(vfs.ErrNotEmpty) {
					break
				}
				fmt.Fprintf(ctx.Stderr, "rmdir: failed to remove '%s': %s\n", n, vfs.Reason(err))
				code = 1
				break
			}
		}
	}
	return code
}

func rmCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "rRfidv", long: map[string]longOpt{
		"recursive": {short: "r"}, "force": {short: "f"}, "dir": {short: "d"}, "verbose": {short: "v"},
		"interactive": {arg: optArg}, "no-preserve-root": {}, "preserve-root": {arg: optArg},
	}})
	if !ok {
		return 1
	}
	recursive, force, dirs, verbose := false, false, false, false
	for _, o := range opts {
		switch o.name {
		case "r", "R":
			recursive = true
		case "f":
			force = true
		case "i":
			force = false
		case "d":
			dirs = true
		case "v":
			verbose = true
		}
	}
	if len(operands) == 0 {
		if force {
			return 0
		}
		return missingOperand(ctx)
	}
	code := 0
	for _, name := range operands {
		p := ctx.Abs(name)
		if p == "/" && recursive {
			fmt.Fprintln(ctx.Stderr, "rm: it is dangerous to operate recursively on '/'")
			fmt.Fprintln(ctx.Stderr, "rm: use --no-preserve-root to override this failsafe")
			code = 1
			continue
		}
		if base := path.Base(strings.TrimRight(name, "/")); recursive && (base == "." || base == "..") {
			fmt.Fprintf(ctx.Stderr, "rm: refusing to remove '.' or '..' directory: skipping '%s'\n", name)
			code = 1
			continue
		}
		fi, err := ctx.FS.Stat(p)
		if err != nil {
			if !force || vfs.Reason(err) != string(vfs.ErrNotExist) {
				fmt.Fprintf(ctx.Stderr, "rm: cannot remove '%s': %s\n", name, vfs.Reason(err))
				code = 1
			}
			continue
		}
		if fi.IsDir() && !recursive {
			if !dirs {
				fmt.Fprintf(ctx.Stderr, "rm: cannot remove '%s': Is a directory\n", name)
				code = 1
				continue
			}
			if err := ctx.FS.Remove(p); err != nil {
				fmt.Fprintf(ctx.Stderr, "rm: cannot remove '%s': %s\n", name, vfs.Reason(err))
				code = 1
			} else if verbose {
				fmt.Fprintf(ctx.Stdout, "removed directory '%s'\n", name)
			}
			continue
		}
		if verbose && fi.IsDir() {
			// List what goes, deepest first, as rm -rv does.
			var all []string
			_ = ctx.FS.Walk(p, func(q string, info vfs.FileInfo, err error) error {
				if err == nil {
					all = append(all, q)
				}
				return nil
			})
			for i := len(all) - 1; i >= 0; i-- {
				rel := name + strings.TrimPrefix(all[i], p)
				if info, err := ctx.FS.Stat(all[i]); err == nil && info.IsDir() {
					fmt.Fprintf(ctx.Stdout, "removed directory '%s'\n", rel)
				} else {
					fmt.Fprintf(ctx.Stdout, "removed '%s'\n", rel)
				}
			}
		}
		if err := ctx.FS.RemoveAll(p); err != nil {
			fmt.Fprintf(ctx.Stderr, "rm: cannot remove '%s': %s\n", name, vfs.Reason(err))
			code = 1
			continue
		}
		if verbose && !fi.IsDir() {
			fmt.Fprintf(ctx.Stdout, "removed '%s'\n", name)
		}
	}
	return code
}

func touchCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "acmd:t:r:", long: map[string]longOpt{
		"no-create": {short: "c"}, "date": {short: "d", arg: reqArg}, "reference": {short: "r", arg: reqArg},
	}})
	if !ok {
		return 1
	}
	noCreate := false
	var stamp *time.Time
	for _, o := range opts {
		switch o.name {
		case "c":
			noCreate = true
		case "d":
			t, ok := parseDate(o.val, ctx.Now().UTC())
			if !ok {
				fmt.Fprintf(ctx.Stderr, "touch: invalid date format ‘%s’\n", o.val)
				return 1
			}
			stamp = &t
		case "t":
			t, err := time.Parse("200601021504", o.val)
			if err != nil {
				t, err = time.Parse("200601021504.05", o.val)
			}
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "touch: invalid date format ‘%s’\n", o.val)
				return 1
			}
			stamp = &t
		case "r":
			fi, err := ctx.FS.Stat(ctx.Abs(o.val))
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "touch: failed to get attributes of '%s': %s\n", o.val, vfs.Reason(err))
				return 1
			}
			t := fi.ModTime()
			stamp = &t
		}
	}
	if len(operands) == 0 {
		fmt.Fprintln(ctx.Stderr, "touch: missing file operand")
		tryHelp(ctx)
		return 1
	}
	code := 0
	for _, f := range operands {
		p := ctx.Abs(f)
		if f == "-" {
			continue
		}
		if !ctx.FS.Exists(p) && noCreate {
			continue
		}
		err := ctx.FS.Touch(p)
		if err == nil && stamp != nil {
			err = ctx.FS.Chtimes(p, *stamp)
		}
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "touch: cannot touch '%s': %s\n", f, vfs.Reason(err))
			code = 1
		}
	}
	return code
}

// copyTree copies a file or (recursively) a directory from src to dst.
func copyTree(ctx *Context, src, dst string, depth int) error {
	fi, err := ctx.FS.Stat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		data, err := ctx.FS.ReadFile(src)
		if err != nil {
			return err
		}
		if err := ctx.FS.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			return err
		}
		return nil
	}
	if depth > 64 {
		return vfs.ErrLoop
	}
	if !ctx.FS.IsDir(dst) {
		if err := ctx.FS.Mkdir(dst, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	infos, err := ctx.FS.ReadDir(src)
	if err != nil {
		return err
	}
	for _, c := range infos {
		if err := copyTree(ctx, path.Join(src, c.Name()), path.Join(dst, c.Name()), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func cpCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "rRaipfvnTt:", long: map[string]longOpt{
		"recursive": {short: "r"}, "archive": {short: "a"}, "force": {short: "f"}, "verbose": {short: "v"},
		"no-clobber": {short: "n"}, "target-directory": {short: "t", arg: reqArg}, "no-target-directory": {short: "T"},
		"preserve": {arg: optArg},
	}})
	if !ok {
		return 1
	}
	recursive, verbose, noClobber, noTarget := false, false, false, false
	target := ""
	for _, o := range opts {
		switch o.name {
		case "r", "R", "a":
			recursive = true
		case "v":
			verbose = true
		case "n":
			noClobber = true
		case "t":
			target = o.val
		case "T":
			noTarget = true
		}
	}
	return copyOrMove(ctx, operands, target, noTarget, func(src, dst, srcName, dstName string, fi vfs.FileInfo) bool {
		if fi.IsDir() && !recursive {
			fmt.Fprintf(ctx.Stderr, "cp: -r not specified; omitting directory '%s'\n", srcName)
			return false
		}
		if src == dst {
			fmt.Fprintf(ctx.Stderr, "cp: '%s' and '%s' are the same file\n", srcName, dstName)
			return false
		}
		if fi.IsDir() && strings.HasPrefix(dst, src+"/") {
			fmt.Fprintf(ctx.Stderr, "cp: cannot copy a directory, '%s', into itself, '%s'\n", srcName, dstName)
			return false
		}
		if dfi, err := ctx.FS.Stat(dst); err == nil {
			if noClobber {
				return true
			}
			if dfi.IsDir() && !fi.IsDir() {
				fmt.Fprintf(ctx.Stderr, "cp: cannot overwrite directory '%s' with non-directory\n", dstName)
				return false
			}
			if !dfi.IsDir() && fi.IsDir() {
				fmt.Fprintf(ctx.Stderr, "cp: cannot overwrite non-directory '%s' with directory '%s'\n", dstName, srcName)
				return false
			}
		}
		if err := copyTree(ctx, src, dst, 0); err != nil {
			fmt.Fprintf(ctx.Stderr, "cp: cannot create regular file '%s': %s\n", dstName, vfs.Reason(err))
			return false
		}
		if verbose {
			fmt.Fprintf(ctx.Stdout, "'%s' -> '%s'\n", srcName, dstName)
		}
		return true
	})
}

func mvCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "fivnTt:", long: map[string]longOpt{
		"force": {short: "f"}, "verbose": {short: "v"}, "no-clobber": {short: "n"},
		"target-directory": {short: "t", arg: reqArg}, "no-target-directory": {short: "T"},
	}})
	if !ok {
		return 1
	}
	verbose, noClobber, noTarget := false, false, false
	target := ""
	for _, o := range opts {
		switch o.name {
		case "v":
			verbose = true
		case "n":
			noClobber = true
		case "t":
			target = o.val
		case "T":
			noTarget = true
		}
	}
	return copyOrMove(ctx, operands, target, noTarget, func(src, dst, srcName, dstName string, fi vfs.FileInfo) bool {
		if src == dst {
			fmt.Fprintf(ctx.Stderr, "mv: '%s' and '%s' are the same file\n", srcName, dstName)
			return false
		}
		if fi.IsDir() && strings.HasPrefix(dst, src+"/") {
			fmt.Fprintf(ctx.Stderr, "mv: cannot move '%s' to a subdirectory of itself, '%s'\n", srcName, dstName)
			return false
		}
		if dfi, err := ctx.FS.Stat(dst); err == nil {
			if noClobber {
				return true
			}
			if dfi.IsDir() && !fi.IsDir() {
				fmt.Fprintf(ctx.Stderr, "mv: cannot overwrite directory '%s' with non-directory\n", dstName)
				return false
			}
			if !dfi.IsDir() && fi.IsDir() {
				fmt.Fprintf(ctx.Stderr, "mv: cannot overwrite non-directory '%s' with directory '%s'\n", dstName, srcName)
				return false
			}
		}
		err := ctx.FS.Rename(src, dst)
		if err != nil && vfs.Reason(err) == string(vfs.ErrXDev) {
			// Across filesystems (a mounted volume): copy, then remove.
			if err = copyTree(ctx, src, dst, 0); err == nil {
				err = ctx.FS.RemoveAll(src)
			}
		}
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "mv: cannot move '%s' to '%s': %s\n", srcName, dstName, vfs.Reason(err))
			return false
		}
		if verbose {
			fmt.Fprintf(ctx.Stdout, "renamed '%s' -> '%s'\n", srcName, dstName)
		}
		return true
	})
}

// copyOrMove resolves cp/mv operands (SRC DST, or SRC... DIR) and calls
// op for each pair.
func copyOrMove(ctx *Context, operands []string, target string, noTarget bool,
	op func(src, dst, srcName, dstName string, fi vfs.FileInfo) bool) int {
	if target == "" {
		if len(operands) == 0 {
			fmt.Fprintf(ctx.Stderr, "%s: missing file operand\n", ctx.Name)
			tryHelp(ctx)
			return 1
		}
		if len(operands) == 1 {
			fmt.Fprintf(ctx.Stderr, "%s: missing destination file operand after '%s'\n", ctx.Name, operands[0])
			tryHelp(ctx)
			return 1
		}
		target = operands[len(operands)-1]
		operands = operands[:len(operands)-1]
		if noTarget && len(operands) > 1 {
			fmt.Fprintf(ctx.Stderr, "%s: extra operand '%s'\n", ctx.Name, target)
			tryHelp(ctx)
			return 1
		}
	}
	tp := ctx.Abs(target)
	intoDir := ctx.FS.IsDir(tp) && !noTarget
	if len(operands) > 1 && !intoDir {
		fmt.Fprintf(ctx.Stderr, "%s: target '%s' is not a directory\n", ctx.Name, target)
		return 1
	}
	code := 0
	for _, s := range operands {
		sp := ctx.Abs(s)
		fi, err := ctx.FS.Stat(sp)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "%s: cannot stat '%s': %s\n", ctx.Name, s, vfs.Reason(err))
			code = 1
			continue
		}
		dst, dstName := tp, target
		if intoDir {
			base := path.Base(sp)
			dst = path.Join(tp, base)
			dstName = strings.TrimSuffix(target, "/") + "/" + base
		}
		if !op(sp, dst, s, dstName, fi) {
			code = 1
		}
	}
	return code
}

// parseMode reads an octal or symbolic (u+x,go-w,a=r) mode against base.
func parseMode(s string, base fs.FileMode, isDir bool) (fs.FileMode, bool) {
	if s == "" {
		return 0, false
	}
	if v, err := strconv.ParseUint(s, 8, 32); err == nil {
		if v > 0o7777 {
			return 0, false
		}
		return fs.FileMode(v) & 0o777, true
	}
	mode := base & 0o777
	for _, clause := range strings.Split(s, ",") {
		i := 0
		var who fs.FileMode
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			}
			i++
		}
		if who == 0 {
			who = 0o777 &^ 0o022
			if i < len(clause) && clause[i] == '=' {
				who = 0o777
			}
		}
		if i >= len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, false
			}
			i++
			var bits fs.FileMode
			for i < len(clause) && strings.IndexByte("rwxXst", clause[i]) >= 0 {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x':
					bits |= 0o111
				case 'X':
					if isDir || mode&0o111 != 0 {
						bits |= 0o111
					}
				}
				i++
			}
			bits &= who
			switch op {
			case '+':
				mode |= bits
			case '-':
				mode &^= bits
			case '=':
				mode = mode&^who | bits
			}
		}
	}
	return mode, true
}

func chmodCmd(ctx *Context, args []string) int {
	// A mode such as -w looks like an option; take it as the mode.
	var pre []string
	modeSeen := ""
	for _, a := range args {
		if modeSeen == "" && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXst") == "" {
			modeSeen = a
			continue
		}
		pre = append(pre, a)
	}
	opts, operands, ok := getopt(ctx, pre, optSpec{short: "Rvcf", long: map[string]longOpt{
		"recursive": {short: "R"}, "verbose": {short: "v"}, "changes": {short: "c"}, "silent": {short: "f"}, "quiet": {short: "f"},
	}})
	if !ok {
		return 1
	}
	recursive, quiet := false, false
	for _, o := range opts {
		switch o.name {
		case "R":
			recursive = true
		case "f":
			quiet = true
		}
	}
	if modeSeen != "" {
		operands = append([]string{modeSeen}, operands...)
	}
	if len(operands) == 0 {
		return missingOperand(ctx)
	}
	mode := operands[0]
	if len(operands) == 1 {
		fmt.Fprintf(ctx.Stderr, "chmod: missing operand after ‘%s’\n", mode)
		tryHelp(ctx)
		return 1
	}
	if _, ok := parseMode(mode, 0, false); !ok {
		fmt.Fprintf(ctx.Stderr, "chmod: invalid mode: ‘%s’\n", mode)
		tryHelp(ctx)
		return 1
	}
	code := 0
	apply := func(p string, fi vfs.FileInfo) {
		m, _ := parseMode(mode, fi.Mode().Perm(), fi.IsDir())
		_ = ctx.FS.Chmod(p, m)
	}
	for _, f := range operands[1:] {
		p := ctx.Abs(f)
		fi, err := ctx.FS.Stat(p)
		if err != nil {
			if !quiet {
				fmt.Fprintf(ctx.Stderr, "chmod: cannot access '%s': %s\n", f, vfs.Reason(err))
			}
			code = 1
			continue
		}
		if recursive && fi.IsDir() {
			_ = ctx.FS.Walk(p, func(q string, info vfs.FileInfo, err error) error {
				if err == nil {
					apply(q, info)
				}
				return nil
			})
			continue
		}
		apply(p, fi)
	}
	return code
}

func statCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "c:tL", long: map[string]longOpt{
		"format": {short: "c", arg: reqArg}, "printf": {arg: reqArg}, "terse": {short: "t"}, "dereference": {short: "L"},
	}})
	if !ok {
		return 1
	}
	format := ""
	for _, o := range opts {
		switch o.name {
		case "c":
			format = o.val + "\n"
		case "printf":
			format, _ = expandEscapes(o.val, false)
		}
	}
	if len(operands) == 0 {
		return missingOperand(ctx)
	}
	code := 0
	for _, f := range operands {
		fi, err := ctx.FS.Stat(ctx.Abs(f))
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "stat: cannot statx '%s': %s\n", f, vfs.Reason(err))
			code = 1
			continue
		}
		if format == "" {
			kind := "regular file"
			if fi.IsDir() {
				kind = "directory"
			} else if fi.Size() == 0 {
				kind = "regular empty file"
			}
			t := strftime("%Y-%m-%d %H:%M:%S.%N %z", fi.ModTime().UTC())
			fmt.Fprintf(ctx.Stdout, "  File: %s\n  Size: %-10d\tBlocks: %-10d IO Block: 4096   %s\n", f, fi.Size(), (fi.Size()+4095)/4096*8, kind)
			fmt.Fprintf(ctx.Stdout, "Device: 0,1\tInode: 1           Links: %d\n", fi.Nlink)
			fmt.Fprintf(ctx.Stdout, "Access: (%04o/%s)  Uid: (    0/    root)   Gid: (    0/    root)\n", fi.Mode().Perm(), lsMode(fi.Mode()))
			fmt.Fprintf(ctx.Stdout, "Access: %s\nModify: %s\nChange: %s\n Birth: -\n", t, t, t)
			continue
		}
		io.WriteString(ctx.Stdout, statFormat(format, f, fi))
	}
	return code
}

func statFormat(format, name string, fi vfs.FileInfo) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'n', 'N':
			b.WriteString(name)
		case 's':
			b.WriteString(strconv.FormatInt(fi.Size(), 10))
		case 'a':
			b.WriteString(strconv.FormatUint(uint64(fi.Mode().Perm()), 8))
		case 'A':
			b.WriteString(lsMode(fi.Mode()))
		case 'F':
			switch {
			case fi.IsDir():
				b.WriteString("directory")
			case fi.Size() == 0:
				b.WriteString("regular empty file")
			default:
				b.WriteString("regular file")
			}
		case 'U', 'G':
			b.WriteString("root")
		case 'u', 'g':
			b.WriteString("0")
		case 'h':
			b.WriteString(strconv.Itoa(fi.Nlink))
		case 'Y', 'X', 'Z':
			b.WriteString(strconv.FormatInt(fi.ModTime().Unix(), 10))
		case 'y', 'x', 'z':
			b.WriteString(strftime("%Y-%m-%d %H:%M:%S.%N %z", fi.ModTime().UTC()))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
