package shell

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"kubeplay/core/shell/internal/posixre"
	"kubeplay/core/vfs"
)

// grep, as GNU grep: basic/extended/fixed patterns, -v -i -c -n -o -w -x
// -q -l -L -h -H -s -m -r, context (-A -B -C) with "--" between groups.

type grepOpts struct {
	invert, count, number, only, word, line, quiet, list, listNot, silent bool
	names                                                                 int // -1 never (-h), 1 always (-H), 0 by count
	max                                                                   int
	after, before                                                         int
	recursive                                                             bool
	re                                                                    *regexp.Regexp
}

var grepSpec = optSpec{
	short: "EFGPivcnowxqslLhHe:f:m:A:B:C:rRyaIUZz",
	long: map[string]longOpt{
		"extended-regexp": {short: "E"}, "fixed-strings": {short: "F"}, "basic-regexp": {short: "G"},
		"perl-regexp": {short: "P"}, "ignore-case": {short: "i"}, "invert-match": {short: "v"},
		"count": {short: "c"}, "line-number": {short: "n"}, "only-matching": {short: "o"},
		"word-regexp": {short: "w"}, "line-regexp": {short: "x"}, "quiet": {short: "q"}, "silent": {short: "q"},
		"no-messages": {short: "s"}, "files-with-matches": {short: "l"}, "files-without-match": {short: "L"},
		"no-filename": {short: "h"}, "with-filename": {short: "H"}, "regexp": {short: "e", arg: reqArg},
		"file": {short: "f", arg: reqArg}, "max-count": {short: "m", arg: reqArg},
		"after-context": {short: "A", arg: reqArg}, "before-context": {short: "B", arg: reqArg},
		"context": {short: "C", arg: reqArg}, "recursive": {short: "r"}, "color": {arg: optArg},
		"colour": {arg: optArg}, "text": {short: "a"}, "no-ignore-case": {}, "help": {},
	},
}

func grepCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, grepSpec)
	if !ok {
		return 2
	}
	g := grepOpts{max: -1}
	var patterns []string
	havePattern := false
	mode := "G"
	icase := false
	for _, o := range opts {
		switch o.name {
		case "E", "F", "G", "P":
			mode = o.name
		case "i", "y":
			icase = true
		case "no-ignore-case":
			icase = false
		case "v":
			g.invert = true
		case "c":
			g.count = true
		case "n":
			g.number = true
		case "o":
			g.only = true
		case "w":
			g.word = true
		case "x":
			g.line = true
		case "q":
			g.quiet = true
		case "s":
			g.silent = true
		case "l":
			g.list = true
		case "L":
			g.listNot = true
		case "h":
			g.names = -1
		case "H":
			g.names = 1
		case "r", "R":
			g.recursive = true
		case "e":
			patterns = append(patterns, strings.Split(o.val, "\n")...)
			havePattern = true
		case "f":
			data, err := ctx.ReadFile(o.val)
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "grep: %v\n", err)
				return 2
			}
			text := strings.TrimSuffix(string(data), "\n")
			if text != "" {
				patterns = append(patterns, strings.Split(text, "\n")...)
			}
			havePattern = true
		case "m", "A", "B", "C":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 0 {
				what := map[string]string{"m": "max count", "A": "context length", "B": "context length", "C": "context length"}[o.name]
				fmt.Fprintf(ctx.Stderr, "grep: %s: invalid %s argument\n", o.val, what)
				return 2
			}
			switch o.name {
			case "m":
				g.max = n
			case "A":
				g.after = n
			case "B":
				g.before = n
			case "C":
				g.after, g.before = n, n
			}
		case "help":
			fmt.Fprintln(ctx.Stdout, "Usage: grep [OPTION]... PATTERNS [FILE]...")
			return 0
		}
	}
	if !havePattern {
		if len(operands) == 0 {
			fmt.Fprintln(ctx.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...")
			tryHelp(ctx)
			return 2
		}
		patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	re, err := compileGrep(patterns, mode, icase, g.word, g.line)
	if err != nil {
		fmt.Fprintf(ctx.Stderr, "grep: %v\n", err)
		return 2
	}
	g.re = re
	if len(operands) == 0 {
		if g.recursive {
			operands = []string{"."}
		} else {
			operands = []string{"-"}
		}
	}
	files := operands
	if g.recursive {
		files = expandRecursive(ctx, operands)
	}
	if g.names == 0 && (len(files) > 1 || g.recursive) {
		g.names = 1
	}
	matched, trouble := false, false
	for _, f := range files {
		name := f
		if f == "-" {
			name = "(standard input)"
		}
		if f != "-" && !g.recursive && ctx.FS.IsDir(ctx.Abs(f)) {
			if !g.silent {
				fmt.Fprintf(ctx.Stderr, "grep: %s: Is a directory\n", f)
			}
			trouble = true
			continue
		}
		data, err := ctx.ReadFile(f)
		if err != nil {
			if !g.silent {
				fmt.Fprintf(ctx.Stderr, "grep: %v\n", err)
			}
			trouble = true
			continue
		}
		if g.grepText(ctx.Stdout, name, string(data)) {
			matched = true
			if g.quiet {
				return 0
			}
		}
	}
	switch {
	case trouble && !(g.quiet && matched):
		return 2
	case matched:
		return 0
	}
	return 1
}

// expandRecursive lists the files under the operands for grep -r.
func expandRecursive(ctx *Context, operands []string) []string {
	var out []string
	for _, op := range operands {
		if op == "-" || !ctx.FS.IsDir(ctx.Abs(op)) {
			out = append(out, op)
			continue
		}
		base := ctx.Abs(op)
		_ = ctx.FS.Walk(base, func(p string, fi vfs.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				rel := strings.TrimPrefix(p, base)
				out = append(out, strings.TrimSuffix(op, "/")+rel)
			}
			return nil
		})
	}
	return out
}

