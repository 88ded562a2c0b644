package session

import (
	"strings"
	"testing"
)

const sample = `# a Deployment from a heredoc
$ kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
EOF
deployment.apps/web created
$ kubectl get pods
NAME                   READY   STATUS    RESTARTS   AGE
web-7d4b9c8f6d-x2x7k   1/1     Running   0          5s
# comment of the next one
# unchecked: timing
$ sleep 5
$ echo '<<NOTAHEREDOC'
<<NOTAHEREDOC
`

func TestParse(t *testing.T) {
	f, err := Parse("sample.session", sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Steps) != 4 {
		t.Fatalf("steps: %d", len(f.Steps))
	}
	s0 := f.Steps[0]
	if s0.Line != 2 || s0.Command != "kubectl apply -f - <<EOF" || !strings.HasSuffix(s0.Script, "kind: Deployment\nEOF") {
		t.Fatalf("heredoc step: %+v", s0)
	}
	if len(s0.Comments) != 1 || len(s0.Expected) != 1 || s0.Expected[0] != "deployment.apps/web created" {
		t.Fatalf("comments/expected: %+v", s0)
	}
	if !f.Steps[2].Unchecked || len(f.Steps[2].Comments) != 2 || f.Steps[2].Expected != nil {
		t.Fatalf("unchecked step: %+v", f.Steps[2])
	}
	if f.Steps[3].Script != "echo '<<NOTAHEREDOC'" {
		t.Fatalf("quoted << taken as heredoc: %q", f.Steps[3].Script)
	}
}

func TestParseErrors(t *testing.T) {
	for _, text := range []string{"output first\n$ ls\n", "$ cat <<EOF\nnever closed\n"} {
		if _, err := Parse("bad", text); err == nil {
			t.Errorf("no error for %q", text)
		}
	}
}

func TestNormalizeToleratesVolatileParts(t *testing.T) {
	pairs := [][2]string{
		{"web-7d4b9c8f6d-x2x7k   1/1     Running   0          5s", "web-5f6b7c8d9b-qz4wm   1/1   Running   0   2m1s"},
		{"app-deployment-86ddf49f68   3         3         3       6s", "app-deployment-795977f5d5   3   3   3   10h"},
		{"pod-demo   1/1   Running   0   5s   10.244.1.5   hdss7-21.host.com", "pod-demo   1/1   Running   0   7s   10.244.0.9   hdss7-21.host.com"},
		{"  uid: 0b5d3c2e-1111-4222-8333-444455556666", "  uid: 9a9a9a9a-1111-4222-8333-444455556666"},
	}
	for _, p := range pairs {
		if Normalize(p[0]) != Normalize(p[1]) {
			t.Errorf("should match:\n%q\n%q\n→ %q\n→ %q", p[0], p[1], Normalize(p[0]), Normalize(p[1]))
		}
	}
	different := [][2]string{
		{"web   1/1   Running", "web   0/1   Running"},
		{"deployment.apps/web created", "deployment.apps/web configured"},
		{"nginx-sts-0", "nginx-sts-1"},
	}
	for _, p := range different {
		if Normalize(p[0]) == Normalize(p[1]) {
			t.Errorf("should differ: %q vs %q", p[0], p[1])
		}
	}
}

type fakeTerminal map[string]string

func (f fakeTerminal) Run(script string) string { return f[script] }

func TestCheckReportsDiff(t *testing.T) {
	f, _ := Parse("s", "$ kubectl get ns\nNAME STATUS AGE\ndefault Active 5s\n")
	res := f.Run(fakeTerminal{"kubectl get ns": "NAME STATUS AGE\ndefault Terminating 5s\n"})
	bad := f.Check(res)
	if len(bad) != 1 || !strings.Contains(bad[0].Diff, "- default Active 5s") || !strings.Contains(bad[0].Diff, "+ default Terminating 5s") {
		t.Fatalf("diff: %+v", bad)
	}
	if Transcript(res) != "$ kubectl get ns\nNAME STATUS AGE\ndefault Terminating 5s\n" {
		t.Fatalf("transcript: %q", Transcript(res))
	}
}
