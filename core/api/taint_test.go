package api

import "testing"

func TestTaintToString(t *testing.T) {
	tests := []struct {
		taint Taint
		want  string
	}{
		{Taint{Key: "monitor", Value: "true", Effect: TaintEffectNoSchedule}, "monitor=true:NoSchedule"},
		{Taint{Key: "node-role.kubernetes.io/control-plane", Effect: TaintEffectNoSchedule}, "node-role.kubernetes.io/control-plane:NoSchedule"},
		{Taint{Key: TaintNodeUnreachable, Effect: TaintEffectNoExecute, TimeAdded: &t0}, "node.kubernetes.io/unreachable:NoExecute"},
		{Taint{Key: "k", Value: "v"}, "k=v:"},
	}
	for _, tt := range tests {
		if got := tt.taint.ToString(); got != tt.want {
			t.Errorf("%+v.ToString() = %q, want %q", tt.taint, got, tt.want)
		}
	}
}

func TestTolerationToleratesTaint(t *testing.T) {
	noSchedule := &Taint{Key: "monitor", Value: "true", Effect: TaintEffectNoSchedule}
	noExecute := &Taint{Key: "monitor", Value: "true", Effect: TaintEffectNoExecute}
	tests := []struct {
		name string
		tol  Toleration
		t    *Taint
		want bool
	}{
		{"equal key, value and effect", Toleration{Key: "monitor", Operator: TolerationOpEqual, Value: "true", Effect: TaintEffectNoSchedule}, noSchedule, true},
		{"empty operator means Equal", Toleration{Key: "monitor", Value: "true", Effect: TaintEffectNoSchedule}, noSchedule, true},
		{"Equal with another value", Toleration{Key: "monitor", Operator: TolerationOpEqual, Value: "false", Effect: TaintEffectNoSchedule}, noSchedule, false},
		{"Exists ignores the value", Toleration{Key: "monitor", Operator: TolerationOpExists, Effect: TaintEffectNoSchedule}, noSchedule, true},
		{"empty effect matches all effects", Toleration{Key: "monitor", Operator: TolerationOpExists}, noExecute, true},
		{"other effect", Toleration{Key: "monitor", Operator: TolerationOpExists, Effect: TaintEffectNoSchedule}, noExecute, false},
		{"other key", Toleration{Key: "gpu", Operator: TolerationOpExists}, noSchedule, false},
		{"empty key with Exists tolerates everything", Toleration{Operator: TolerationOpExists}, noExecute, true},
		{"empty key and effect with Exists (kube-apiserver's :NoExecute)", Toleration{Operator: TolerationOpExists, Effect: TaintEffectNoExecute}, noExecute, true},
		{"unknown operator", Toleration{Key: "monitor", Operator: "Gt", Value: "true"}, noSchedule, false},
		{"Equal with empty value against a valueless taint", Toleration{Key: "k", Operator: TolerationOpEqual}, &Taint{Key: "k", Effect: TaintEffectNoSchedule}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tol.ToleratesTaint(tt.t); got != tt.want {
				t.Errorf("ToleratesTaint = %v, want %v", got, tt.want)
			}
		})
	}
	if !TolerationsTolerateTaint([]Toleration{{Key: "a"}, {Key: "monitor", Operator: TolerationOpExists}}, noSchedule) {
		t.Error("TolerationsTolerateTaint missed the second toleration")
	}
	if TolerationsTolerateTaint(nil, noSchedule) {
		t.Error("no tolerations tolerate a taint")
	}
}

func TestMatchTaintAndToleration(t *testing.T) {
	a := &Taint{Key: "k", Value: "1", Effect: TaintEffectNoSchedule}
	if !a.MatchTaint(&Taint{Key: "k", Value: "2", Effect: TaintEffectNoSchedule, TimeAdded: &t0}) {
		t.Error("same key and effect should match")
	}
	if a.MatchTaint(&Taint{Key: "k", Effect: TaintEffectNoExecute}) {
		t.Error("different effect should not match")
	}
	x := &Toleration{Key: "k", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: Int64(300)}
	if !x.MatchToleration(&Toleration{Key: "k", Operator: TolerationOpExists, Effect: TaintEffectNoExecute}) {
		t.Error("tolerationSeconds should not matter")
	}
}
