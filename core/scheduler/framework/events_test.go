package framework

import (
	"reflect"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// A placed pod's update is named by what changed, in upstream's order; an
// update that changed none of those (a status write) is "other".
func TestPodSchedulingPropertiesChange(t *testing.T) {
	base := func() *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{NodeName: "n1", Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{
				Requests: api.ResourceList{api.ResourceCPU: resource.MustParse("500m")}}}}}}
	}
	tests := []struct {
		name   string
		before func(p *api.Pod) // the old version, when not base()
		change func(p *api.Pod)
		want   []ActionType
	}{
		{"status only", nil, func(p *api.Pod) { p.Status.Phase = api.PodRunning }, []ActionType{updatePodOther}},
		{"labels", nil, func(p *api.Pod) { p.Labels = map[string]string{"app": "api"} }, []ActionType{UpdatePodLabel}},
		{"labels emptied", nil, func(p *api.Pod) { p.Labels = map[string]string{} }, []ActionType{UpdatePodLabel}},
		{"request down", nil, func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: resource.MustParse("250m")}
		}, []ActionType{UpdatePodScaleDown}},
		{"labels and tolerations", nil, func(p *api.Pod) {
			p.Labels = nil
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists}}
		}, []ActionType{UpdatePodLabel, UpdatePodTolerations}},
		{"gates lifted", func(p *api.Pod) { p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "wait"}} },
			func(p *api.Pod) {}, []ActionType{UpdatePodSchedulingGatesEliminated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, cur := base(), base()
			if tt.before != nil {
				tt.before(old)
			}
			tt.change(cur)
			var got []ActionType
			for _, ev := range PodSchedulingPropertiesChange(cur, old) {
				if ev.Resource != AssignedPod {
					t.Errorf("resource %v, want the assigned pod", ev.Resource)
				}
				got = append(got, ev.ActionType)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("actions %v, want %v", got, tt.want)
			}
		})
	}
}
