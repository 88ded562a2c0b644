package sim

import (
	"os"
	"strings"
	"testing"
)

// Every kubectl command line of the seeds' sessions parses: kubectl knows
// each command and flag (whether the objects exist is another matter).
func TestSeedCommandsParse(t *testing.T) {
	data, err := os.ReadFile("../../testdata/seed-commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	c := NewDefault(Options{Seed: 1})
	c.AddDefaultNode()
	defer c.Close()
	bad := []string{"unknown command", "unknown flag", "unknown shorthand flag", "is not available in kubeplay", "not available yet"}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		term := NewTerminal(c)
		term.Shell.Alias("k", "kubectl")
		out := term.Run(line)
		for _, b := range bad {
			if strings.Contains(out, b) {
				t.Errorf("$ %s\n%s", line, out)
				break
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d commands", n)
	}
}
