package kubectl

import (
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Flag is one command-line flag, parsed as spf13/pflag parses it (kubectl's
// flag library), so errors and edge cases read the same.
type Flag struct {
	Name      string
	Shorthand string
	// Type is bool, string, int, duration, slice (comma-separated, repeatable)
	// or array (repeatable, no splitting).
	Type     string
	DefValue string
	// NoOptDefVal is the value a flag given without "=value" takes; set for
	// bools ("true") and a few strings (--dry-run, --validate, --cascade).
	NoOptDefVal string
	// Deprecated, when set, is printed when the flag is used.
	Deprecated string
	Hidden     bool
	Changed    bool

	value  string
	values []string
}

// String is the flag's value as pflag's Value.String() prints it.
func (f *Flag) String() string {
	switch f.Type {
	case "slice", "array":
		return "[" + strings.Join(f.values, ",") + "]"
	}
	return f.value
}

func (f *Flag) set(v string) error {
	switch f.Type {
	case "bool":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return err
		}
		f.value = strconv.FormatBool(b)
	case "int":
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return err
		}
		f.value = strconv.FormatInt(n, 10)
	case "duration":
		d, err := time.ParseDuration(v)
		if err != nil {
			return err
		}
		f.value = d.String()
	case "slice":
		vals, err := readCSV(v)
		if err != nil {
			return err
		}
		if !f.Changed {
			f.values = nil
		}
		f.values = append(f.values, vals...)
	case "array":
		if !f.Changed {
			f.values = nil
		}
		f.values = append(f.values, v)
	default:
		f.value = v
	}
	f.Changed = true
	return nil
}

