package shell

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/vfs"
)

// ls, as GNU ls in the C locale: -l -a -A -1 -d -R -r -t -S -h -F -i-less.
// Output is one name per line unless stdout is a terminal, which an
// embedder signals by giving its writer a Columns() int method (the
// terminal's width), the way ls asks isatty.

// Terminal is implemented by an embedder's stdout writer that is a
// terminal: ls then prints in columns fitting its width.
type Terminal interface {
	Columns() int
}

type lsOpts struct {
	long, all, almost, one, dir, recursive, reverse, byTime, bySize, human, classify, unsorted bool
	width                                                                                      int
}

type lsEntry struct {
	name string // as displayed
	path string // absolute
	info vfs.FileInfo
}

var lsSpec = optSpec{
	short: "laA1dRrtShFUCp",
	long: map[string]longOpt{
		"all": {short: "a"}, "almost-all": {short: "A"}, "directory": {short: "d"},
		"recursive": {short: "R"}, "reverse": {short: "r"}, "human-readable": {short: "h"},
		"classify": {short: "F"}, "color": {arg: optArg}, "help": {},
	},
}

func lsCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, lsSpec)
	if !ok {
		return 2
	}
	var o lsOpts
	if t, isTerm := ctx.Stdout.(Terminal); isTerm {
		o.width = t.Columns()
	}
	for _, op := range opts {
		switch op.name {
		case "l":
			o.long = true
		case "a":
			o.all = true
		case "A":
			o.almost = true
		case "1":
			o.one = true
		case "C":
			if o.width == 0 {
				o.width = 80
			}
		case "d":
			o.dir = true
		case "R":
			o.recursive = true
		case "r":
			o.reverse = true
		case "t":
			o.byTime = true
		case "S":
			o.bySize = true
		case "h":
			o.human = true
		case "F", "p":
			o.classify = true
		case "U":
			o.unsorted = true
		case "help":
			io.WriteString(ctx.Stdout, "Usage: ls [OPTION]... [FILE]...\n")
			return 0
		}
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	code := 0
	var files, dirs []lsEntry
	for _, op := range operands {
		p := ctx.Abs(op)
		fi, err := ctx.FS.Stat(p)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "ls: cannot access '%s': %s\n", op, vfs.Reason(err))
			code = 2
			continue
		}
		e := lsEntry{name: op, path: p, info: fi}
		if fi.IsDir() && !o.dir {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	o.sort(files)
	o.sort(dirs)
	var b strings.Builder
	wrote := false
	if len(files) > 0 {
		o.print(&b, files, ctx.Now(), false)
		wrote = true
	}
	header := len(operands) > 1 || o.recursive || code != 0 && len(dirs) > 0
	for _, d := range dirs {
		if c := o.listDir(ctx, &b, d, header, &wrote, 0); c > code {
			code = c
		}
		if b.Len() > maxOutput {
			break
		}
	}
	io.WriteString(ctx.Stdout, b.String())
	return code
}

func (o *lsOpts) listDir(ctx *Context, b *strings.Builder, d lsEntry, header bool, wrote *bool, depth int) int {
	if depth > 64 {
		return 0
	}
	infos, err := ctx.FS.ReadDir(d.path)
	if *wrote {
		b.WriteString("\n")
	}
	*wrote = true
	if header {
		b.WriteString(d.name + ":\n")
	}
	if err != nil {
		fmt.Fprintf(ctx.Stderr, "ls: cannot open directory '%s': %s\n", d.name, vfs.Reason(err))
		return 2
	}
	var entries []lsEntry
	if o.all {
		self, _ := ctx.FS.Stat(d.path)
		parent, _ := ctx.FS.Stat(path.Dir(d.path))
		entries = append(entries, lsEntry{name: ".", path: d.path, info: self}, lsEntry{name: "..", path: path.Dir(d.path), info: parent})
	}
	for _, fi := range infos {
		if strings.HasPrefix(fi.Name(), ".") && !o.all && !o.almost {
			continue
		}
		entries = append(entries, lsEntry{name: fi.Name(), path: path.Join(d.path, fi.Name()), info: fi})
	}
	o.sort(entries)
	if o.long {
		fmt.Fprintf(b, "total %s\n", o.size(lsBlocks(entries)*1024, true))
	}
	o.print(b, entries, ctx.Now(), true)
	code := 0
	if o.recursive {
		for _, e := range entries {
			if !e.info.IsDir() || e.name == "." || e.name == ".." {
				continue
			}
			sub := lsEntry{name: strings.TrimSuffix(d.name, "/") + "/" + e.name, path: e.path, info: e.info}
			if d.name == "/" {
				sub.name = "/" + e.name
			}
			if c := o.listDir(ctx, b, sub, true, wrote, depth+1); c > code {
				code = c
			}
		}
	}
	return code
}

