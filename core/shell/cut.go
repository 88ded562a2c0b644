package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// cut and tr.

type span struct{ lo, hi int } // 1-based, hi -1 = to the end

// parseList reads cut's LIST: N, N-, N-M, -M, comma separated.
func parseList(v string) ([]span, string) {
	var out []span
	for _, part := range strings.Split(v, ",") {
		if part == "" {
			return nil, "invalid range with no endpoint: -"
		}
		lo, hi, isRange := strings.Cut(part, "-")
		s := span{}
		var err error
		if lo == "" {
			s.lo = 1
		} else if s.lo, err = strconv.Atoi(lo); err != nil {
			return nil, "invalid field value '" + part + "'"
		}
		switch {
		case !isRange:
			s.hi = s.lo
		case hi == "":
			if lo == "" {
				return nil, "invalid range with no endpoint: -"
			}
			s.hi = -1
		default:
			if s.hi, err = strconv.Atoi(hi); err != nil {
				return nil, "invalid field value '" + part + "'"
			}
		}
		if s.lo == 0 || s.hi == 0 {
			return nil, "fields and positions are numbered from 1"
		}
		if s.hi != -1 && s.hi < s.lo {
			return nil, "invalid decreasing range"
		}
		out = append(out, s)
	}
	return out, ""
}

func inList(spans []span, i int) bool {
	for _, s := range spans {
		if i >= s.lo && (s.hi == -1 || i <= s.hi) {
			return true
		}
	}
	return false
}

func cutCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "b:c:d:f:sn", long: map[string]longOpt{
		"bytes": {short: "b", arg: reqArg}, "characters": {short: "c", arg: reqArg}, "delimiter": {short: "d", arg: reqArg},
		"fields": {short: "f", arg: reqArg}, "only-delimited": {short: "s"}, "complement": {}, "output-delimiter": {arg: reqArg},
	}})
	if !ok {
		return 1
	}
	mode, list, delim, outDelim := "", "", "\t", ""
	onlyDelim, complement, haveOut := false, false, false
	for _, o := range opts {
		switch o.name {
		case "b", "c", "f":
			if mode != "" {
				fmt.Fprintln(ctx.Stderr, "cut: only one type of list may be specified")
				tryHelp(ctx)
				return 1
			}
			mode, list = o.name, o.val
		case "d":
			if len([]rune(o.val)) != 1 {
				fmt.Fprintln(ctx.Stderr, "cut: the delimiter must be a single character")
				tryHelp(ctx)
				return 1
			}
			delim = o.val
		case "s":
			onlyDelim = true
		case "complement":
			complement = true
		case "output-delimiter":
			outDelim, haveOut = o.val, true
		}
	}
	if mode == "" {
		fmt.Fprintln(ctx.Stderr, "cut: you must specify a list of bytes, characters, or fields")
		tryHelp(ctx)
		return 1
	}
	spans, msg := parseList(list)
	if msg != "" {
		fmt.Fprintf(ctx.Stderr, "cut: %s\n", msg)
		tryHelp(ctx)
		return 1
	}
	if !haveOut {
		outDelim = delim
		if mode != "f" {
			outDelim = ""
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	code := 0
	for _, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			inputError(ctx, f)
			code = 1
			continue
		}
		lines, _ := splitLines(text)
		var b strings.Builder
		for _, l := range lines {
			switch mode {
			case "f":
				if !strings.Contains(l, delim) {
					if !onlyDelim {
						b.WriteString(l)
						b.WriteByte('\n')
					}
					continue
				}
				fs := strings.Split(l, delim)
				var sel []string
				for i, x := range fs {
					if inList(spans, i+1) != complement {
						sel = append(sel, x)
					}
				}
				b.WriteString(strings.Join(sel, outDelim))
			default:
				var units []string
				if mode == "c" {
					for _, r := range l {
						units = append(units, string(r))
					}
				} else {
					for i := 0; i < len(l); i++ {
						units = append(units, l[i:i+1])
					}
				}
				prev := -2
				for i, u := range units {
					if inList(spans, i+1) != complement {
						if haveOut && prev >= 0 && prev != i-1 {
							b.WriteString(outDelim)
						}
						b.WriteString(u)
						prev = i
					}
				}
			}
			b.WriteByte('\n')
		}
		io.WriteString(ctx.Stdout, b.String())
	}
	return code
}

