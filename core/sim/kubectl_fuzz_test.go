package sim

import (
	"bytes"
	"strings"
	"testing"

	"kubeplay/core/kubectl"
	"kubeplay/core/shell"
)

// FuzzKubectlArgs runs arbitrary kubectl argument vectors (one argument per
// line of the input) against a small cluster. Nothing may panic, and a
// command line that kubectl's flag parsing refuses must fail with that
// error and leave the store as it was.
func FuzzKubectlArgs(f *testing.F) {
	for _, seed := range []string{
		"get\npods\n-o\nwide",
		"get\npods\n-o",
		"-n\nkube-system\nget\npo\n--show-labels",
		"--namespace=default\nget\ndeploy,rs,po\n-l\napp=web",
		"get\npods\n--sort-by={.metadata.name}",
		"get\npods\n-o\njsonpath={.items[*",
		"get\npods\n-o\ngo-template={{range .items}}{{.metadata.name}}{{end}}",
		"get\npods\n-o\ncustom-columns=NAME:.metadata.name,IP:.status.podIP",
		"scale\n--replicas=abc\ndeploy/web",
		"scale\n--replicas=-1\ndeploy/web",
		"scale\ndeploy/web\n--replicas=5\n--current-replicas=3",
		"set\nimage\ndeploy/web\nnginx=nginx:1.25",
		"rollout\nstatus\ndeploy/web\n--timeout=1s",
		"rollout\nundo\ndeploy/web\n--to-revision=7",
		"rollout\nhistory\ndeploy/web\n--revision=x",
		"delete\npod\n--all\n--grace-period=-1\n--force",
		"delete\ndeploy\nweb\n--cascade=orphan",
		"delete\ndeploy\nweb\n--cascade=bogus",
		"create\ndeployment\nweb2\n--image=nginx\n--replicas=-3",
		"create\nconfigmap\ncm\n--from-literal=a=b\n--from-literal=a",
		"create\nsecret\ngeneric\ns\n--from-literal==x",
		"run\nbox\n--image=busybox\n--restart=Never\n--\nsleep\n10",
		"label\nnodes\n--all\nzone-",
		"taint\nnodes\n--all\nkey=value:NoExecute",
		"taint\nnodes\n--all\nkey:Bogus",
		"cordon\n--selector=kubernetes.io/os=linux",
		"drain\n--ignore-daemonsets\n--delete-emptydir-data\n--timeout=2s\n--all",
		"patch\ndeploy\nweb\n-p\n{\"spec\":{\"replicas\":",
		"patch\ndeploy\nweb\n--type=json\n-p\n[{\"op\":\"remove\",\"path\":\"/spec\"}]",
		"logs\n-l\napp=web\n--tail=-5\n--since=1h",
		"wait\n--for=condition=Ready\npod\n--all\n--timeout=3s",
		"wait\n--for=jsonpath={.status.phase}=Running\npod\n--all",
		"explain\npods.spec.containers.resources\n--recursive",
		"config\nset-context\n--current\n--namespace=x",
		"expose\ndeploy\nweb\n--port=80\n--target-port=http\n--type=NodePort",
		"autoscale\ndeploy\nweb\n--min=3\n--max=1",
		"api-resources\n--namespaced=maybe",
		"get\n--raw\n/api/v1/namespaces/default/pods",
		"version\n--client\n-o\nyaml",
		"--bogus\nget\npods",
		"get\npods\n--watch-only\n--request-timeout=1",
		"-v=9\nget\nnodes\n-o\nname",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		args := strings.Split(input, "\n")
		if input == "" {
			args = nil
		}
		c := NewDefault(Options{Seed: 1})
		term := NewTerminal(c)
		term.Run("kubectl create deployment web --image=nginx --replicas=2")
		before := c.API.ResourceVersion()

		var stdout, stderr bytes.Buffer
		ctx := &shell.Context{Shell: term.Shell, Name: "kubectl", Stdin: strings.NewReader(""),
			Stdout: &stdout, Stderr: &stderr, Env: map[string]string{}, FS: term.FS, Cwd: "/root"}
		code := term.kubectl(ctx, args)

		if _, err := kubectl.ParseCommandLine(args); err != nil {
			if code == 0 {
				t.Fatalf("kubectl %q: parsing refused it (%v) but it ran and exited 0", args, err)
			}
			if !strings.Contains(stderr.String(), err.Error()) {
				t.Fatalf("kubectl %q: stderr %q does not carry the parse error %q", args, stderr.String(), err)
			}
			if after := c.API.ResourceVersion(); after != before {
				t.Fatalf("kubectl %q: refused by the flag parser, yet the store moved (rv %s → %s)", args, before, after)
			}
		}
	})
}
