package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"kubeplay/core/shell"
	"kubeplay/core/sim"
)

// runTTYShell is `kubeplay shell` at a terminal: a line editor with the
// arrow keys, history (Up/Down, and the shell's `history`), Tab completion
// from the cluster, and continuation lines ("> ") for heredocs and
// unfinished commands. Ctrl-C drops what was typed; Ctrl-D on an empty
// line ends the shell.
func runTTYShell(t *sim.Terminal, in *os.File, out io.Writer) int {
	fd := int(in.Fd())
	saved, err := term.MakeRaw(fd)
	if err != nil {
		fmt.Fprintf(out, "kubeplay shell: %v\n", err)
		return 1
	}
	defer term.Restore(fd, saved)
	registerHostEditor(t, fd, saved)
	width, height, _ := term.GetSize(fd)
	return editLines(t, in, out, width, height)
}

// editLines runs the line editor on keys read from in (raw bytes, as a
// terminal in raw mode sends them), echoing to out.
func editLines(t *sim.Terminal, in io.Reader, out io.Writer, width, height int) int {
	keys := &ctrlCReader{r: in}
	tt := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{keys, out}, "$ ")
	if width > 0 && height > 0 {
		tt.SetSize(width, height)
	}
	tt.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' {
			return "", 0, false
		}
		return completeAt(t, tt, line, pos)
	}
	for {
		tt.SetPrompt("$ ")
		script, ok := readScript(tt, keys)
		if !ok {
			return 0
		}
		if script == "" {
			continue
		}
		if strings.TrimSpace(script) == "exit" {
			return 0
		}
		tt.Write([]byte(t.Run(script)))
	}
}

// readScript reads one command line and, while it is unfinished (an open
// quote, a heredoc whose terminator has not come), its continuation lines.
// It reports false at the end of input.
func readScript(tt *term.Terminal, keys *ctrlCReader) (string, bool) {
	var lines []string
	for {
		line, err := tt.ReadLine()
		if err != nil {
			return "", false
		}
		// Ctrl-C arrives as an erased line (see ctrlCReader).
		if line == "" && keys.sawCtrlC() {
			return "", true
		}
		lines = append(lines, line)
		script := strings.Join(lines, "\n")
		if !needsMore(script) {
			return script, true
		}
		tt.SetPrompt("> ")
	}
}

// needsMore reports an unfinished script: the shell's parser wants more,
// or a heredoc's terminator has not been read.
func needsMore(script string) bool {
	if shell.Incomplete(script) {
		return true
	}
	lines := strings.Split(script, "\n")
	for _, m := range heredocMarker.FindAllStringSubmatch(lines[0], -1) {
		found := false
		for _, l := range lines[1:] {
			if strings.TrimLeft(l, "\t") == m[1] {
				found = true
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// completeAt completes the word before the cursor: the one candidate in
// full, else the candidates' common prefix; when Tab cannot add anything
// the candidates are listed above the prompt, as bash does on a second Tab.
func completeAt(t *sim.Terminal, tt *term.Terminal, line string, pos int) (string, int, bool) {
	start, items := t.Complete(line[:pos])
	if len(items) == 0 {
		return "", 0, false
	}
	word := line[start:pos]
	fill := items[0]
	if len(items) == 1 {
		if !strings.HasSuffix(fill, "/") {
			fill += " "
		}
	} else {
		for _, it := range items[1:] {
			for !strings.HasPrefix(it, fill) {
				fill = fill[:len(fill)-1]
			}
		}
	}
	if fill == word {
		tt.Write([]byte(strings.Join(items, "  ") + "\n"))
		return "", 0, false
	}
	return line[:start] + fill + line[pos:], start + len(fill), true
}

// ctrlCReader turns Ctrl-C into keys the line editor understands: end of
// line, erase it, Enter (the editor itself would end input on Ctrl-C and
// keep the line). It notes the Ctrl-C so the shell drops what was typed,
// continuation lines included.
type ctrlCReader struct {
	r       io.Reader
	pending []byte
	ctrlC   bool
}

const dropLine = "\x05\x15\r" // Ctrl-E, Ctrl-U, Enter

func (c *ctrlCReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		buf := make([]byte, len(p))
		n, err := c.r.Read(buf)
		if n == 0 {
			return 0, err
		}
		c.pending = []byte(strings.ReplaceAll(string(buf[:n]), "\x03", dropLine))
		if len(c.pending) != n {
			c.ctrlC = true
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *ctrlCReader) sawCtrlC() bool {
	saw := c.ctrlC
	c.ctrlC = false
	return saw
}

// hostEditorCommand is the terminal's $KUBE_EDITOR in `kubeplay shell` at
// a terminal: `kubectl edit` hands it a file of the virtual filesystem,
// which it copies to a temporary file on this machine, opens in the
// user's own editor ($KUBE_EDITOR, else $EDITOR, else vi, from the real
// environment) with the terminal out of raw mode, and copies back.
const hostEditorCommand = "kubeplay-host-editor"

func registerHostEditor(t *sim.Terminal, fd int, cooked *term.State) {
	t.Shell.RegisterAt(hostEditorCommand, "/usr/local/bin/"+hostEditorCommand, func(ctx *shell.Context, args []string) int {
		if len(args) != 1 {
			fmt.Fprintf(ctx.Stderr, "usage: %s FILE\n", hostEditorCommand)
			return 2
		}
		path := ctx.Abs(args[0])
		data, err := t.FS.ReadFile(path)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "%s: %v\n", hostEditorCommand, err)
			return 1
		}
		edited, err := editOnHost(fd, cooked, filepath.Base(path), data)
		if err != nil {
			fmt.Fprintf(ctx.Stderr, "%s: %v\n", hostEditorCommand, err)
			return 1
		}
		if err := t.FS.WriteFile(path, edited, 0o600); err != nil {
			fmt.Fprintf(ctx.Stderr, "%s: %v\n", hostEditorCommand, err)
			return 1
		}
		return 0
	})
	t.Shell.Setenv("KUBE_EDITOR", hostEditorCommand)
}

func editOnHost(fd int, cooked *term.State, name string, data []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "kubeplay-edit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return nil, err
	}
	editor := os.Getenv("KUBE_EDITOR")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	// The line editor keeps the terminal raw; the editor wants it as the
	// shell found it.
	if cooked != nil {
		term.Restore(fd, cooked)
		defer term.MakeRaw(fd)
	}
	cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "sh", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the editor %q: %v", editor, err)
	}
	return os.ReadFile(file)
}
