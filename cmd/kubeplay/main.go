// Command kubeplay runs the kubeplay engine natively: session files
// (`run`), an interactive terminal (`shell`) and the Kubernetes API for
// the real kubectl beside the built site (`serve`).
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `kubeplay runs a Kubernetes cluster in miniature.

Usage:
  kubeplay run [--check] [--seed N] FILE.session...
  kubeplay lesson [--record] [--seed N] LESSON-DIR...
  kubeplay shell [--seed N]
  kubeplay serve [--addr 127.0.0.1:8080] [--kubeconfig FILE] [--speed N] [--dir dist]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runSessions(args[1:], stdout, stderr)
	case "lesson":
		return runLesson(args[1:], stdout, stderr)
	case "shell":
		return runShell(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "kubeplay: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
