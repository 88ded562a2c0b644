package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"kubeplay/core/lesson"
	"kubeplay/core/sim"
)

// runLesson is `kubeplay lesson [--record] DIR...`: each lesson's steps run
// in order on its starting cluster, and every step's checks must pass
// after its commands. --record rewrites the lesson's session transcript.
func runLesson(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lesson", flag.ContinueOnError)
	fs.SetOutput(stderr)
	record := fs.Bool("record", false, "write each lesson's transcript to DIR/NAME.session")
	seed := fs.Uint64("seed", 1, "random seed of the simulated cluster")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	failed := 0
	for _, dir := range fs.Args() {
		dir = filepath.Clean(dir)
		l, err := lesson.Load(os.DirFS(filepath.Dir(dir)), filepath.Base(dir))
		if err != nil {
			fmt.Fprintf(stderr, "kubeplay lesson: %v\n", err)
			return 2
		}
		transcript, bad, err := sim.PlayLesson(l, *seed)
		if err != nil {
			fmt.Fprintf(stderr, "kubeplay lesson: %v\n", err)
			return 2
		}
		for _, b := range bad {
			fmt.Fprintf(stderr, "--- %s: %s\n", l.Name, b)
		}
		if len(bad) > 0 {
			failed++
			fmt.Fprintf(stdout, "FAIL %s (%d checks failed)\n", dir, len(bad))
		} else {
			fmt.Fprintf(stdout, "ok   %s (%d steps)\n", dir, len(l.Steps))
		}
		if *record {
			if err := os.WriteFile(filepath.Join(dir, l.Name+".session"), []byte(transcript), 0o644); err != nil {
				fmt.Fprintf(stderr, "kubeplay lesson: %v\n", err)
				return 1
			}
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}
