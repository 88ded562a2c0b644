// Package session reads and runs session files: kubectl sessions written
// as transcripts. A line starting with "$ " is a command, heredoc bodies
// follow their command up to the terminator, "#" lines just before a
// command are comments, and every other line is the command's expected
// output. Lessons, tests and `kubeplay run` all use it.
package session

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// File is a parsed session file.
type File struct {
	Name  string
	Steps []Step
}

// Step is one command with what it should print.
type Step struct {
	// Line is the 1-based line of the "$ " line in the file.
	Line     int
	Comments []string
	// Command is the command line without "$ "; Script adds heredoc bodies.
	Command string
	Script  string
	// Expected is the expected output, one entry per line.
	Expected []string
	// Unchecked is set by a "# unchecked" comment: the output depends on
	// timing or randomness the file cannot pin.
	Unchecked bool
}

var heredocStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)`) })

// Parse reads a session file.
func Parse(name, text string) (*File, error) {
	f := &File{Name: name}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	var pending []string // '#' lines that may be comments of the next command
	var cur *Step
	flush := func() {
		if cur != nil && len(pending) > 0 {
			cur.Expected = append(cur.Expected, pending...)
		}
		pending = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "$ "):
			comments := pending
			pending = nil
			step := Step{Line: i + 1, Command: line[2:], Comments: comments}
			for _, c := range comments {
				if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(c, "#")), "unchecked") {
					step.Unchecked = true
				}
			}
			script := []string{step.Command}
			// Heredocs: each marker's body follows, in order.
			for _, m := range heredocStart().FindAllStringSubmatch(stripQuoted(step.Command), -1) {
				term := m[2]
				dash := strings.Contains(m[0], "<<-")
				closed := false
				for i+1 < len(lines) {
					i++
					script = append(script, lines[i])
					body := lines[i]
					if dash {
						body = strings.TrimLeft(body, "\t")
					}
					if body == term {
						closed = true
						break
					}
				}
				if !closed {
					return nil, fmt.Errorf("%s:%d: heredoc %s is not closed", name, step.Line, term)
				}
			}
			step.Script = strings.Join(script, "\n")
			f.Steps = append(f.Steps, step)
			cur = &f.Steps[len(f.Steps)-1]
		case strings.HasPrefix(line, "#"):
			pending = append(pending, line)
		default:
			if cur == nil {
				if strings.TrimSpace(line) == "" {
					pending = nil
					continue
				}
				return nil, fmt.Errorf("%s:%d: output before the first command: %q", name, i+1, line)
			}
			flush()
			cur.Expected = append(cur.Expected, line)
		}
	}
	// '#' lines after the last command are its output only if something
	// else follows; trailing ones are comments of nothing, so drop them.
	return f, nil
}

// stripQuoted blanks out quoted text so "<<" inside quotes is no heredoc.
func stripQuoted(s string) string {
	b := []byte(s)
	var q byte
	for i := 0; i < len(b); i++ {
		switch {
		case q == 0 && (b[i] == '\'' || b[i] == '"'):
			q = b[i]
			b[i] = ' '
		case q != 0 && b[i] == q:
			q = 0
			b[i] = ' '
		case q != 0:
			b[i] = ' '
		}
	}
	return string(b)
}
