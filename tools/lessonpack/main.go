// Command lessonpack writes the lessons the kubeplay command embeds as the
// one file the page fetches beside its WebAssembly (lessons.Pack's
// bundle).
//
//	lessonpack FILE
package main

import (
	"fmt"
	"os"

	"kubeplay/lessons"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: lessonpack FILE")
		os.Exit(2)
	}
	b, err := lessons.Pack(lessons.FS)
	if err == nil {
		err = os.WriteFile(os.Args[1], b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lessonpack:", err)
		os.Exit(1)
	}
}
