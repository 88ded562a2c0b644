package shell

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// sort and uniq, as GNU's in the C locale (bytewise order).

type sortKey struct {
	startField, startChar                                          int // 1-based; startChar 0 = start of field
	endField, endChar                                              int // endField 0 = end of line; endChar 0 = end of field
	numeric, general, human, version, reverse, fold, blanks, month bool
}

func (k *sortKey) hasOrdering() bool {
	return k.numeric || k.general || k.human || k.version || k.reverse || k.fold || k.blanks || k.month
}

// setFlags applies key option letters (n, r, f, b, g, h, V, M).
func (k *sortKey) setFlags(flags string) bool {
	for _, c := range flags {
		switch c {
		case 'n':
			k.numeric = true
		case 'g':
			k.general = true
		case 'h':
			k.human = true
		case 'V':
			k.version = true
		case 'r':
			k.reverse = true
		case 'f':
			k.fold = true
		case 'b':
			k.blanks = true
		case 'M':
			k.month = true
		case 'd', 'i', 'R':
		default:
			return false
		}
	}
	return true
}

// parseKeyPos reads F[.C][flags].
func parseKeyPos(s string) (field, char int, flags string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	f, err := strconv.Atoi(s[:i])
	if err != nil {
		return 0, 0, "", false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		c, err := strconv.Atoi(s[i+1 : j])
		if err != nil {
			return 0, 0, "", false
		}
		char, i = c, j
	}
	return f, char, s[i:], true
}

func sortCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "nrufbghVMsck:t:o:zdiR", long: map[string]longOpt{
		"numeric-sort": {short: "n"}, "reverse": {short: "r"}, "unique": {short: "u"}, "ignore-case": {short: "f"},
		"ignore-leading-blanks": {short: "b"}, "general-numeric-sort": {short: "g"}, "human-numeric-sort": {short: "h"},
		"version-sort": {short: "V"}, "month-sort": {short: "M"}, "stable": {short: "s"}, "check": {short: "c"},
		"key": {short: "k", arg: reqArg}, "field-separator": {short: "t", arg: reqArg}, "output": {short: "o", arg: reqArg},
	}})
	if !ok {
		return 2
	}
	global := sortKey{}
	var keys []sortKey
	unique, stable, check := false, false, false
	sep := ""
	output := ""
	for _, o := range opts {
		switch o.name {
		case "u":
			unique = true
		case "s":
			stable = true
		case "c":
			check = true
		case "o":
			output = o.val
		case "t":
			if len([]rune(o.val)) != 1 {
				if o.val == "" {
					fmt.Fprintln(ctx.Stderr, "sort: empty tab")
				} else {
					fmt.Fprintf(ctx.Stderr, "sort: multi-character tab '%s'\n", o.val)
				}
				return 2
			}
			sep = o.val
		case "k":
			k, ok := parseSortKey(o.val)
			if !ok {
				fmt.Fprintf(ctx.Stderr, "sort: invalid number at field start: invalid count at start of '%s'\n", o.val)
				return 2
			}
			keys = append(keys, k)
		default:
			global.setFlags(o.name)
		}
	}
	if len(keys) == 0 {
		keys = []sortKey{{startField: 1}}
	}
	for i := range keys {
		if !keys[i].hasOrdering() {
			k := global
			k.startField, k.startChar, k.endField, k.endChar = keys[i].startField, keys[i].startChar, keys[i].endField, keys[i].endChar
			keys[i] = k
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var lines []string
	for _, f := range files {
		text, ok := readInput(ctx, f)
		if !ok {
			reason := "No such file or directory"
			if f != "-" && ctx.FS.IsDir(ctx.Abs(f)) {
				reason = "Is a directory"
			}
			fmt.Fprintf(ctx.Stderr, "sort: cannot read: %s: %s\n", f, reason)
			return 2
		}
		ls, _ := splitLines(text)
		lines = append(lines, ls...)
	}
	cmp := func(a, b string) int {
		for i := range keys {
			if c := compareKey(&keys[i], a, b, sep); c != 0 {
				return c
			}
		}
		if unique || stable {
			return 0
		}
		c := strings.Compare(a, b)
		if global.reverse {
			c = -c
		}
		return c
	}
	if check {
		for i := 1; i < len(lines); i++ {
			if c := cmp(lines[i-1], lines[i]); c > 0 || unique && c == 0 {
				fmt.Fprintf(ctx.Stderr, "sort: %s:%d: disorder: %s\n", files[0], i+1, lines[i])
				return 1
			}
		}
		return 0
	}
	sort.SliceStable(lines, func(i, j int) bool { return cmp(lines[i], lines[j]) < 0 })
	var b strings.Builder
	for i, l := range lines {
		if unique && i > 0 && cmp(lines[i-1], l) == 0 {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if output != "" {
		if err := ctx.WriteFile(output, []byte(b.String()), false); err != nil {
			fmt.Fprintf(ctx.Stderr, "sort: open failed: %v\n", err)
			return 2
		}
		return 0
	}
	io.WriteString(ctx.Stdout, b.String())
	return 0
}

func parseSortKey(v string) (sortKey, bool) {
	var k sortKey
	start, end, hasEnd := strings.Cut(v, ",")
	f, c, flags, ok := parseKeyPos(start)
	if !ok || f < 1 || !k.setFlags(flags) {
		return k, false
	}
	k.startField, k.startChar = f, c
	if hasEnd {
		f, c, flags, ok := parseKeyPos(end)
		if !ok || f < 1 || !k.setFlags(flags) {
			return k, false
		}
		k.endField, k.endChar = f, c
	}
	return k, true
}

// fieldSpans returns [start,end) of each field: split at sep, or by runs
// of blanks where leading blanks belong to the following field.
func fieldSpans(line, sep string) [][2]int {
	var spans [][2]int
	if sep != "" {
		start := 0
		for {
			i := strings.Index(line[start:], sep)
			if i < 0 {
				spans = append(spans, [2]int{start, len(line)})
				return spans
			}
			spans = append(spans, [2]int{start, start + i})
			start += i + len(sep)
		}
	}
	i := 0
	for i < len(line) {
		start := i
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		spans = append(spans, [2]int{start, i})
	}
	return spans
}

func keyText(k *sortKey, line, sep string) string {
	spans := fieldSpans(line, sep)
	if k.startField > len(spans) {
		return ""
	}
	sp := spans[k.startField-1]
	from := sp[0]
	if k.blanks || sep == "" && k.startChar > 0 {
		for from < sp[1] && (line[from] == ' ' || line[from] == '\t') {
			from++
		}
	}
	if k.startChar > 0 {
		from = min(from+k.startChar-1, sp[1])
	}
	to := len(line)
	if k.endField > 0 {
		if k.endField <= len(spans) {
			ep := spans[k.endField-1]
			to = ep[1]
			if k.endChar > 0 {
				s := ep[0]
				if k.blanks || sep == "" {
					for s < ep[1] && (line[s] == ' ' || line[s] == '\t') {
						s++
					}
				}
				to = min(s+k.endChar, ep[1])
			}
		}
	}
	if to < from {
		return ""
	}
	t := line[from:to]
	if k.blanks {
		t = strings.TrimLeft(t, " \t")
	}
	return t
}

func compareKey(k *sortKey, a, b, sep string) int {
	ka, kb := keyText(k, a, sep), keyText(k, b, sep)
	var c int
	switch {
	case k.numeric:
		c = compareNumeric(ka, kb)
	case k.general:
		fa, errA := strconv.ParseFloat(strings.TrimSpace(ka), 64)
		fb, errB := strconv.ParseFloat(strings.TrimSpace(kb), 64)
		switch {
		case errA != nil && errB != nil:
			c = 0
		case errA != nil:
			c = -1
		case errB != nil:
			c = 1
		case fa < fb:
			c = -1
		case fa > fb:
			c = 1
		}
	case k.human:
		c = compareFloat(humanValue(ka), humanValue(kb))
	case k.version:
		c = compareVersion(ka, kb)
	case k.month:
		c = monthIndex(ka) - monthIndex(kb)
	case k.fold:
		c = strings.Compare(strings.ToUpper(ka), strings.ToUpper(kb))
	default:
		c = strings.Compare(ka, kb)
	}
	if k.reverse {
		c = -c
	}
	return c
}

// numPrefix reads sort -n's number: blanks, sign, digits, decimal part.
func numPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t")
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0
	}
	return v
}

func compareNumeric(a, b string) int { return compareFloat(numPrefix(a), numPrefix(b)) }

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func humanValue(s string) float64 {
	s = strings.TrimSpace(s)
	v := numPrefix(s)
	i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) })
	if i >= 0 {
		switch s[i] {
		case 'K', 'k':
			v *= 1e3
		case 'M':
			v *= 1e6
		case 'G':
			v *= 1e9
		case 'T':
			v *= 1e12
		case 'P':
			v *= 1e15
		}
	}
	return v
}