// trSet expands a tr set: escapes, ranges a-z, [:class:], [c*n].
func trSet(s string) ([]rune, string) {
	var out []rune
	rs := []rune(s)
	unesc := func(i int) (rune, int) {
		if rs[i] != '\\' || i+1 >= len(rs) {
			return rs[i], 1
		}
		switch rs[i+1] {
		case 'n':
			return '\n', 2
		case 't':
			return '\t', 2
		case 'r':
			return '\r', 2
		case 'a':
			return 7, 2
		case 'b':
			return 8, 2
		case 'f':
			return 12, 2
		case 'v':
			return 11, 2
		case '\\':
			return '\\', 2
		}
		if rs[i+1] >= '0' && rs[i+1] <= '7' {
			v, n := 0, 0
			for n < 3 && i+1+n < len(rs) && rs[i+1+n] >= '0' && rs[i+1+n] <= '7' {
				v = v*8 + int(rs[i+1+n]-'0')
				n++
			}
			return rune(v), 1 + n
		}
		return rs[i+1], 2
	}
	for i := 0; i < len(rs); {
		if rs[i] == '[' && i+1 < len(rs) && rs[i+1] == ':' {
			end := strings.Index(string(rs[i+2:]), ":]")
			if end >= 0 {
				name := string(rs[i+2:])[:end]
				found := false
				for c := rune(0); c < 128; c++ {
					if classMatch(name, c) {
						out = append(out, c)
						found = true
					}
				}
				if !found && name != "" {
					return nil, "invalid character class '" + name + "'"
				}
				i += 2 + len([]rune(name)) + 2
				continue
			}
		}
		if rs[i] == '[' && i+3 < len(rs) && rs[i+2] == '*' {
			end := strings.IndexRune(string(rs[i+3:]), ']')
			if end >= 0 {
				cnt := string(rs[i+3:])[:end]
				n, err := strconv.Atoi(cnt)
				if cnt == "" || err == nil {
					if cnt == "" {
						n = -1 // fill: handled by the caller padding set2
					}
					for k := 0; k < n && k < 1<<16; k++ {
						out = append(out, rs[i+1])
					}
					if n < 0 {
						out = append(out, rs[i+1])
					}
					i += 3 + len([]rune(cnt)) + 1
					continue
				}
			}
		}
		c, n := unesc(i)
		if i+n+1 < len(rs) && rs[i+n] == '-' {
			hi, m := unesc(i + n + 1)
			if hi < c {
				return nil, fmt.Sprintf("range-endpoints of '%c-%c' are in reverse collating sequence order", c, hi)
			}
			for x := c; x <= hi && len(out) < 1<<16; x++ {
				out = append(out, x)
			}
			i += n + 1 + m
			continue
		}
		out = append(out, c)
		i += n
	}
	return out, ""
}

func trCmd(ctx *Context, args []string) int {
	opts, sets, ok := getopt(ctx, args, optSpec{short: "cCdst", long: map[string]longOpt{
		"complement": {short: "c"}, "delete": {short: "d"}, "squeeze-repeats": {short: "s"}, "truncate-set1": {short: "t"},
	}})
	if !ok {
		return 1
	}
	var comp, del, squeeze, trunc bool
	for _, o := range opts {
		switch o.name {
		case "c", "C":
			comp = true
		case "d":
			del = true
		case "s":
			squeeze = true
		case "t":
			trunc = true
		}
	}
	need := 2
	if del && !squeeze || squeeze && !del && len(sets) == 1 {
		need = 1
	}
	if len(sets) < need {
		if len(sets) == 0 {
			fmt.Fprintln(ctx.Stderr, "tr: missing operand")
		} else {
			fmt.Fprintf(ctx.Stderr, "tr: missing operand after '%s'\n", sets[0])
			fmt.Fprintln(ctx.Stderr, "Two strings must be given when translating.")
		}
		tryHelp(ctx)
		return 1
	}
	if len(sets) > 2 || del && !squeeze && len(sets) > 1 {
		fmt.Fprintf(ctx.Stderr, "tr: extra operand '%s'\n", sets[len(sets)-1])
		if del {
			fmt.Fprintln(ctx.Stderr, "Only one string may be given when deleting without squeezing repeats.")
		}
		tryHelp(ctx)
		return 1
	}
	set1, msg := trSet(sets[0])
	if msg != "" {
		fmt.Fprintf(ctx.Stderr, "tr: %s\n", msg)
		return 1
	}
	var set2 []rune
	if len(sets) > 1 {
		if set2, msg = trSet(sets[1]); msg != "" {
			fmt.Fprintf(ctx.Stderr, "tr: %s\n", msg)
			return 1
		}
	}
	in1 := map[rune]bool{}
	for _, r := range set1 {
		in1[r] = true
	}
	member := func(r rune) bool { return in1[r] != comp }
	mapping := map[rune]rune{}
	if !del && len(set2) > 0 {
		if comp {
			// Every character outside set1 maps to set2's last character.
			for c := rune(0); c < 256; c++ {
				if !in1[c] {
					mapping[c] = set2[len(set2)-1]
				}
			}
		} else {
			if trunc && len(set1) > len(set2) {
				set1 = set1[:len(set2)]
			}
			for i, r := range set1 {
				j := min(i, len(set2)-1)
				mapping[r] = set2[j]
			}
		}
	}
	squeezeSet := map[rune]bool{}
	if squeeze {
		src := set1
		if len(sets) > 1 && !del || del {
			if len(set2) > 0 {
				src = set2
			}
		}
		for _, r := range src {
			squeezeSet[r] = true
		}
		if comp && (len(sets) == 1 || del) {
			squeezeSet = nil
		}
	}
	data, _ := io.ReadAll(ctx.Stdin)
	var b strings.Builder
	last := rune(-1)
	for _, r := range string(data) {
		if del && member(r) {
			continue
		}
		if !del {
			if m, ok := mapping[r]; ok {
				r = m
			} else if comp && len(set2) > 0 && !in1[r] {
				r = set2[len(set2)-1]
			}
		}
		if squeeze {
			in := false
			if squeezeSet == nil {
				in = member(r)
			} else {
				in = squeezeSet[r]
			}
			if in && r == last {
				continue
			}
		}
		b.WriteRune(r)
		last = r
	}
	io.WriteString(ctx.Stdout, b.String())
	return 0
}

// isSpaceRune is unicode.IsSpace, named for the tools that split on blanks.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) }
