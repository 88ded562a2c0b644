package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"golang.org/x/term"

	"kubeplay/core/sim"
)

var heredocMarker = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// runShell is `kubeplay shell`: a prompt on a default cluster. At a
// terminal it edits lines (runTTYShell); from a pipe it reads them as
// they come. Heredocs and unfinished commands are read to their end
// before the command runs.
func runShell(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("shell", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "random seed of the simulated cluster")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	term := sim.NewTerminal(sim.NewDefault(sim.Options{Seed: *seed}))
	if f, ok := stdin.(*os.File); ok && isTTY(f) {
		return runTTYShell(term, f, stdout)
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for {
		fmt.Fprint(stdout, "$ ")
		if !in.Scan() {
			fmt.Fprintln(stdout)
			return 0
		}
		script := in.Text()
		for needsMore(script) && in.Scan() {
			script += "\n" + in.Text()
		}
		if strings.TrimSpace(script) == "exit" {
			return 0
		}
		fmt.Fprint(stdout, term.Run(script))
	}
}

func isTTY(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