func compileGrep(patterns []string, mode string, icase, word, line bool) (*regexp.Regexp, error) {
	var alts []string
	for _, p := range patterns {
		var t string
		switch mode {
		case "F":
			t = regexp.QuoteMeta(p)
		case "P":
			if _, err := regexp.Compile(p); err != nil {
				return nil, &posixre.Error{Msg: "invalid regular expression"}
			}
			t = p
		default:
			var err error
			t, err = posixre.Translate(p, mode == "E")
			if err != nil {
				return nil, err
			}
		}
		alts = append(alts, "(?:"+t+")")
	}
	expr := strings.Join(alts, "|")
	if line {
		expr = "^(?:" + expr + ")$"
	}
	if icase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, &posixre.Error{Msg: "Invalid regular expression"}
	}
	re.Longest()
	return re, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// matches returns the match spans on a line (with -w, only those standing
// as whole words).
func (g *grepOpts) matches(line string, all bool) [][]int {
	var out [][]int
	for from := 0; from <= len(line); {
		loc := g.re.FindStringIndex(line[from:])
		if loc == nil {
			break
		}
		s, e := loc[0]+from, loc[1]+from
		if g.word {
			okL := s == 0 || !isWordByte(line[s-1])
			okR := e == len(line) || !isWordByte(line[e])
			if !okL || !okR {
				from = s + 1
				continue
			}
		}
		out = append(out, []int{s, e})
		if !all {
			break
		}
		if e == s {
			from = e + 1
		} else {
			from = e
		}
	}
	return out
}

// grepText searches one input and reports whether any line was selected.
func (g *grepOpts) grepText(w io.Writer, name, text string) bool {
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	prefix := func(n int, sep string) string {
		p := ""
		if g.names > 0 {
			p = name + sep
		}
		if g.number {
			p += strconv.Itoa(n) + sep
		}
		return p
	}
	selected := 0
	lastPrinted := -1
	afterLeft := 0
	var out strings.Builder
	for i, l := range lines {
		if g.max >= 0 && selected >= g.max {
			// Trailing context still prints after the last match.
			if afterLeft > 0 && !g.count && !g.list && !g.listNot && !g.quiet {
				out.WriteString(prefix(i+1, "-") + l + "\n")
				lastPrinted = i
				afterLeft--
				continue
			}
			break
		}
		ms := g.matches(l, g.only && !g.invert)
		sel := (len(ms) > 0) != g.invert
		if !sel {
			if afterLeft > 0 && !g.count && !g.list && !g.listNot && !g.quiet {
				out.WriteString(prefix(i+1, "-") + l + "\n")
				lastPrinted = i
				afterLeft--
			}
			continue
		}
		selected++
		if g.quiet || g.list || g.listNot {
			if g.quiet || g.list {
				break
			}
			continue
		}
		if g.count {
			continue
		}
		if g.before > 0 || g.after > 0 {
			start := max(i-g.before, lastPrinted+1)
			if lastPrinted >= 0 && start > lastPrinted+1 {
				out.WriteString("--\n")
			}
			for j := start; j < i; j++ {
				out.WriteString(prefix(j+1, "-") + lines[j] + "\n")
			}
		}
		if g.only {
			if !g.invert {
				for _, m := range ms {
					if m[1] > m[0] {
						out.WriteString(prefix(i+1, ":") + l[m[0]:m[1]] + "\n")
					}
				}
			}
		} else {
			out.WriteString(prefix(i+1, ":") + l + "\n")
		}
		lastPrinted = i
		afterLeft = g.after
		if out.Len() > maxOutput {
			break
		}
	}
	switch {
	case g.quiet:
	case g.list:
		if selected > 0 {
			fmt.Fprintln(w, name)
		}
	case g.listNot:
		if selected == 0 {
			fmt.Fprintln(w, name)
		}
	case g.count:
		if g.names > 0 {
			fmt.Fprintf(w, "%s:%d\n", name, selected)
		} else {
			fmt.Fprintf(w, "%d\n", selected)
		}
	default:
		io.WriteString(w, out.String())
	}
	return selected > 0
}
