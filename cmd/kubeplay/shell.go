package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"kubeplay/core/sim"
)

var heredocMarker = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// runShell is `kubeplay shell`: a prompt on a default cluster. Heredocs
// are read up to their terminator before the command runs.
func runShell(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("shell", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "random seed of the simulated cluster")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	term := sim.NewTerminal(sim.NewDefault(sim.Options{Seed: *seed}))
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for {
		fmt.Fprint(stdout, "$ ")
		if !in.Scan() {
			fmt.Fprintln(stdout)
			return 0
		}
		script := in.Text()
		for _, m := range heredocMarker.FindAllStringSubmatch(script, -1) {
			for in.Scan() {
				script += "\n" + in.Text()
				if strings.TrimLeft(in.Text(), "\t") == m[1] {
					break
				}
			}
		}
		if strings.TrimSpace(script) == "exit" {
			return 0
		}
		fmt.Fprint(stdout, term.Run(script))
	}
}
