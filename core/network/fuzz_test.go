package network_test

import (
	"strings"
	"testing"

	"kubeplay/core/network"
	"kubeplay/core/shell"
)

// FuzzTools: no argument list makes curl, wget, nslookup or dig panic.
func FuzzTools(f *testing.F) {
	for _, s := range []string{
		"curl -sSL -o /dev/null -w %{http_code} web", "curl -m", "curl -H", "curl -d @/nope web", "curl -X",
		"wget -qO- web", "wget -T x web", "wget -O", "nslookup -type=srv _http._tcp.web", "nslookup -type",
		"nslookup 10.96.100.1 nope", "dig -x", "dig -t", "dig @ +short", "dig web SRV +search", "dig +noall +answer -x 10.244.2.2",
	} {
		f.Add(s)
	}
	w := standard(f)
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		sh := shell.New(nil)
		sh.Now = w.c.Now
		for _, style := range []network.NslookupStyle{network.NslookupBusybox, network.NslookupBind} {
			w.net.RegisterTools(sh, network.PodSource("default", "10.244.1.9"), style)
			cmd, ok := sh.Lookup(args[0])
			if !ok {
				return
			}
			var out, errb strings.Builder
			ctx := &shell.Context{Shell: sh, Name: args[0], Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Env: map[string]string{}, FS: sh.FS, Cwd: "/"}
			cmd(ctx, args[1:])
		}
	})
}
