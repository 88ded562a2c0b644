package kubectl_test

import (
	"strings"
	"testing"
)

// twoPods are pods a and b (app=web) pinned to the default node.
const twoPods = `kubectl create -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: a
  labels:
    app: web
spec:
  nodeName: node01
  containers:
  - name: c
    image: nginx
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  labels:
    app: web
spec:
  nodeName: node01
  containers:
  - name: c
    image: nginx
EOF`

func TestLabelNode(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl label node node01 ssd=true", "node/node01 labeled\n")
	s.expect("kubectl label node node01 ssd=false", "error: 'ssd' already has a value (true), and --overwrite is false\n")
	s.expect("kubectl label node node01 ssd=false --overwrite", "node/node01 labeled\n")
	s.expect("kubectl label node node01 ssd=false", "node/node01 not labeled\n")
	s.expect("kubectl get node -L ssd --no-headers -o custom-columns=SSD:.metadata.labels.ssd", "false\n")
	s.expect("kubectl label node node01 ssd-", "node/node01 unlabeled\n")
	s.expect("kubectl label node node01 ssd-", "label \"ssd\" not found.\nnode/node01 not labeled\n")
	s.expect("kubectl label node node01 ssd- --overwrite", "label \"ssd\" not found.\nnode/node01 not labeled\n")
	s.expect("kubectl label node/node01 cpu=high", "node/node01 labeled\n")
	s.expect("kubectl label node/node01 cpu- --overwrite", "node/node01 labeled\n")
}

func TestLabelManyObjects(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	s.expect("kubectl label pods --all env=prod", "pod/a labeled\npod/b labeled\n")
	s.expect("kubectl label pods -l env=prod tier=front", "pod/a labeled\npod/b labeled\n")
	s.expect("kubectl label pods a b tier=back --overwrite", "pod/a labeled\npod/b labeled\n")
	s.expect("kubectl label pod a --list", "app=web\nenv=prod\ntier=back\n")
	s.expect("kubectl label pods a b --list", "Listing labels for Pod./a:\n app=web\n env=prod\n tier=back\nListing labels for Pod./b:\n app=web\n env=prod\n tier=back\n")
	s.expect("kubectl label pod a x=1 --dry-run=client", "pod/a labeled (dry run)\n")
	s.expect("kubectl label pod a x=1 --dry-run=server -o name", "pod/a\n")
	s.expect("kubectl get pod a -o jsonpath={.metadata.labels.x}", "")
	s.expect("kubectl label pods a nope y=1", "pod/a labeled\nError from server (NotFound): pods \"nope\" not found\n")
}

func TestLabelArgumentErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	s.expect("kubectl label", "error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n")
	s.expect("kubectl label pod a", "error: at least one label update is required\n")
	s.expect("kubectl label pods x=1", "error: resource(s) were provided, but no name was specified\n")
	s.expect("kubectl label pod a x=1 b", "error: all resources must be specified before label changes: b\n")
	s.expect("kubectl label pod a k=v k-", "error: can not both modify and remove a label in the same command\n")
	s.expect("kubectl label pod a k=v=w", "error: invalid label spec: k=v=w\n")
	s.expect("kubectl label pods --all -l app=web x=1", "error: cannot set --all and --selector at the same time\n")
	s.expect("kubectl label pod a --list -o yaml", "error: --list and --output may not be specified together\n")
	s.expect("kubectl label pods a b x=1 --resource-version=1", "error: --resource-version may only be used with a single resource\n")
	if got := s.run("kubectl label pod a 'k=not ok'"); !strings.HasPrefix(got, "error: invalid label value: \"k=not ok\": a valid label must be") {
		t.Errorf("bad value: %s", got)
	}
	if got := s.run("kubectl label pod a x=1 --resource-version=1"); !strings.HasPrefix(got, "Error from server (Conflict): Operation cannot be fulfilled on pods \"a\"") {
		t.Errorf("stale resource version: %s", got)
	}
}

func TestAnnotate(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	s.expect("kubectl annotate pod a description='my frontend'", "pod/a annotated\n")
	s.expect("kubectl annotate pod a description=other",
		"error: --overwrite is false but found the following declared annotation(s): 'description' already has a value (my frontend)\n")
	s.expect("kubectl annotate pod a description=other --overwrite", "pod/a annotated\n")
	s.expect("kubectl annotate pod a --list", "description=other\n")
	s.expect("kubectl annotate pod a description-", "pod/a annotated\n")
	s.expect("kubectl annotate pods --all kubernetes.io/change-cause=x", "pod/a annotated\npod/b annotated\n")
	// The change cause may always be overwritten.
	s.expect("kubectl annotate pods a kubernetes.io/change-cause=y", "pod/a annotated\n")
	s.expect("kubectl annotate pod a", "error: at least one annotation update is required\n")
	s.expect("kubectl annotate pod a k=v k-", "error: can not both modify and remove the following annotation(s) in the same command: k\n")
	s.expect("kubectl annotate pod a =v", "error: at least one annotation update is required\n")
	s.expect("kubectl annotate pod a x=1 b", "error: all resources must be specified before annotation changes: b\n")
	s.expect("kubectl annotate", "error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n")
}
