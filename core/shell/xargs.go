package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// xargs, as GNU xargs: items split on blanks and newlines with quotes and
// backslashes honoured (or on -d / -0), -n, -L, -I, -r, -t, echo by
// default, and its exit statuses (123, 124, 126, 127).

func xargsCmd(ctx *Context, args []string) int {
	opts, cmd, ok := getopt(ctx, args, optSpec{short: "0d:n:L:l::I:i::rtxP:s:pE:e::a:", posix: true, long: map[string]longOpt{
		"null": {short: "0"}, "delimiter": {short: "d", arg: reqArg}, "max-args": {short: "n", arg: reqArg},
		"max-lines": {short: "L", arg: reqArg}, "replace": {short: "i", arg: optArg}, "no-run-if-empty": {short: "r"},
		"verbose": {short: "t"}, "max-procs": {short: "P", arg: reqArg}, "max-chars": {short: "s", arg: reqArg},
		"exit": {short: "x"}, "arg-file": {short: "a", arg: reqArg}, "eof": {short: "e", arg: optArg},
	}})
	if !ok {
		return 1
	}
	var delim *byte
	maxArgs, maxLines := 0, 0
	replace := ""
	noEmpty, trace := false, false
	var input io.Reader = ctx.Stdin
	for _, o := range opts {
		switch o.name {
		case "0":
			d := byte(0)
			delim = &d
		case "d":
			v, _ := expandEscapes(o.val, false)
			if len(v) != 1 {
				fmt.Fprintf(ctx.Stderr, "xargs: invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.\n", o.val)
				return 1
			}
			d := v[0]
			delim = &d
		case "n", "L", "l":
			v := o.val
			if v == "" {
				v = "1"
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				fmt.Fprintf(ctx.Stderr, "xargs: invalid number \"%s\" for -%s option\n", o.val, o.name)
				tryHelp(ctx)
				return 1
			}
			if o.name == "n" {
				maxArgs = n
			} else {
				maxLines = n
			}
		case "I", "i":
			replace = o.val
			if replace == "" {
				replace = "{}"
			}
			maxLines = 1
		case "r":
			noEmpty = true
		case "t", "p":
			trace = true
		case "a":
			data, err := ctx.ReadFile(o.val)
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "xargs: %s: %s\n", o.val, errReason(err))
				return 1
			}
			input = strings.NewReader(string(data))
		}
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	data, _ := io.ReadAll(input)
	text := string(data)
	// Each group is the items of one input line (for -L and -I).
	var lines [][]string
	switch {
	case delim != nil:
		items := strings.Split(text, string([]byte{*delim}))
		if len(items) > 0 && items[len(items)-1] == "" {
			items = items[:len(items)-1]
		}
		for _, it := range items {
			lines = append(lines, []string{it})
		}
	case replace != "":
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimLeft(l, " \t")
			if l == "" {
				continue
			}
			items, err := xargsSplit(l)
			if err != "" {
				fmt.Fprintf(ctx.Stderr, "xargs: %s\n", err)
				return 1
			}
			// With -I the whole line, quotes removed, is one argument.
			lines = append(lines, []string{strings.Join(items, " ")})
		}
	default:
		for _, l := range strings.Split(text, "\n") {
			items, err := xargsSplit(l)
			if err != "" {
				fmt.Fprintf(ctx.Stderr, "xargs: %s\n", err)
				return 1
			}
			if len(items) > 0 {
				lines = append(lines, items)
			}
		}
	}
	// Batch the items into command lines.
	var batches [][]string
	switch {
	case replace != "":
		for _, l := range lines {
			var argv []string
			for _, w := range cmd {
				argv = append(argv, strings.ReplaceAll(w, replace, l[0]))
			}
			batches = append(batches, argv)
		}
	case maxLines > 0:
		for i := 0; i < len(lines); i += maxLines {
			argv := append([]string(nil), cmd...)
			for _, l := range lines[i:min(i+maxLines, len(lines))] {
				argv = append(argv, l...)
			}
			batches = append(batches, argv)
		}
	default:
		var items []string
		for _, l := range lines {
			items = append(items, l...)
		}
		n := maxArgs
		if n == 0 {
			n = max(len(items), 1)
		}
		for i := 0; i < len(items); i += n {
			batches = append(batches, append(append([]string(nil), cmd...), items[i:min(i+n, len(items))]...))
		}
	}
	if len(batches) == 0 && !noEmpty && replace == "" {
		batches = [][]string{cmd}
	}
	code := 0
	for _, argv := range batches {
		if trace {
			fmt.Fprintln(ctx.Stderr, strings.Join(argv, " "))
		}
		if !ctx.Shell.runnable(argv[0]) {
			fmt.Fprintf(ctx.Stderr, "xargs: %s: No such file or directory\n", argv[0])
			return 127
		}
		c := *ctx
		c.Stdin = strings.NewReader("")
		st := ctx.Shell.Call(&c, argv)
		switch {
		case st == 255:
			fmt.Fprintf(ctx.Stderr, "xargs: %s: exited with status 255; aborting\n", argv[0])
			return 124
		case st >= 1 && st <= 125:
			code = 123
		case st == 126 || st == 127:
			return st
		}
	}
	return code
}

// xargsSplit splits one input line into items, honouring quotes and
// backslashes; the error is xargs's message for an unmatched quote.
func xargsSplit(l string) ([]string, string) {
	var items []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				items = append(items, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\\' && i+1 < len(l):
			i++
			cur.WriteByte(l[i])
			in = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(l[i+1:], c)
			if j < 0 {
				kind := "single"
				if c == '"' {
					kind = "double"
				}
				return nil, "unmatched " + kind + " quote; by default quotes are special to xargs unless you use the -0 option"
			}
			cur.WriteString(l[i+1 : i+1+j])
			i += j + 1
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		items = append(items, cur.String())
	}
	return items, ""
}
