package daemon_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/controller/daemon"
)

func intOrStr(n int) intstr.IntOrString { return intstr.FromInt(n) }

func TestNodeShouldRunDaemonPod(t *testing.T) {
	taint := func(key, effect string) api.Taint { return api.Taint{Key: key, Effect: effect} }
	cases := []struct {
		name                  string
		node                  api.Node
		template              func(*api.PodSpec)
		shouldRun, shouldStay bool
	}{
		{"plain node", api.Node{}, nil, true, true},
		{"node selector matches", api.Node{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"disk": "ssd"}}},
			func(s *api.PodSpec) { s.NodeSelector = map[string]string{"disk": "ssd"} }, true, true},
		{"node selector does not match", api.Node{},
			func(s *api.PodSpec) { s.NodeSelector = map[string]string{"disk": "ssd"} }, false, false},
		{"required affinity does not match", api.Node{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"zone": "a"}}},
			func(s *api.PodSpec) {
				s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
					NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"b"}}}}},
				}}}
			}, false, false},
		{"template names another node", api.Node{}, func(s *api.PodSpec) { s.NodeName = "elsewhere" }, false, false},
		{"untolerated NoSchedule: no new pod, the running one stays", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint("dedicated", api.TaintEffectNoSchedule)}}}, nil, false, true},
		{"untolerated NoExecute: the pod goes", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint("dedicated", api.TaintEffectNoExecute)}}}, nil, false, false},
		{"tolerated NoSchedule", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint("dedicated", api.TaintEffectNoSchedule)}}},
			func(s *api.PodSpec) {
				s.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
			}, true, true},
		{"not-ready and unschedulable are tolerated by every daemon", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{
			taint(api.TaintNodeNotReady, api.TaintEffectNoExecute), taint(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)}}}, nil, true, true},
		{"network-unavailable only for host network", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule)}}}, nil, false, true},
		{"network-unavailable with host network", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule)}}},
			func(s *api.PodSpec) { s.HostNetwork = true }, true, true},
		{"PreferNoSchedule is ignored", api.Node{Spec: api.NodeSpec{Taints: []api.Taint{taint("soft", api.TaintEffectPreferNoSchedule)}}}, nil, true, true},
	}
	for _, c := range cases {
		ds := &api.DaemonSet{Spec: api.DaemonSetSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}}}
		if c.template != nil {
			c.template(&ds.Spec.Template.Spec)
		}
		node := c.node
		node.Name = "n1"
		run, stay := daemon.NodeShouldRunDaemonPod(&node, ds)
		if run != c.shouldRun || stay != c.shouldStay {
			t.Errorf("%s: shouldRun=%v shouldContinueRunning=%v, want %v %v", c.name, run, stay, c.shouldRun, c.shouldStay)
		}
	}
}

func TestReplaceDaemonSetPodNodeNameNodeAffinity(t *testing.T) {
	pinned := func(a *api.Affinity) string {
		f := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		if len(f) != 1 || len(f[0].MatchFields) != 1 || len(f[0].MatchExpressions) != 0 {
			return "?"
		}
		return f[0].MatchFields[0].Key + " " + f[0].MatchFields[0].Operator + " " + f[0].MatchFields[0].Values[0]
	}
	preferred := []api.PreferredSchedulingTerm{{Weight: 1}}
	cases := []struct {
		name string
		in   *api.Affinity
	}{
		{"no affinity", nil},
		{"pod affinity only", &api.Affinity{PodAffinity: &api.PodAffinity{}}},
		{"preferred node affinity kept", &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: preferred}}},
		{"required terms replaced", &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"a"}}}}},
		}}}},
	}
	for _, c := range cases {
		out := daemon.ReplaceDaemonSetPodNodeNameNodeAffinity(c.in, "node-9")
		if got := pinned(out); got != "metadata.name In node-9" {
			t.Errorf("%s: %s", c.name, got)
		}
		pod := &api.Pod{Spec: api.PodSpec{Affinity: out}}
		if n, err := daemon.GetTargetNodeName(pod); err != nil || n != "node-9" {
			t.Errorf("%s: target %q %v", c.name, n, err)
		}
	}
	if _, err := daemon.GetTargetNodeName(&api.Pod{}); err == nil {
		t.Error("a pod without affinity has a target node")
	}
}

func TestIsPodUpdated(t *testing.T) {
	g := int64(3)
	cases := []struct {
		name       string
		labels     map[string]string
		hash       string
		generation *int64
		want       bool
	}{
		{"hash matches", map[string]string{"controller-revision-hash": "abc"}, "abc", nil, true},
		{"generation matches", map[string]string{"pod-template-generation": "3"}, "abc", &g, true},
		{"neither", map[string]string{"controller-revision-hash": "old", "pod-template-generation": "2"}, "abc", &g, false},
		{"no labels", nil, "abc", &g, false},
	}
	for _, c := range cases {
		if got := daemon.IsPodUpdated(&api.Pod{ObjectMeta: api.ObjectMeta{Labels: c.labels}}, c.hash, c.generation); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}

func TestSurgeAndUnavailableCounts(t *testing.T) {
	pct := intstr.FromString("30%")
	two := intstr.FromInt(2)
	cases := []struct {
		name           string
		strategy       api.DaemonSetUpdateStrategy
		nodes          int
		surge, unavail int
		allowsSurge    bool
	}{
		{"OnDelete", api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}, 10, 0, 0, false},
		{"percentages round up", api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &pct, MaxSurge: &pct}}, 10, 3, 3, true},
		{"absolute", api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &two}}, 10, 0, 2, false},
	}
	for _, c := range cases {
		ds := &api.DaemonSet{Spec: api.DaemonSetSpec{UpdateStrategy: c.strategy}}
		s, _ := daemon.SurgeCount(ds, c.nodes)
		u, _ := daemon.UnavailableCount(ds, c.nodes)
		if s != c.surge || u != c.unavail || daemon.AllowsSurge(ds) != c.allowsSurge {
			t.Errorf("%s: surge %d unavailable %d allowsSurge %v", c.name, s, u, daemon.AllowsSurge(ds))
		}
	}
}

func TestCreatePodTemplateKeepsUserTolerationsFirst(t *testing.T) {
	g := int64(4)
	in := api.PodTemplateSpec{Spec: api.PodSpec{Tolerations: []api.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(30)},
	}}}
	out := daemon.CreatePodTemplate(in, &g, "h1")
	if out.Labels["pod-template-generation"] != "4" || out.Labels["controller-revision-hash"] != "h1" {
		t.Fatalf("labels %v", out.Labels)
	}
	if len(out.Spec.Tolerations) != 6 || out.Spec.Tolerations[0].TolerationSeconds != nil {
		t.Fatalf("tolerations %+v", out.Spec.Tolerations)
	}
	if len(in.Spec.Tolerations) != 1 || in.Labels != nil {
		t.Fatal("input template changed")
	}
}
