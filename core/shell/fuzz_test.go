package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Whatever a learner types runs to an end without panicking: the parser,
// the interpreter and every tool (awk, sed, bc, find, xargs, ...) on a
// filesystem with a few files. The step budget is small so that a runaway
// loop costs the fuzzer little; output past 1 MB is cut as a full disk.
// Any input that runs for seconds is a failure: it would freeze the page.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("testdata/script/*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		c := parseScriptCase(f, string(data))
		f.Add(c.script, c.stdin)
	}
	for _, script := range []string{
		`awk -F: '{ n[$1]++ } END { for (k in n) printf "%s %d\n", k, n[k] }' /etc/passwd`,
		`awk 'BEGIN { x = substr("hello", 2, 3); print toupper(x), length(x), index(x, "l"); split("a b c", a); print a[3] }'`,
		`awk '{ gsub(/o/, "0"); sub(/^/, ">"); print NR": "$0 }'`,
		`sed -n '/^b/,/^d/{s/\(.\)$/[\1]/gp;}'`, `sed -E 's/([a-z]+) ([0-9]+)/\2 \1/;y/abc/xyz/;$!N;P;D'`,
		`sed '1i\
head
$a tail
2c\
two'`,
		`echo 'scale=20; a(1)*4; define f(x) { if (x < 2) return 1; return x*f(x-1) }; f(20); sqrt(2)' | bc -l`,
		`find / -maxdepth 2 -name '*.txt' -type f -newer /tmp -print0 | xargs -0 -n1 -I{} sh -c 'wc -c {}'`,
		`printf '%5.2f|%-4s|%x|%q\n' 3.14159 ab 255 "a b"; date -u +'%Y-%m-%dT%H:%M:%S %j %A'`,
		`sort -t, -k2,2nr -k1 -u | uniq -c | cut -d' ' -f2- | tr -s 'a-z' 'A-Z' | head -n 3 | tail -c 20`,
		`[[ -d /tmp && ! -e /nope ]] && test 3 -lt 10 -a "x" != "y"; echo $(( 2 ** 10 % 7 )) $((1/0))`,
		`grep -E -o -n -i 'b[a-z]*' | grep -c -v '^$'; seq -w 1 3 20 | nl | rev | tac`,
		`mkdir -p /tmp/a/b && cd /tmp/a && touch b/c && cp -r b d && mv d e && ls -laR && rm -rf /tmp/a`,
		`while read -r a b; do echo "${b:-none}${a#?}"; done; for ((i=0;i<3;i++)); do echo $i; done`,
	} {
		f.Add(script, "alpha 1\nbeta 2\ncharlie 3\nbeta 2\n")
	}
	f.Fuzz(func(t *testing.T, script, stdin string) {
		// A freeze is a failure too: the page would hang on it.
		watchdog := time.AfterFunc(10*time.Second, func() {
			panic(fmt.Sprintf("still running after 10 s: %q with stdin %q", script, stdin))
		})
		defer watchdog.Stop()
		s := testShell()
		s.MaxSteps = 2000
		_ = s.FS.WriteFile("/tmp/data.txt", []byte("b,2\na,1\nc,3\n"), 0o644)
		var out strings.Builder
		w := &limitWriter{w: &out, n: 1 << 20}
		s.RunIO(script, strings.NewReader(stdin), w, w)
	})
}
