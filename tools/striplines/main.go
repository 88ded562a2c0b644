// Command striplines clears the line tables from a WebAssembly module Go
// built (GOOS=js GOARCH=wasm), in place: each function's file and line
// tables, its first line and the table of calls inlined into it, which
// only tracebacks and runtime.Caller read. What the runtime needs to run
// (frame sizes, stack maps, unsafe points, function names) stays, and so
// does every offset: the module keeps its size and the cleared bytes are
// zeros, which compress to almost nothing. A panic's trace then names its
// functions without "file:line", an inlined call under its caller.
//
// Go's linker has no flag for this (-s and -w drop the symbol table and
// DWARF, not these tables); the page's download is 7% smaller without
// them. A module whose tables are not laid out as this Go version's are
// is refused, and left as it was.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: striplines FILE.wasm...")
		os.Exit(2)
	}
	for _, path := range os.Args[1:] {
		if err := stripFile(path); err != nil {
			fmt.Fprintf(os.Stderr, "striplines: %s: %v\n", path, err)
			os.Exit(1)
		}
	}
}

func stripFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := stripLines(data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
