package shell

import (
	"fmt"
	"sort"
	"strings"
)

// GNU-style option parsing for the tools: clustered short options (-rf),
// attached or separate values (-n5, -n 5), long options with = or a
// separate value and unique abbreviations, options after operands, and
// "--" ending them. Errors are printed as GNU getopt prints them.

type opt struct {
	name string // the short letter, or the long name when it has none
	val  string
}

type longOpt struct {
	short string // the equivalent short option, if any
	arg   int    // noArg, reqArg, optArg
}

const (
	noArg = iota
	reqArg
	optArg
)

type optSpec struct {
	short string // letters; a following ':' takes a value
	long  map[string]longOpt
	// posix stops at the first operand (xargs, env, timeout: the rest is a command).
	posix bool
}

func (sp optSpec) shortArg(c byte) (known, takes bool) {
	i := strings.IndexByte(sp.short, c)
	if i < 0 || c == ':' {
		return false, false
	}
	return true, i+1 < len(sp.short) && sp.short[i+1] == ':'
}

// tryHelp prints GNU's pointer to --help after a usage error.
func tryHelp(ctx *Context) {
	fmt.Fprintf(ctx.Stderr, "Try '%s --help' for more information.\n", ctx.Name)
}

// getopt parses args; ok is false after it printed a usage error.
func getopt(ctx *Context, args []string, sp optSpec) (opts []opt, operands []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			lo, full, found := sp.findLong(name)
			if !found {
				if full == "" {
					fmt.Fprintf(ctx.Stderr, "%s: unrecognized option '--%s'\n", ctx.Name, name)
				} else {
					fmt.Fprintf(ctx.Stderr, "%s: option '--%s' is ambiguous; possibilities:%s\n", ctx.Name, name, full)
				}
				tryHelp(ctx)
				return nil, nil, false
			}
			key := lo.short
			if key == "" {
				key = full
			}
			switch lo.arg {
			case noArg:
				if hasVal {
					fmt.Fprintf(ctx.Stderr, "%s: option '--%s' doesn't allow an argument\n", ctx.Name, full)
					tryHelp(ctx)
					return nil, nil, false
				}
			case reqArg:
				if !hasVal {
					if i+1 >= len(args) {
						fmt.Fprintf(ctx.Stderr, "%s: option '--%s' requires an argument\n", ctx.Name, full)
						tryHelp(ctx)
						return nil, nil, false
					}
					i++
					val = args[i]
				}
			}
			opts = append(opts, opt{name: key, val: val})
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			if sp.posix {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			known, takes := sp.shortArg(c)
			if !known {
				fmt.Fprintf(ctx.Stderr, "%s: invalid option -- '%c'\n", ctx.Name, c)
				tryHelp(ctx)
				return nil, nil, false
			}
			if !takes {
				opts = append(opts, opt{name: string(c)})
				continue
			}
			val := a[j+1:]
			if val == "" {
				if i+1 >= len(args) {
					fmt.Fprintf(ctx.Stderr, "%s: option requires an argument -- '%c'\n", ctx.Name, c)
					tryHelp(ctx)
					return nil, nil, false
				}
				i++
				val = args[i]
			}
			opts = append(opts, opt{name: string(c), val: val})
			break
		}
	}
	return opts, operands, true
}

// findLong resolves a long option or its unique abbreviation. When not
// found, full lists the ambiguous candidates (or is empty).
func (sp optSpec) findLong(name string) (longOpt, string, bool) {
	if lo, ok := sp.long[name]; ok {
		return lo, name, true
	}
	var cands []string
	for k := range sp.long {
		if strings.HasPrefix(k, name) && name != "" {
			cands = append(cands, k)
		}
	}
	sort.Strings(cands)
	if len(cands) == 1 {
		return sp.long[cands[0]], cands[0], true
	}
	if len(cands) > 1 {
		var b strings.Builder
		for _, c := range cands {
			b.WriteString(" '--" + c + "'")
		}
		return longOpt{}, b.String(), false
	}
	return longOpt{}, "", false
}
