package runtime

import (
	"fmt"
	"strconv"
	"strings"

	"kubeplay/core/shell"
)

// perlCmd is the little of Perl the seeds run: `perl -Mbignum=bpi -wle
// 'print bpi(2000)'` and one-liners that print strings and numbers.
// Anything else fails the way a syntax error would, never silently.
func perlCmd(ctx *shell.Context, args []string) int {
	var script string
	haveScript, newline := false, false
	modules := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-v" || a == "--version" {
			fmt.Fprintln(ctx.Stdout, "\nThis is perl 5, version 40, subversion 0 (v5.40.0) built for x86_64-linux-gnu-thread-multi")
			return 0
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			fmt.Fprintf(ctx.Stderr, "Can't open perl script \"%s\": No such file or directory\n", a)
			return 2
		}
		if strings.HasPrefix(a, "-M") {
			mod := a[2:]
			if mod == "" && i+1 < len(args) {
				i++
				mod = args[i]
			}
			name, imports, _ := strings.Cut(mod, "=")
			modules[name] = true
			for _, im := range strings.Split(imports, ",") {
				if im != "" {
					modules[name+"::"+im] = true
				}
			}
			continue
		}
		flags := a[1:]
		for j := 0; j < len(flags); j++ {
			switch flags[j] {
			case 'w', 'd':
			case 'l':
				newline = true
			case 'e', 'E':
				rest := flags[j+1:]
				if rest == "" {
					if i+1 >= len(args) {
						fmt.Fprintln(ctx.Stderr, "No code specified for -e.")
						return 29
					}
					i++
					rest = args[i]
				}
				script += rest + "\n"
				haveScript = true
				j = len(flags)
			default:
				fmt.Fprintf(ctx.Stderr, "Unrecognized switch: -%s  (-h will show valid options).\n", flags[j:])
				return 29
			}
		}
	}
	if !haveScript {
		// perl reading a program from empty stdin does nothing.
		return 0
	}
	p := perlInterp{ctx: ctx, newline: newline, modules: modules}
	return p.run(script)
}

type perlInterp struct {
	ctx     *shell.Context
	newline bool
	modules map[string]bool
}

func (p *perlInterp) run(script string) int {
	for _, stmt := range strings.Split(script, ";") {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		word, rest, _ := strings.Cut(stmt, " ")
		switch word {
		case "print", "say":
			var out strings.Builder
			for _, e := range splitArgs(rest) {
				v, err := p.eval(strings.TrimSpace(e))
				if err != nil {
					fmt.Fprintln(p.ctx.Stderr, err)
					return 255
				}
				out.WriteString(v)
			}
			if p.newline || word == "say" {
				out.WriteString("\n")
			}
			fmt.Fprint(p.ctx.Stdout, out.String())
		case "exit":
			n, _ := strconv.Atoi(strings.Trim(strings.TrimSpace(rest), "()"))
			return n
		default:
			if _, err := p.eval(stmt); err == nil {
				continue // a bare value is a statement that does nothing
			}
			fmt.Fprintf(p.ctx.Stderr, "syntax error at -e line 1, near \"%s\"\nExecution of -e aborted due to compilation errors.\n", stmt)
			return 255
		}
	}
	return 0
}

func (p *perlInterp) eval(e string) (string, error) {
	switch {
	case strings.HasPrefix(e, "bpi(") && strings.HasSuffix(e, ")"):
		if !p.modules["bignum::bpi"] && !p.modules["bigrat::bpi"] && !p.modules["Math::BigFloat"] {
			return "", fmt.Errorf("Undefined subroutine &main::bpi called at -e line 1.")
		}
		n, err := strconv.Atoi(strings.TrimSpace(e[4 : len(e)-1]))
		if err != nil || n < 0 || n > 100000 {
			return "", fmt.Errorf("Argument \"%s\" isn't numeric in subroutine entry at -e line 1.", e[4:len(e)-1])
		}
		return Pi(n), nil
	case len(e) >= 2 && (e[0] == '"' && e[len(e)-1] == '"' || e[0] == '\'' && e[len(e)-1] == '\''):
		s := e[1 : len(e)-1]
		if e[0] == '"' {
			s = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(s)
		}
		return s, nil
	}
	if f, err := strconv.ParseFloat(e, 64); err == nil {
		return trimZeros(strconv.FormatFloat(f, 'f', -1, 64)), nil
	}
	return "", fmt.Errorf("syntax error at -e line 1, near \"print %s\"\nExecution of -e aborted due to compilation errors.", e)
}

// splitArgs splits a print list on commas outside quotes and parentheses.
func splitArgs(s string) []string {
	var out []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
