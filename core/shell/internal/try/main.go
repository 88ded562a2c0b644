// Command try runs a script (read from stdin) in the terminal's shell and
// prints what it printed and its exit status; with -txtar it prints a
// script test case for core/shell/testdata/script instead.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"kubeplay/core/shell"
)

func main() {
	s := shell.New(nil)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	s.Env["HOSTNAME"] = "kubeplay"
	src, _ := io.ReadAll(os.Stdin)
	out, code := s.Run(string(src), "")
	if len(os.Args) > 1 && os.Args[1] == "-txtar" {
		fmt.Printf("-- script --\n%s-- output --\n%s-- exit --\n%d\n", src, out, code)
		return
	}
	fmt.Printf("%s[exit %d]\n", out, code)
}