// lsBlocks is the 1K blocks the entries use, as `total` counts them
// (4K filesystem blocks).
func lsBlocks(entries []lsEntry) int64 {
	var n int64
	for _, e := range entries {
		n += (e.info.Size() + 4095) / 4096 * 4
	}
	return n
}

func (o *lsOpts) sort(entries []lsEntry) {
	if o.unsorted {
		return
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		switch {
		case o.byTime && !a.info.ModTime().Equal(b.info.ModTime()):
			return a.info.ModTime().After(b.info.ModTime())
		case o.bySize && a.info.Size() != b.info.Size():
			return a.info.Size() > b.info.Size()
		}
		return a.name < b.name
	})
	if o.reverse {
		for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
			entries[i], entries[j] = entries[j], entries[i]
		}
	}
}

func (o *lsOpts) display(e lsEntry) string {
	if !o.classify {
		return e.name
	}
	switch {
	case e.info.IsDir():
		if strings.HasSuffix(e.name, "/") {
			return e.name
		}
		return e.name + "/"
	case e.info.Mode().Perm()&0o111 != 0:
		return e.name + "*"
	}
	return e.name
}

// size formats a size: bytes, or with -h GNU's human form (1.5K, 12M).
func (o *lsOpts) size(n int64, blocks bool) string {
	if !o.human {
		if blocks {
			return strconv.FormatInt(n/1024, 10)
		}
		return strconv.FormatInt(n, 10)
	}
	return humanSize(n)
}

// humanSize is GNU's -h: powers of 1024, one decimal below 10, rounded up.
func humanSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	units := "KMGTPE"
	v := float64(n)
	u := -1
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v < 10 {
		r := float64(int64(v*10+0.999999)) / 10
		if r >= 10 {
			return fmt.Sprintf("%d%c", int64(r), units[u])
		}
		return fmt.Sprintf("%.1f%c", r, units[u])
	}
	r := int64(v + 0.999999)
	if r >= 1024 && u < len(units)-1 {
		return fmt.Sprintf("1.0%c", units[u+1])
	}
	return fmt.Sprintf("%d%c", r, units[u])
}

func (o *lsOpts) print(b *strings.Builder, entries []lsEntry, now time.Time, _ bool) {
	if o.long {
		var lw, sw int
		for _, e := range entries {
			lw = max(lw, len(strconv.Itoa(e.info.Nlink)))
			sw = max(sw, len(o.size(e.info.Size(), false)))
		}
		for _, e := range entries {
			fmt.Fprintf(b, "%s %*d root root %*s %s %s\n", lsMode(e.info.Mode()), lw, e.info.Nlink, sw,
				o.size(e.info.Size(), false), lsTime(e.info.ModTime(), now), o.display(e))
		}
		return
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = o.display(e)
	}
	if o.one || o.width <= 0 {
		for _, n := range names {
			b.WriteString(n + "\n")
		}
		return
	}
	b.WriteString(columns(names, o.width))
}

func lsMode(m fs.FileMode) string {
	var b [10]byte
	b[0] = '-'
	if m.IsDir() {
		b[0] = 'd'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		} else {
			b[i+1] = '-'
		}
	}
	return string(b[:])
}

// lsTime is ls -l's date: the time of day within the last six months,
// else the year.
func lsTime(t, now time.Time) string {
	t = t.UTC()
	halfYear := time.Duration(31556952/2) * time.Second
	if t.After(now) || now.Sub(t) > halfYear {
		return strftime("%b %e  %Y", t)
	}
	return strftime("%b %e %H:%M", t)
}

// columns lays names out down columns within width, as ls -C does.
func columns(names []string, width int) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	for cols := len(names); cols >= 1; cols-- {
		rows := (len(names) + cols - 1) / cols
		if cols > 1 && (rows-1)*cols >= len(names) && cols != len(names) {
			// This many columns would leave one empty; fewer fit the same rows.
			continue
		}
		widths := make([]int, cols)
		total := 0
		for c := 0; c < cols; c++ {
			for r := 0; r < rows; r++ {
				if i := c*rows + r; i < len(names) {
					widths[c] = max(widths[c], len(names[i]))
				}
			}
			if c < cols-1 {
				widths[c] += 2
			}
			total += widths[c]
		}
		if total > width && cols > 1 {
			continue
		}
		for r := 0; r < rows; r++ {
			var line strings.Builder
			for c := 0; c < cols; c++ {
				i := c*rows + r
				if i >= len(names) {
					break
				}
				last := c == cols-1 || (c+1)*rows+r >= len(names)
				if last {
					line.WriteString(names[i])
				} else {
					line.WriteString(names[i] + strings.Repeat(" ", widths[c]-len(names[i])))
				}
			}
			b.WriteString(line.String() + "\n")
		}
		return b.String()
	}
	return strings.Join(names, "\n") + "\n"
}
