package kubectl_test

import "testing"

func TestWaitForConditions(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	s.expect("kubectl wait --for=condition=Ready pod/a --timeout=0", "error: condition not met for pods/a\n")
	s.expect("kubectl wait --for=condition=Ready pod/a pod/b --timeout=60s", "pod/a condition met\npod/b condition met\n")
	s.expect("kubectl wait --for=condition=ready=TRUE pods --all", "pod/a condition met\npod/b condition met\n")
	s.expect("kubectl wait --for=condition=Ready=false pod/a --timeout=2s", "error: timed out waiting for the condition on pods/a\n")
	s.run(webDeployment)
	s.expect("kubectl wait --for=jsonpath='{.status.readyReplicas}'=3 deployment/web", "deployment.apps/web condition met\n")
	s.expect("kubectl wait --for=condition=Available deploy -l app=web", "deployment.apps/web condition met\n")
	s.expect("kubectl wait --for=jsonpath={.spec.nodeName} pod/a -o name", "pod/a condition met\n")
}

func TestWaitForDeleteAndCreate(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	// sleep ignores SIGTERM: the pod stays Terminating for its grace period.
	s.run(`kubectl create -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: sleeper
spec:
  nodeName: node01
  terminationGracePeriodSeconds: 5
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
EOF`)
	s.run("sleep 10")
	s.expect("kubectl delete pod sleeper --wait=false", "pod \"sleeper\" deleted\n")
	s.expect("kubectl wait --for=delete pod/sleeper pod/gone --timeout=2s", "error: timed out waiting for the condition on pods/sleeper\n")
	s.expect("kubectl wait --for=delete pod/sleeper pod/gone --timeout=60s", "pod/sleeper condition met\n")
	s.expect("kubectl wait --for=create pod/c --timeout=2s", "error: timed out waiting for the condition\n")
	s.expect("kubectl wait --for=create pod/b --timeout=2s", "pod/b condition met\n")
}

func TestWaitErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.run(twoPods)
	s.expect("kubectl wait pod/a", "error: unrecognized condition: \"\"\n")
	s.expect("kubectl wait --for=ready pod/a", "error: unrecognized condition: \"ready\"\n")
	s.expect("kubectl wait --for=jsonpath='{.status.phase}'= pod/a",
		"error: jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3\n")
	s.expect("kubectl wait --for=jsonpath='{' pod/a",
		"error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'\n")
	s.expect("kubectl wait --for=condition=Ready pods -l app=none", "error: no matching resources found\n")
	s.expect("kubectl wait --for=condition=Ready pod/nope", "Error from server (NotFound): pods \"nope\" not found\n")
	s.expect("kubectl wait --for=jsonpath='{.status.conditions[*].type}' pod/a --timeout=0", "error: given jsonpath expression matches more than one value\n")
}
