package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 5 asks for a test per shell feature and tool of the learner's
// terminal. The tests live where the behaviour does (core/shell's script
// cases, checked against bash and the GNU tools; core/network's table for
// curl, dig and nslookup; session transcripts for the tools that need a
// cluster); this test keeps the list honest: every tool and feature must
// be run by at least one of them.
func TestEveryShellToolAndFeatureIsTested(t *testing.T) {
	var corpus strings.Builder
	for _, pattern := range []string{
		"../shell/testdata/script/*.txt",
		"../network/*_test.go",
		"../../testdata/*.session",
		"../../lessons/*/*.session",
	} {
		files, _ := filepath.Glob(pattern)
		if len(files) == 0 {
			t.Fatalf("no files match %s", pattern)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			corpus.Write(b)
			corpus.WriteByte('\n')
		}
	}
	text := corpus.String()
	// A tool counts when it is run: at the start of a line or command, or
	// after a pipe, &&, ||, ;, $( or `kubectl exec POD --`.
	runs := func(tool string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)(^(\$ )?|[|;&(]\s*|\{"|-- )` + regexp.QuoteMeta(tool) + `( |$|"|\n)`)
	}
	for _, tool := range []string{
		"grep", "head", "tail", "wc", "sort", "uniq", "awk", "sed", "cut", "xargs", "bash", "sh",
		"echo", "cat", "date", "sleep", "curl", "dig", "nslookup", "watch", "clear", "help", "history",
	} {
		if !runs(tool).MatchString(text) {
			t.Errorf("no test runs %s", tool)
		}
	}
	for _, f := range []struct{ feature, pattern string }{
		{"grep -v", `grep -v`},
		{"grep -i", `grep -i`},
		{"grep -E", `grep -E`},
		{"date -d @TS", `date (-u )?-d @[0-9]+`},
		{"sed s///", `sed '?s`},
		{"awk patterns and fields", `awk '[^']*/[^']*/[^']*\$[0-9]`},
		{"a pipe into bash", `\| bash`},
		{"a pipe", ` \| `},
		{"&&", ` && `},
		{"||", ` \|\| `},
		{";", `; `},
		{"single quotes", `'[^']*\$[^']*'`},
		{"double quotes", `"[^"]*\$[A-Za-z{(][^"]*"`},
		{"backslash escapes", `\\[$"\\]`},
		{"a heredoc", `<<-?'?[A-Z]+`},
		{"$VAR", `\$[A-Za-z_]+`},
		{"$(...)", `\$\([a-z]`},
		{"kubectl through the k alias", `(?m)^\$ k `},
	} {
		if !regexp.MustCompile(f.pattern).MatchString(text) {
			t.Errorf("no test uses %s", f.feature)
		}
	}
}
