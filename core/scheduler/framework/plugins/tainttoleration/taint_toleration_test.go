package tainttoleration_test

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
	"kubeplay/core/scheduler/framework/plugins/tainttoleration"
)

func tainted(name string, taints ...api.Taint) *api.Node {
	n := fake.Node(name, nil)
	n.Spec.Taints = taints
	return n
}

func TestFilter(t *testing.T) {
	master := api.Taint{Key: "node-role.kubernetes.io/master", Effect: api.TaintEffectNoSchedule}
	noExec := api.Taint{Key: "monitor", Value: "true", Effect: api.TaintEffectNoExecute}
	soft := api.Taint{Key: "spot", Value: "yes", Effect: api.TaintEffectPreferNoSchedule}
	nodes := []*api.Node{tainted("clean"), tainted("master", master), tainted("noexec", noExec), tainted("soft", soft), tainted("both", soft, noExec, master)}
	tests := []struct {
		name        string
		tolerations []api.Toleration
		want        map[string]string
	}{
		{"no tolerations", nil, map[string]string{
			"clean": "", "soft": "",
			"master": "node(s) had untolerated taint {node-role.kubernetes.io/master: }",
			"noexec": "node(s) had untolerated taint {monitor: true}",
			"both":   "node(s) had untolerated taint {monitor: true}",
		}},
		{"Exists on the key with NoSchedule", []api.Toleration{{Key: "node-role.kubernetes.io/master", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}, map[string]string{
			"master": "", "noexec": "node(s) had untolerated taint {monitor: true}", "both": "node(s) had untolerated taint {monitor: true}",
		}},
		{"Equal needs the value", []api.Toleration{{Key: "monitor", Operator: api.TolerationOpEqual, Value: "false", Effect: api.TaintEffectNoExecute}}, map[string]string{
			"noexec": "node(s) had untolerated taint {monitor: true}",
		}},
		{"empty key with Exists tolerates NoExecute taints", []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}}, map[string]string{
			"noexec": "", "both": "node(s) had untolerated taint {node-role.kubernetes.io/master: }",
		}},
		{"tolerate all", []api.Toleration{{Operator: api.TolerationOpExists}}, map[string]string{
			"clean": "", "master": "", "noexec": "", "soft": "", "both": "",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.Tolerations = tt.tolerations
			got := fake.RunFilter(tainttoleration.New(), fake.NewHandle(nodes, nil), p)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %q, want %q", n, got[n], want)
				}
			}
		})
	}
}

func TestScore(t *testing.T) {
	soft := func(k string) api.Taint { return api.Taint{Key: k, Effect: api.TaintEffectPreferNoSchedule} }
	nodes := []*api.Node{tainted("none"), tainted("one", soft("a")), tainted("two", soft("a"), soft("b"))}
	tests := []struct {
		name        string
		tolerations []api.Toleration
		want        map[string]int64
	}{
		{"fewer untolerated soft taints score higher", nil, map[string]int64{"none": 100, "one": 50, "two": 0}},
		{"a toleration with no effect counts", []api.Toleration{{Key: "a", Operator: api.TolerationOpExists}}, map[string]int64{"none": 100, "one": 100, "two": 0}},
		{"NoSchedule tolerations do not count", []api.Toleration{{Key: "a", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}, map[string]int64{"none": 100, "one": 50, "two": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fake.Pod("p", nil)
			p.Spec.Tolerations = tt.tolerations
			got := fake.RunScore(tainttoleration.New(), fake.NewHandle(nodes, nil), p)
			for n, want := range tt.want {
				if got[n] != want {
					t.Errorf("node %s: %d, want %d", n, got[n], want)
				}
			}
		})
	}
}