func readCSV(v string) ([]string, error) {
	if v == "" {
		return []string{}, nil
	}
	r := csv.NewReader(strings.NewReader(v))
	rec, err := r.Read()
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// FlagSet is the flags one command accepts (its own and the global ones)
// and, after Parse, the positional arguments.
type FlagSet struct {
	byName  map[string]*Flag
	byShort map[byte]*Flag
	order   []*Flag
	args    []string
	// visited records each flag as it was parsed, with its value as typed,
	// for --record's change cause.
	visited []visitedFlag
	// warnings are deprecation notices, printed to stderr in order.
	warnings []string
	// dashAt is how many arguments came before "--" (-1: no "--").
	dashAt int
}

// ArgsLenAtDash is how many arguments preceded "--", or -1 (pflag's).
func (fs *FlagSet) ArgsLenAtDash() int { return fs.dashAt }

type visitedFlag struct {
	flag  *Flag
	value string
}

func newFlagSet() *FlagSet {
	return &FlagSet{byName: map[string]*Flag{}, byShort: map[byte]*Flag{}}
}

// add registers a flag; a later flag of the same name replaces nothing
// (the command's own flags are added before the global ones).
func (fs *FlagSet) add(spec flagSpec) *Flag {
	if f, ok := fs.byName[spec.name]; ok {
		return f
	}
	f := &Flag{Name: spec.name, Shorthand: spec.short, Type: spec.typ, DefValue: spec.def}
	if f.Type == "bool" {
		f.NoOptDefVal = "true"
	}
	f.value = spec.def
	if f.Type == "slice" || f.Type == "array" {
		f.DefValue = "[]"
	}
	fs.byName[f.Name] = f
	if f.Shorthand != "" {
		if _, taken := fs.byShort[f.Shorthand[0]]; !taken {
			fs.byShort[f.Shorthand[0]] = f
		}
	}
	fs.order = append(fs.order, f)
	return f
}

// Lookup finds a flag by long name.
func (fs *FlagSet) Lookup(name string) *Flag { return fs.byName[name] }

// Args are the positional arguments left after Parse.
func (fs *FlagSet) Args() []string { return fs.args }

// normalizeName is kubectl's WordSepNormalizeFunc: "_" reads as "-".
func normalizeName(name string) string { return strings.ReplaceAll(name, "_", "-") }

// Parse reads args as pflag does with interspersed flags: "--" ends the
// flags, "-" is an argument, "--name=v", "--name v", "-n v", "-nv", "-n=v"
// and grouped bool shorthands ("-it").
func (fs *FlagSet) Parse(args []string) error {
	fs.dashAt = -1
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		if len(s) == 0 || s[0] != '-' || len(s) == 1 {
			fs.args = append(fs.args, s)
			continue
		}
		if s[1] == '-' {
			if len(s) == 2 {
				fs.dashAt = len(fs.args)
				fs.args = append(fs.args, args...)
				return nil
			}
			var err error
			args, err = fs.parseLong(s, args)
			if err != nil {
				return err
			}
			continue
		}
		shorthands := s[1:]
		for len(shorthands) > 0 {
			var err error
			shorthands, args, err = fs.parseShort(shorthands, args)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (fs *FlagSet) parseLong(s string, args []string) ([]string, error) {
	name := s[2:]
	if len(name) == 0 || name[0] == '-' || name[0] == '=' {
		return args, fmt.Errorf("bad flag syntax: %s", s)
	}
	parts := strings.SplitN(name, "=", 2)
	name = normalizeName(parts[0])
	f, ok := fs.byName[name]
	if !ok {
		if name == "help" {
			return args, errHelp
		}
		return args, fmt.Errorf("unknown flag: --%s", name)
	}
	var value string
	switch {
	case len(parts) == 2:
		value = parts[1]
	case f.NoOptDefVal != "":
		value = f.NoOptDefVal
	case len(args) > 0:
		value = args[0]
		args = args[1:]
	default:
		return args, fmt.Errorf("flag needs an argument: %s", s)
	}
	return args, fs.setFlag(f, value)
}

func (fs *FlagSet) parseShort(shorthands string, args []string) (string, []string, error) {
	c := shorthands[0]
	rest := shorthands[1:]
	f, ok := fs.byShort[c]
	if !ok {
		if c == 'h' {
			return "", args, errHelp
		}
		return "", args, fmt.Errorf("unknown shorthand flag: %q in -%s", c, shorthands)
	}
	var value string
	switch {
	case len(shorthands) > 2 && shorthands[1] == '=':
		value = shorthands[2:]
		rest = ""
	case f.NoOptDefVal != "":
		value = f.NoOptDefVal
	case len(shorthands) > 1:
		value = shorthands[1:]
		rest = ""
	case len(args) > 0:
		value = args[0]
		args = args[1:]
	default:
		return "", args, fmt.Errorf("flag needs an argument: %q in -%s", c, shorthands)
	}
	return rest, args, fs.setFlag(f, value)
}

func (fs *FlagSet) setFlag(f *Flag, value string) error {
	if err := f.set(value); err != nil {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", --" + f.Name
		}
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = fmt.Errorf("%s: parsing %q: %v", "strconv."+ne.Func, ne.Num, ne.Err)
		}
		return fmt.Errorf("invalid argument %q for %q flag: %v", value, name, err)
	}
	if f.Deprecated != "" {
		fs.warnings = append(fs.warnings, fmt.Sprintf("Flag --%s has been deprecated, %s", f.Name, f.Deprecated))
	}
	fs.visited = append(fs.visited, visitedFlag{f, value})
	return nil
}

var errHelp = errors.New("help requested")

// Typed getters. A flag a command does not define reads as its zero value.

func (fs *FlagSet) String(name string) string {
	if f := fs.byName[name]; f != nil {
		return f.value
	}
	return ""
}

func (fs *FlagSet) Bool(name string) bool {
	if f := fs.byName[name]; f != nil {
		return f.value == "true"
	}
	return false
}

func (fs *FlagSet) Int(name string) int64 {
	if f := fs.byName[name]; f != nil {
		n, _ := strconv.ParseInt(f.value, 10, 64)
		return n
	}
	return 0
}

func (fs *FlagSet) Duration(name string) time.Duration {
	if f := fs.byName[name]; f != nil {
		d, _ := time.ParseDuration(f.value)
		return d
	}
	return 0
}

func (fs *FlagSet) Strings(name string) []string {
	if f := fs.byName[name]; f != nil {
		return f.values
	}
	return nil
}

// Changed reports whether the user gave the flag.
func (fs *FlagSet) Changed(name string) bool {
	f := fs.byName[name]
	return f != nil && f.Changed
}

// hasNoOptDefVal and shortHasNoOptDefVal answer cobra's question while it
// looks for the subcommand: does this flag consume the next argument?
func (fs *FlagSet) hasNoOptDefVal(name string) bool {
	f := fs.byName[normalizeName(name)]
	return f != nil && f.NoOptDefVal != ""
}

func (fs *FlagSet) shortHasNoOptDefVal(name string) bool {
	if name == "" {
		return false
	}
	f := fs.byShort[name[0]]
	return f != nil && f.NoOptDefVal != ""
}
