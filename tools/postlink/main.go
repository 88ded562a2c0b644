// Command postlink rewrites a WebAssembly module Go built (GOOS=js
// GOARCH=wasm) for the page, after the linker:
//
//   - lines.go clears the runtime's line tables and unsafe points, in
//     place;
//   - jumps.go turns the functions' forward jumps into direct branches;
//   - address.go computes addresses in 32 bits where Go's backend takes
//     64 and narrows them.
//
// Go's linker has no flag for either. A module whose tables or code are
// not laid out as this Go version's are is refused and left as it was.
//
// Usage:
//
//	postlink FILE.wasm...
//	postlink -exec RUNNER FILE.wasm ARGS...
//
// The second form rewrites FILE.wasm and then runs RUNNER FILE.wasm
// ARGS...: with go test -exec it runs a package's tests as the page runs
// its code.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

func main() {
	args := os.Args[1:]
	if len(args) >= 3 && args[0] == "-exec" {
		if err := rewriteFile(args[2]); err != nil {
			fail(args[2], err)
		}
		os.Exit(run(args[1], args[2:]))
	}
	if len(args) == 0 || args[0] == "-exec" {
		fmt.Fprintln(os.Stderr, "usage: postlink FILE.wasm...\n       postlink -exec RUNNER FILE.wasm ARGS...")
		os.Exit(2)
	}
	for _, path := range args {
		if err := rewriteFile(path); err != nil {
			fail(path, err)
		}
	}
}

func fail(path string, err error) {
	fmt.Fprintf(os.Stderr, "postlink: %s: %v\n", path, err)
	os.Exit(1)
}

// run runs the program with the arguments and returns its exit code.
func run(program string, args []string) int {
	cmd := exec.Command(program, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	default:
		fmt.Fprintf(os.Stderr, "postlink: %v\n", err)
		return 1
	}
}

func rewriteFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := rewrite(data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// rewrite runs the passes: the line tables are cleared first, as that
// pass finds the data by its offsets in the file; then each function body
// has its jumps and addresses rewritten, in one walk of the code section.
func rewrite(m []byte) ([]byte, error) {
	m, err := stripLines(m)
	if err != nil {
		return nil, err
	}
	var st jumpStats
	return rewriteCode(m, func(body []byte) ([]byte, error) {
		body, err := rewriteBody(body, &st)
		if err != nil {
			return nil, err
		}
		body, _, err = narrowAddresses(body)
		return body, err
	})
}