func monthIndex(s string) int {
	s = strings.ToUpper(strings.TrimSpace(s))
	for i, m := range []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"} {
		if strings.HasPrefix(s, m) {
			return i + 1
		}
	}
	return 0
}

// compareVersion orders digit runs numerically and the rest bytewise.
func compareVersion(a, b string) int {
	for a != "" && b != "" {
		da, db := a[0] >= '0' && a[0] <= '9', b[0] >= '0' && b[0] <= '9'
		if da && db {
			i, j := 0, 0
			for i < len(a) && a[i] >= '0' && a[i] <= '9' {
				i++
			}
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return compareFloat(float64(len(na)), float64(len(nb)))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return compareFloat(float64(a[0]), float64(b[0]))
		}
		a, b = a[1:], b[1:]
	}
	return compareFloat(float64(len(a)), float64(len(b)))
}

func uniqCmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "cduif:s:w:", long: map[string]longOpt{
		"count": {short: "c"}, "repeated": {short: "d"}, "unique": {short: "u"}, "ignore-case": {short: "i"},
		"skip-fields": {short: "f", arg: reqArg}, "skip-chars": {short: "s", arg: reqArg}, "check-chars": {short: "w", arg: reqArg},
	}})
	if !ok {
		return 1
	}
	var count, dups, uniques, icase bool
	skipF, skipC, checkC := 0, 0, -1
	for _, o := range opts {
		switch o.name {
		case "c":
			count = true
		case "d":
			dups = true
		case "u":
			uniques = true
		case "i":
			icase = true
		case "f", "s", "w":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 0 {
				what := map[string]string{"f": "number of fields to skip", "s": "number of bytes to skip", "w": "number of bytes to compare"}[o.name]
				fmt.Fprintf(ctx.Stderr, "uniq: %s: invalid %s\n", o.val, what)
				return 1
			}
			switch o.name {
			case "f":
				skipF = n
			case "s":
				skipC = n
			case "w":
				checkC = n
			}
		}
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	if len(files) > 2 {
		fmt.Fprintf(ctx.Stderr, "uniq: extra operand '%s'\n", files[2])
		tryHelp(ctx)
		return 1
	}
	text, ok := readInput(ctx, in)
	if !ok {
		inputError(ctx, in)
		return 1
	}
	key := func(l string) string {
		for f := 0; f < skipF; f++ {
			l = strings.TrimLeft(l, " \t")
			i := strings.IndexAny(l, " \t")
			if i < 0 {
				l = ""
				break
			}
			l = l[i:]
		}
		if skipC > 0 {
			l = l[min(skipC, len(l)):]
		}
		if checkC >= 0 && checkC < len(l) {
			l = l[:checkC]
		}
		if icase {
			l = strings.ToLower(l)
		}
		return l
	}
	lines, _ := splitLines(text)
	var b strings.Builder
	flush := func(l string, n int) {
		if dups && n < 2 || uniques && n > 1 {
			return
		}
		if count {
			fmt.Fprintf(&b, "%7d %s\n", n, l)
		} else {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && key(lines[j]) == key(lines[i]) {
			j++
		}
		flush(lines[i], j-i)
		i = j
	}
	if len(files) == 2 {
		if err := ctx.WriteFile(files[1], []byte(b.String()), false); err != nil {
			fmt.Fprintf(ctx.Stderr, "uniq: %v\n", err)
			return 1
		}
		return 0
	}
	io.WriteString(ctx.Stdout, b.String())
	return 0
}
