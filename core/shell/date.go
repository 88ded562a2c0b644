package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// date, as GNU date, on the virtual clock (ctx.Now) and in UTC: the
// default format, +FORMAT, -d (@seconds, RFC 3339, ISO dates, now,
// yesterday/tomorrow, relative "N units [ago]"), -u, -R, -I and --rfc-3339.

func unixTime(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

var dateSpec = optSpec{
	short: "d:uRI::r:f:s:",
	long: map[string]longOpt{
		"date": {short: "d", arg: reqArg}, "utc": {short: "u"}, "universal": {short: "u"},
		"rfc-email": {short: "R"}, "rfc-2822": {short: "R"}, "iso-8601": {short: "I", arg: optArg},
		"rfc-3339": {arg: reqArg}, "reference": {short: "r", arg: reqArg}, "set": {short: "s", arg: reqArg},
		"file": {short: "f", arg: reqArg}, "help": {}, "version": {},
	},
}

func dateCmd(ctx *Context, args []string) int {
	// -I takes its value attached only (-Iseconds); getopt would take the
	// next word, so split it off first.
	var pre []string
	for i, a := range args {
		if a == "--" {
			pre = append(pre, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-I") {
			pre = append(pre, "--iso-8601="+strings.TrimPrefix(a, "-I"))
			continue
		}
		pre = append(pre, a)
	}
	opts, operands, ok := getopt(ctx, pre, dateSpec)
	if !ok {
		return 1
	}
	t := ctx.Now().UTC()
	format := "%a %b %e %H:%M:%S %Z %Y"
	fixed := ""
	for _, o := range opts {
		switch o.name {
		case "d":
			d, ok := parseDate(o.val, ctx.Now().UTC())
			if !ok {
				fmt.Fprintf(ctx.Stderr, "date: invalid date ‘%s’\n", o.val)
				return 1
			}
			t = d
		case "r":
			fi, err := ctx.FS.Stat(ctx.Abs(o.val))
			if err != nil {
				fmt.Fprintf(ctx.Stderr, "date: %s: %s\n", o.val, errReason(err))
				return 1
			}
			t = fi.ModTime().UTC()
		case "s":
			fmt.Fprintln(ctx.Stderr, "date: cannot set date: Operation not permitted")
			return 1
		case "R":
			fixed = "%a, %d %b %Y %H:%M:%S %z"
		case "I":
			switch o.val {
			case "", "date":
				fixed = "%Y-%m-%d"
			case "hours":
				fixed = "%Y-%m-%dT%H%:z"
			case "minutes":
				fixed = "%Y-%m-%dT%H:%M%:z"
			case "seconds":
				fixed = "%Y-%m-%dT%H:%M:%S%:z"
			case "ns":
				fixed = "%Y-%m-%dT%H:%M:%S,%N%:z"
			default:
				fmt.Fprintf(ctx.Stderr, "date: invalid argument '%s' for '--iso-8601'\n", o.val)
				io.WriteString(ctx.Stderr, "Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\n")
				tryHelp(ctx)
				return 1
			}
		case "rfc-3339":
			switch o.val {
			case "date":
				fixed = "%Y-%m-%d"
			case "seconds":
				fixed = "%Y-%m-%d %H:%M:%S%:z"
			case "ns":
				fixed = "%Y-%m-%d %H:%M:%S.%N%:z"
			default:
				fmt.Fprintf(ctx.Stderr, "date: invalid argument '%s' for '--rfc-3339'\n", o.val)
				io.WriteString(ctx.Stderr, "Valid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'\n")
				tryHelp(ctx)
				return 1
			}
		case "help":
			io.WriteString(ctx.Stdout, "Usage: date [OPTION]... [+FORMAT]\nDisplay date and time in the given FORMAT.\n")
			return 0
		case "version":
			io.WriteString(ctx.Stdout, "date (GNU coreutils) 9.1\n")
			return 0
		}
	}
	if len(operands) > 1 {
		fmt.Fprintf(ctx.Stderr, "date: extra operand '%s'\n", operands[1])
		tryHelp(ctx)
		return 1
	}
	if len(operands) == 1 {
		if !strings.HasPrefix(operands[0], "+") {
			fmt.Fprintln(ctx.Stderr, "date: cannot set date: Operation not permitted")
			return 1
		}
		if fixed != "" {
			fmt.Fprintln(ctx.Stderr, "date: multiple output formats specified")
			return 1
		}
		format = operands[0][1:]
	}
	if fixed != "" {
		format = fixed
	}
	io.WriteString(ctx.Stdout, strftime(format, t)+"\n")
	return 0
}

var dateUnits = map[string]time.Duration{
	"sec": time.Second, "second": time.Second, "min": time.Minute, "minute": time.Minute,
	"hour": time.Hour, "day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "fortnight": 14 * 24 * time.Hour,
}

// parseDate reads the date strings lessons use.
func parseDate(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(s)
	ls := strings.ToLower(s)
	switch ls {
	case "", "now", "today":
		return now, true
	case "yesterday":
		return now.Add(-24 * time.Hour), true
	case "tomorrow":
		return now.Add(24 * time.Hour), true
	}
	if strings.HasPrefix(s, "@") {
		v, err := strconv.ParseFloat(s[1:], 64)
		if err != nil || v > 1e12 || v < -1e12 {
			return time.Time{}, false
		}
		sec := int64(v)
		return time.Unix(sec, int64((v-float64(sec))*1e9)).UTC(), true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02", "2006/01/02",
		"2006/01/02 15:04:05", "Mon Jan _2 15:04:05 MST 2006", "Mon, 02 Jan 2006 15:04:05 -0700",
		"Jan 2 2006", "2 Jan 2006", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	// Relative: "N unit[s] [ago]", possibly several, e.g. "1 hour ago".
	f := strings.Fields(ls)
	t := now
	if len(f) == 0 {
		return time.Time{}, false
	}
	for i := 0; i < len(f); {
		n := int64(1)
		if v, err := strconv.ParseInt(f[i], 10, 64); err == nil {
			n = v
			i++
		}
		if i >= len(f) {
			return time.Time{}, false
		}
		unit := strings.TrimSuffix(f[i], "s")
		i++
		if i < len(f) && f[i] == "ago" {
			n = -n
			i++
		}
		switch unit {
		case "month":
			t = t.AddDate(0, int(n), 0)
		case "year":
			t = t.AddDate(int(n), 0, 0)
		default:
			d, ok := dateUnits[unit]
			if !ok || n > 1e6 || n < -1e6 {
				return time.Time{}, false
			}
			t = t.Add(time.Duration(n) * d)
		}
	}
	return t, true
}

// strftime formats t as C's strftime (with GNU's flags - _ 0 ^ # and widths).
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		pad := byte(0)
		upper := false
		for i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0 {
			switch format[i] {
			case '^':
				upper = true
			case '#':
			default:
				pad = format[i]
			}
			i++
		}
		width := -1
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if width < 0 {
				width = 0
			}
			width = min(width*10+int(format[i]-'0'), 1024)
			i++
		}
		colons := 0
		for i < len(format) && format[i] == ':' {
			colons++
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		v, numeric, defWidth, defPad := strftimeField(format[i], colons, t)
		if v == "\x00" {
			b.WriteString(format[start : i+1])
			continue
		}
		if upper {
			v = strings.ToUpper(v)
		}
		if numeric {
			p := defPad
			if pad != 0 {
				p = pad
			}
			w := defWidth
			if width >= 0 {
				w = width
			}
			neg := strings.HasPrefix(v, "-")
			digits := strings.TrimLeft(strings.TrimPrefix(v, "-"), " 0")
			if digits == "" {
				digits = "0"
			}
			if p == '-' {
				v = digits
				if neg {
					v = "-" + v
				}
			} else {
				fill := "0"
				if p == '_' {
					fill = " "
				}
				n := w - len(digits)
				if neg {
					n--
				}
				sign := ""
				if neg {
					sign = "-"
				}
				if fill == "0" {
					v = sign + strings.Repeat("0", max(0, n)) + digits
				} else {
					v = strings.Repeat(" ", max(0, n)) + sign + digits
				}
			}
		} else if width > len(v) {
			fill := " "
			if pad == '0' {
				fill = "0"
			}
			v = strings.Repeat(fill, width-len(v)) + v
		}
		b.WriteString(v)
	}
	return b.String()
}

// strftimeField returns one conversion's text, whether it is a padded
// number, and its default width and padding ("\x00": unknown conversion).
func strftimeField(c byte, colons int, t time.Time) (string, bool, int, byte) {
	num := func(n, w int) (string, bool, int, byte) { return strconv.Itoa(n), true, w, '0' }
	switch c {
	case 'a':
		return t.Format("Mon"), false, 0, 0
	case 'A':
		return t.Format("Monday"), false, 0, 0
	case 'b', 'h':
		return t.Format("Jan"), false, 0, 0
	case 'B':
		return t.Format("January"), false, 0, 0
	case 'c':
		return strftime("%a %b %e %H:%M:%S %Y", t), false, 0, 0
	case 'C':
		return num(t.Year()/100, 2)
	case 'd':
		return num(t.Day(), 2)
	case 'D':
		return strftime("%m/%d/%y", t), false, 0, 0
	case 'e':
		v, _, _, _ := num(t.Day(), 2)
		return v, true, 2, '_'
	case 'F':
		return strftime("%Y-%m-%d", t), false, 0, 0
	case 'g':
		y, _ := t.ISOWeek()
		return num(y%100, 2)
	case 'G':
		y, _ := t.ISOWeek()
		return num(y, 4)
	case 'H':
		return num(t.Hour(), 2)
	case 'I':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return num(h, 2)
	case 'j':
		return num(t.YearDay(), 3)
	case 'k':
		return strconv.Itoa(t.Hour()), true, 2, '_'
	case 'l':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return strconv.Itoa(h), true, 2, '_'
	case 'm':
		return num(int(t.Month()), 2)
	case 'M':
		return num(t.Minute(), 2)
	case 'n':
		return "\n", false, 0, 0
	case 't':
		return "\t", false, 0, 0
	case 'N':
		return fmt.Sprintf("%09d", t.Nanosecond()), false, 0, 0
	case 'p':
		if t.Hour() < 12 {
			return "AM", false, 0, 0
		}
		return "PM", false, 0, 0
	case 'P':
		if t.Hour() < 12 {
			return "am", false, 0, 0
		}
		return "pm", false, 0, 0
	case 'r':
		return strftime("%I:%M:%S %p", t), false, 0, 0
	case 'R':
		return strftime("%H:%M", t), false, 0, 0
	case 's':
		return strconv.FormatInt(t.Unix(), 10), true, 1, '0'
	case 'S':
		return num(t.Second(), 2)
	case 'T':
		return strftime("%H:%M:%S", t), false, 0, 0
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return num(wd, 1)
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2)
	case 'V':
		_, w := t.ISOWeek()
		return num(w, 2)
	case 'w':
		return num(int(t.Weekday()), 1)
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
	case 'x':
		return strftime("%m/%d/%y", t), false, 0, 0
	case 'X':
		return strftime("%H:%M:%S", t), false, 0, 0
	case 'y':
		return num(t.Year()%100, 2)
	case 'Y':
		return strconv.Itoa(t.Year()), false, 0, 0
	case 'z':
		_, off := t.Zone()
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		h, m, s := off/3600, off/60%60, off%60
		switch colons {
		case 0:
			return fmt.Sprintf("%s%02d%02d", sign, h, m), false, 0, 0
		case 1:
			return fmt.Sprintf("%s%02d:%02d", sign, h, m), false, 0, 0
		default:
			return fmt.Sprintf("%s%02d:%02d:%02d", sign, h, m, s), false, 0, 0
		}
	case 'Z':
		z, _ := t.Zone()
		return z, false, 0, 0
	case '%':
		return "%", false, 0, 0
	}
	return "\x00", false, 0, 0
}
