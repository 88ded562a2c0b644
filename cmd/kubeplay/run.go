package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"kubeplay/core/lesson"
	"kubeplay/core/session"
	"kubeplay/core/sim"
)

// runSessions is `kubeplay run [--check] FILE...`: each file runs on a
// fresh cluster; the transcript goes to stdout, or with --check the
// mismatches go to stderr and the exit code says whether all matched.
func runSessions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "compare each command's output with the file's expected output")
	seed := fs.Uint64("seed", 1, "random seed of the simulated cluster")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "kubeplay run: no session files given")
		return 2
	}
	failed := 0
	steps := 0
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "kubeplay run: %v\n", err)
			return 2
		}
		f, err := session.Parse(path, string(data))
		if err != nil {
			fmt.Fprintf(stderr, "kubeplay run: %v\n", err)
			return 2
		}
		term, err := terminalFor(path, f, *seed)
		if err != nil {
			fmt.Fprintf(stderr, "kubeplay run: %v\n", err)
			return 2
		}
		results := f.Run(term)
		steps += len(results)
		if !*check {
			fmt.Fprint(stdout, session.Transcript(results))
			continue
		}
		bad := f.Check(results)
		for _, m := range bad {
			fmt.Fprintf(stderr, "--- %s\n", m.Error())
		}
		if len(bad) > 0 {
			failed++
			fmt.Fprintf(stdout, "FAIL %s (%d of %d commands differ)\n", path, len(bad), len(results))
		} else {
			fmt.Fprintf(stdout, "ok   %s (%d commands)\n", path, len(results))
		}
	}
	if *check {
		fmt.Fprintf(stdout, "sessions: %d passed, %d failed\n", fs.NArg()-failed, failed)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// terminalFor is the terminal a session runs in: a lesson's starting
// cluster when the file sits in a lesson folder, else a default cluster.
func terminalFor(path string, f *session.File, seed uint64) (*sim.Terminal, error) {
	dir := filepath.Dir(path)
	if _, err := os.Stat(filepath.Join(dir, "lesson.yaml")); err == nil {
		l, err := lesson.Load(os.DirFS(filepath.Dir(dir)), filepath.Base(dir))
		if err != nil {
			return nil, err
		}
		return sim.NewLessonTerminal(l, sim.Options{Seed: seed})
	}
	return sim.NewSessionTerminal(f, sim.Options{Seed: seed}), nil
}
