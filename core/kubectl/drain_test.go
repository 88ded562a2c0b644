package kubectl_test

import (
	"strings"
	"testing"
)

func TestDrainRefusesUnmanagedPods(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.run(twoPods)
	s.run("sleep 10")
	// Upstream's message says "cannot delete" twice.
	proxy := "kube-system/" + strings.TrimPrefix(strings.TrimSpace(s.run("kubectl get pods -n kube-system -l k8s-app=kube-proxy -o name")), "pod/")
	s.expect("kubectl drain node01", "node/node01 cordoned\n"+
		"error: unable to drain node \"node01\" due to error: [cannot delete cannot delete Pods that declare no controller (use --force to override): default/a, default/b, cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): "+proxy+"], continuing command...\n"+
		"There are pending nodes to be drained:\n node01\n"+
		"cannot delete cannot delete Pods that declare no controller (use --force to override): default/a, default/b\n"+
		"cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): "+proxy+"\n")
	s.expect("kubectl get node node01 --no-headers -o custom-columns=U:.spec.unschedulable", "true\n")
}

func TestDrainDeletesPodsAndWaits(t *testing.T) {
	s := newKubectlSession(t)
	s.run(webDeployment)
	s.run(twoPods)
	s.run("sleep 10")
	// Every pod on the node is evicted but kube-proxy's: the test's own, then CoreDNS.
	type nsName struct{ ns, name string }
	var pods []nsName
	for _, p := range strings.Fields(s.run("kubectl get pods -o name")) {
		pods = append(pods, nsName{"default", strings.TrimPrefix(p, "pod/")})
	}
	for _, p := range strings.Fields(s.run("kubectl get pods -n kube-system -l k8s-app=kube-dns -o name")) {
		pods = append(pods, nsName{"kube-system", strings.TrimPrefix(p, "pod/")})
	}
	proxy := "kube-system/" + strings.TrimPrefix(strings.TrimSpace(s.run("kubectl get pods -n kube-system -l k8s-app=kube-proxy -o name")), "pod/")
	want := "node/node01 cordoned\nWarning: deleting Pods that declare no controller: default/a, default/b; ignoring DaemonSet-managed Pods: " + proxy + "\n"
	for _, p := range pods {
		want += "evicting pod " + p.ns + "/" + p.name + "\n"
	}
	for _, p := range pods {
		want += "pod/" + p.name + " evicted\n"
	}
	want += "node/node01 drained\n"
	s.expect("kubectl drain node01 --force --ignore-daemonsets --grace-period=5", want)
	s.expect("kubectl get pod a b", "Error from server (NotFound): pods \"a\" not found\nError from server (NotFound): pods \"b\" not found\n")
	s.expect("kubectl drain node01 --ignore-daemonsets --dry-run=client",
		"node/node01 already cordoned (dry run)\nWarning: ignoring DaemonSet-managed Pods: "+proxy+"\n"+dryRunEvictions(s)+"node/node01 drained (dry run)\n")
}

// dryRunEvictions is what drain --dry-run=client lists for the node's pods.
func dryRunEvictions(s *kubectlSession) string {
	var b strings.Builder
	for _, p := range strings.Fields(s.run("kubectl get pods -o name")) {
		b.WriteString("evicting pod default/" + strings.TrimPrefix(p, "pod/") + " (dry run)\n")
	}
	return b.String()
}

func TestDrainArgumentErrors(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl drain", "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n")
	s.expect("kubectl drain nope", "Error from server (NotFound): nodes \"nope\" not found\n")
	s.expect("kubectl drain node01 --pod-selector='a in'", "error: --pod-selector=<pod_selector> must be a valid label selector\n")
}

func TestCordonAndUncordon(t *testing.T) {
	s := newKubectlSession(t)
	s.expect("kubectl cordon node01 --dry-run=client", "node/node01 cordoned (dry run)\n")
	s.expect("kubectl cordon node01", "node/node01 cordoned\n")
	s.expect("kubectl cordon node/node01", "node/node01 already cordoned\n")
	s.expect("kubectl get nodes --no-headers -o custom-columns=NAME:.metadata.name,U:.spec.unschedulable", "node01   true\n")
	s.expect("kubectl uncordon -l kubernetes.io/hostname=node01", "node/node01 uncordoned\n")
	s.expect("kubectl uncordon node01", "node/node01 already uncordoned\n")
	s.expect("kubectl get nodes --no-headers -o custom-columns=NAME:.metadata.name,U:.spec.unschedulable", "node01   <none>\n")
	s.expect("kubectl cordon", "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n")
	s.expect("kubectl uncordon node01 -l a=b", "error: cannot specify both a node name and a --selector option\nSee 'kubectl uncordon -h' for help and examples\n")
	s.expect("kubectl cordon nope", "Error from server (NotFound): nodes \"nope\" not found\n")
	s.expect("kubectl cordon svc/kubernetes", "error: expected resource of type node, got \"/v1, Resource=services\"\n")
}
