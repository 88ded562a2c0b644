package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// maxHistory bounds the lines a shell remembers, as HISTSIZE does.
const maxHistory = 1000

// AddHistory records a line the user entered. The embedder calls it for
// each line typed at the prompt, before running it, so `history` lists
// itself as bash's does. Blank lines and a repeat of the previous line are
// not recorded (bash with HISTCONTROL=ignoreboth).
func (s *Shell) AddHistory(line string) {
	if strings.TrimSpace(line) == "" || line[0] == ' ' {
		return
	}
	if n := len(s.history); n > 0 && s.history[n-1].line == line {
		return
	}
	s.histNext++
	s.history = append(s.history, historyEntry{s.histNext, line})
	if len(s.history) > maxHistory {
		s.history = s.history[len(s.history)-maxHistory:]
	}
}

// History returns the remembered lines, oldest first.
func (s *Shell) History() []string {
	out := make([]string, len(s.history))
	for i, e := range s.history {
		out[i] = e.line
	}
	return out
}

type historyEntry struct {
	n    int
	line string
}

// historyCmd is bash's `history [N]` and `history -c`.
func historyCmd(ctx *Context, args []string) int {
	s := ctx.Shell
	entries := s.history
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-c":
			s.history = nil
			return 0
		case a == "--":
			args = args[1:]
			continue
		case len(a) > 1 && a[0] == '-' && (a[1] < '0' || a[1] > '9'):
			berr(ctx, "%s: invalid option", a)
			fmt.Fprintln(ctx.Stderr, "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]")
			return 2
		}
		break
	}
	if len(args) > 1 {
		berr(ctx, "too many arguments")
		return 1
	}
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 {
			berr(ctx, "%s: numeric argument required", args[0])
			return 1
		}
		if n < len(entries) {
			entries = entries[len(entries)-n:]
		}
	}
	for _, e := range entries {
		fmt.Fprintf(ctx.Stdout, "%5d  %s\n", e.n, e.line)
	}
	return 0
}

// clearCmd clears the terminal with the sequence `clear` sends for
// TERM=xterm-256color: home, erase the screen and, unless -x, the
// scrollback.
func clearCmd(ctx *Context, args []string) int {
	scrollback := true
	for _, a := range args {
		switch {
		case a == "-x":
			scrollback = false
		case len(a) > 1 && a[0] == '-' && a != "-T":
			fmt.Fprintf(ctx.Stderr, "clear: invalid option -- '%c'\n%s", a[1], clearUsage)
			return 1
		case a[0] != '-':
			fmt.Fprint(ctx.Stderr, clearUsage)
			return 1
		}
	}
	fmt.Fprint(ctx.Stdout, "\x1b[H\x1b[2J")
	if scrollback {
		fmt.Fprint(ctx.Stdout, "\x1b[3J")
	}
	return 0
}

const clearUsage = "Usage: clear [options]\n\nOptions:\n  -T TERM     use this instead of $TERM\n  -V          print curses-version\n  -x          do not try to clear scrollback\n"
