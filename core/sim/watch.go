package sim

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// In a session file nobody presses Ctrl-C: a watch ends once its
// command's output has not changed for watchIdleEnd, and after
// watchSessionMax at most (an AGE column changes on every screen).
const (
	watchIdleEnd    = 30 * time.Second
	watchSessionMax = 2 * time.Minute
)

// watchWidth is the terminal width the title is laid out in.
const watchWidth = 80

// watch is procps' `watch [-n SECONDS] [-t] [-g] [-e] [-x] COMMAND`: it
// runs COMMAND through `sh -c` every interval of virtual time and shows its
// latest output under a title. At a live terminal (or under `timeout`)
// each screen replaces the last until Ctrl-C; in a session file a screen
// is printed when the output changes, and the watch ends after a quiet
// spell or two minutes.
func (t *Terminal) watch(ctx *shell.Context, args []string) int {
	interval := 2 * time.Second
	title, chgExit, errExit, execDirect := true, false, false, false
	// set applies one option, its short letter standing for the long name.
	set := func(c byte, val string) (ok bool) {
		switch c {
		case 'n':
			interval, ok = watchInterval(ctx, val)
			return ok
		case 't':
			title = false
		case 'g':
			chgExit = true
		case 'e':
			errExit = true
		case 'x':
			execDirect = true
		}
		return true
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			c, known := watchLong[name]
			if !known {
				return watchUsage(ctx, fmt.Sprintf("unrecognized option '%s'", a))
			}
			if c == 'n' && !hasVal {
				if i+1 >= len(args) {
					return watchUsage(ctx, "option '--interval' requires an argument")
				}
				i++
				val = args[i]
			}
			if !set(c, val) {
				return 1
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if !strings.ContainsRune("ntgexdcCpbw", rune(c)) {
				return watchUsage(ctx, fmt.Sprintf("invalid option -- '%c'", c))
			}
			val := ""
			if c == 'n' {
				if val = a[j+1:]; val == "" {
					if i+1 >= len(args) {
						return watchUsage(ctx, "option requires an argument -- 'n'")
					}
					i++
					val = args[i]
				}
				j = len(a)
			}
			if !set(c, val) {
				return 1
			}
		}
	}
	argv := args[i:]
	if len(argv) == 0 {
		return watchUsage(ctx, "")
	}
	command := strings.Join(argv, " ")
	live := t.Interactive || !ctx.Deadline.IsZero()
	advance := t.advancer(ctx)
	host := ctx.Getenv("HOSTNAME")
	if host == "" {
		host = "kubeplay"
	}
	var prev string
	quiet := time.Duration(0)
	for n := 0; ; n++ {
		var buf bytes.Buffer
		run := *ctx
		run.Stdin, run.Stdout, run.Stderr = strings.NewReader(""), &buf, &buf
		var code int
		if execDirect {
			code = ctx.Shell.Call(&run, argv)
		} else {
			code = ctx.Shell.Call(&run, []string{"sh", "-c", command})
		}
		out := buf.String()
		changed := n == 0 || out != prev
		if live || changed {
			var screen strings.Builder
			if live {
				screen.WriteString("\x1b[H\x1b[2J")
			}
			if title {
				screen.WriteString(watchTitle(interval, command, host, ctx.Now()))
				screen.WriteString("\n\n")
			}
			screen.WriteString(out)
			if !live && !strings.HasSuffix(out, "\n") && out != "" {
				screen.WriteString("\n")
			}
			fmt.Fprint(ctx.Stdout, screen.String())
		}
		if chgExit && n > 0 && out != prev {
			return 0
		}
		if errExit && code != 0 {
			fmt.Fprintf(ctx.Stdout, "\ncommand exit with a non-zero status, press a key to exit\n")
			return code
		}
		prev = out
		if changed {
			quiet = 0
		} else {
			quiet += interval
		}
		if !live && (quiet >= watchIdleEnd || time.Duration(n+1)*interval > watchSessionMax) {
			return 0
		}
		if !advance(interval) {
			return 0
		}
	}
}

// watchTitle is the first line: the interval and command on the left, the
// host and time (ctime's layout) on the right of an 80-column screen.
func watchTitle(interval time.Duration, command, host string, now time.Time) string {
	left := fmt.Sprintf("Every %.1fs: %s", interval.Seconds(), command)
	right := host + ": " + now.Format("Mon Jan _2 15:04:05 2006")
	room := watchWidth - len(right) - 1
	if room < 0 {
		room = 0
	}
	if len(left) > room {
		left = left[:room]
	}
	return left + strings.Repeat(" ", watchWidth-len(left)-len(right)) + right
}

// watchLong maps watch's long options to their short letters; the ones
// that only change colours or highlighting are accepted and have no effect
// on plain text.
var watchLong = map[string]byte{
	"interval": 'n', "no-title": 't', "chgexit": 'g', "errexit": 'e', "exec": 'x',
	"differences": 'd', "color": 'c', "no-color": 'C', "precise": 'p', "beep": 'b', "no-wrap": 'w', "no-linewrap": 'w',
}

func watchInterval(ctx *shell.Context, s string) (time.Duration, bool) {
	f, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	if err != nil || f != f || f > 1e6 {
		fmt.Fprintf(ctx.Stderr, "watch: failed to parse argument: '%s': Invalid argument\n", s)
		return 0, false
	}
	// procps raises intervals below a tenth of a second to 0.1 s.
	return time.Duration(max(f, 0.1) * float64(time.Second)), true
}

func watchUsage(ctx *shell.Context, problem string) int {
	if problem != "" {
		fmt.Fprintf(ctx.Stderr, "watch: %s\n", problem)
	}
	fmt.Fprint(ctx.Stderr, "\nUsage:\n watch [options] command\n\nOptions:\n"+
		"  -n, --interval <secs>  seconds to wait between updates\n"+
		"  -t, --no-title         turn off header\n"+
		"  -g, --chgexit          exit when output from command changes\n"+
		"  -e, --errexit          exit if command has a non-zero exit\n"+
		"  -x, --exec             pass command to exec instead of \"sh -c\"\n")
	return 1
}
