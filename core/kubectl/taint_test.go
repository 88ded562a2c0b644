package kubectl_test

import "testing"

func TestTaintAddOverwriteRemove(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl taint node node01 monitor=true:NoSchedule", "node/node01 tainted\n")
	s.expect("kubectl taint node node01 monitor=true:NoSchedule",
		"error: node node01 already has monitor taint(s) with same effect(s) and --overwrite is false\n")
	s.expect("kubectl taint nodes node01 monitor=false:NoSchedule --overwrite", "node/node01 modified\n")
	s.expect("kubectl taint node node01 dedicated:NoExecute", "node/node01 tainted\n")
	s.expect("kubectl get node node01 -o jsonpath={.spec.taints[*].key}", "dedicated monitor")
	s.expect("kubectl taint node node01 monitor=false:NoSchedule-", "node/node01 untainted\n")
	s.expect("kubectl taint node node01 dedicated-", "node/node01 untainted\n")
	s.expect("kubectl taint node node01 dedicated-", "error: taint \"dedicated\" not found\n")
	s.expect("kubectl taint node node01 a=b:NoSchedule a:NoSchedule-",
		"error: can not both modify and remove the following taint(s) in the same command: a=NoSchedule\n")
	s.expect("kubectl taint node --all gpu=yes:PreferNoSchedule", "node/node01 tainted\n")
	s.expect("kubectl taint node -l kubernetes.io/hostname=node01 gpu:PreferNoSchedule-", "node/node01 untainted\n")
	s.expect("kubectl taint node node01 x=y:NoSchedule --dry-run=client", "node/node01 tainted (dry run)\n")
	s.expect("kubectl get node node01 -o jsonpath={.spec.taints}", "")
}

func TestTaintErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl taint", "error: one or more resources must be specified as <resource> <name>\n")
	s.expect("kubectl taint node node01", "error: at least one taint update is required\n")
	s.expect("kubectl taint node a=b:NoSchedule", "error: at least one resource name must be specified since 'all' parameter is not set\n")
	s.expect("kubectl taint node node01 a=b:Sometimes",
		"error: invalid taint effect: Sometimes, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n")
	s.expect("kubectl taint node node01 a=b=c:NoSchedule", "error: invalid taint spec: a=b=c:NoSchedule\nSee 'kubectl taint -h' for help and examples\n")
	s.expect("kubectl taint node node01 a:NoSchedule:x", "error: invalid taint spec: a:NoSchedule:x\nSee 'kubectl taint -h' for help and examples\n")
	s.expect("kubectl taint node node01 a:NoSchedule a=c:NoSchedule",
		"error: duplicated taints with the same key and effect: {a c NoSchedule <nil>}\nSee 'kubectl taint -h' for help and examples\n")
	s.expect("kubectl taint pod x a=b:NoSchedule", "error: invalid resource type pod, only node types are supported\n")
	s.expect("kubectl taint node nope a=b:NoSchedule", "Error from server (NotFound): nodes \"nope\" not found\n")
	s.expect("kubectl taint node node01 a=b:NoSchedule extra", "error: all resources must be specified before taint changes: extra\n")
	s.expect("kubectl taint node --all -l a=b x=y:NoSchedule", "error: setting 'all' parameter with a non empty selector is prohibited\n")
}
