package shell

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The script tests: each testdata/script/*.txt holds sections in txtar
// style, "-- script --", optionally "-- stdin --", "-- output --" (stdout
// and stderr interleaved, as the terminal shows them) and "-- exit --".
// Expected outputs are what bash and the GNU tools print for the same
// script (run with a C.UTF-8 locale, gawk as awk).

type scriptCase struct {
	script, stdin, output string
	exit                  int
}

func parseScriptCase(t testing.TB, data string) scriptCase {
	t.Helper()
	sections := map[string]string{}
	name := ""
	var b strings.Builder
	flush := func() {
		if name != "" {
			sections[name] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(trimmed, "-- "), " --")
			continue
		}
		if name != "" {
			b.WriteString(line)
		}
	}
	flush()
	c := scriptCase{script: sections["script"], stdin: sections["stdin"], output: sections["output"]}
	if e, ok := sections["exit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(e))
		if err != nil {
			t.Fatalf("bad exit section %q", e)
		}
		c.exit = n
	}
	if c.script == "" {
		t.Fatal("no script section")
	}
	return c
}

// testShell is a terminal shell on a fresh filesystem at a fixed time.
func testShell() *Shell {
	s := New(nil)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	s.Env["HOSTNAME"] = "kubeplay"
	return s
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no script tests: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c := parseScriptCase(t, string(data))
			out, code := testShell().Run(c.script, c.stdin)
			if out != c.output {
				t.Errorf("output differs\n--- got ---\n%s--- want ---\n%s", out, c.output)
			}
			if code != c.exit {
				t.Errorf("exit status %d, want %d", code, c.exit)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"echo hi | grep h && echo ok || echo no",
		"for i in 1 2 3; do echo $i; done",
		"if [ -f x ]; then cat x; elif true; then :; else exit 1; fi",
		"cat <<EOF\n$HOME\nEOF\n",
		"f() { local a=$1; echo ${a:-none}; }; f",
		"case $x in a|b) echo ab;; *) echo other;; esac",
		"echo $(( (1+2)*3 )) ${#x} ${x%%.*} \"$(echo nested)\"",
		"while read l; do echo \"$l\"; done < file > out 2>&1",
		"a=(1 2); [[ $a == 1 && -n $b ]]; (cd /; ls) &",
		"kubectl get pvc -n apps | awk '/nginx/{print \"kubectl delete pvc\", $1}' | bash",
		"echo 'unterminated",
		"$(( 1 +",
		"if then fi",
		"{ echo; ",
		"echo ${x/a/b} ${x:1:2} ${!x} $'a\\tb'",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = Parse(src)
		_ = Incomplete(src)
	})
}
