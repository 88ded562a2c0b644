package api

import (
	"reflect"
	"strings"
	"testing"
)

func hpaV2(metrics []MetricSpec) *HorizontalPodAutoscaler {
	return &HorizontalPodAutoscaler{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: ObjectMeta{Name: "frontend-scaler", Namespace: "default", Annotations: map[string]string{"team": "web"}},
		Spec: HorizontalPodAutoscalerSpec{
			ScaleTargetRef: CrossVersionObjectReference{Kind: "ReplicaSet", Name: "app-rs", APIVersion: "apps/v1"},
			MinReplicas:    Int32(3), MaxReplicas: 10, Metrics: metrics,
		},
	}
}

func TestConvertHPAV2ToV1(t *testing.T) {
	mem := MetricSpec{Type: ResourceMetricSourceType, Resource: &ResourceMetricSource{Name: ResourceMemory,
		Target: MetricTarget{Type: UtilizationMetricType, AverageUtilization: Int32(70)}}}
	in := hpaV2([]MetricSpec{mem, cpuUtilizationMetric(50)})
	in.Status = HorizontalPodAutoscalerStatus{
		ObservedGeneration: Int64(2), LastScaleTime: &t0, CurrentReplicas: 3, DesiredReplicas: 4,
		CurrentMetrics: []MetricStatus{{Type: ResourceMetricSourceType, Resource: &ResourceMetricStatus{
			Name: ResourceCPU, Current: MetricValueStatus{AverageUtilization: Int32(65)}}}},
		Conditions: []HorizontalPodAutoscalerCondition{{Type: AbleToScale, Status: ConditionTrue, Reason: "SucceededRescale", LastTransitionTime: t0}},
	}
	in.Spec.Behavior = &HorizontalPodAutoscalerBehavior{ScaleDown: &HPAScalingRules{
		StabilizationWindowSeconds: Int32(300), SelectPolicy: String(MaxChangePolicySelect),
		Policies: []HPAScalingPolicy{{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}}}
	before := in.DeepCopy()

	out, err := ConvertHPAV2ToV1(in)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, before) {
		t.Error("conversion modified its input")
	}
	if out.APIVersion != "autoscaling/v1" || out.Kind != "HorizontalPodAutoscaler" {
		t.Errorf("TypeMeta = %+v", out.TypeMeta)
	}
	if p := out.Spec.TargetCPUUtilizationPercentage; p == nil || *p != 50 {
		t.Errorf("targetCPUUtilizationPercentage = %v", p)
	}
	if p := out.Status.CurrentCPUUtilizationPercentage; p == nil || *p != 65 {
		t.Errorf("currentCPUUtilizationPercentage = %v", p)
	}
	if *out.Spec.MinReplicas != 3 || out.Spec.MaxReplicas != 10 || out.Spec.ScaleTargetRef != in.Spec.ScaleTargetRef {
		t.Errorf("spec = %+v", out.Spec)
	}
	if out.Status.DesiredReplicas != 4 || *out.Status.ObservedGeneration != 2 || !out.Status.LastScaleTime.Equal(t0.Time) {
		t.Errorf("status = %+v", out.Status)
	}
	if got := out.Annotations[HPAConditionsAnnotation]; got != `[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T10:00:00Z","reason":"SucceededRescale"}]` {
		t.Errorf("conditions annotation = %s", got)
	}
	if got := out.Annotations[HPABehaviorSpecsAnnotation]; got != `{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}` {
		t.Errorf("behavior annotation = %s", got)
	}
	if out.Annotations["team"] != "web" {
		t.Error("user annotations lost")
	}

	// Back to v2: the CPU target, conditions and behavior return; the
	// round-trip annotations disappear.
	back, err := ConvertHPAV1ToV2(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Spec.Metrics, []MetricSpec{cpuUtilizationMetric(50)}) {
		t.Errorf("metrics = %+v", back.Spec.Metrics)
	}
	if !reflect.DeepEqual(back.Spec.Behavior, in.Spec.Behavior) {
		t.Errorf("behavior = %+v", back.Spec.Behavior)
	}
	if !reflect.DeepEqual(back.Status.Conditions, in.Status.Conditions) {
		t.Errorf("conditions = %+v", back.Status.Conditions)
	}
	if !reflect.DeepEqual(back.Annotations, map[string]string{"team": "web"}) {
		t.Errorf("annotations = %v", back.Annotations)
	}
}

func TestConvertHPAV1ToV2DefaultsCPU(t *testing.T) {
	tests := []struct {
		name   string
		target *int32
		want   int32
	}{
		{"explicit target", Int32(50), 50},
		{"no target means 80%", nil, DefaultCPUUtilization},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &HorizontalPodAutoscalerV1{
				ObjectMeta: ObjectMeta{Name: "frontend-scaler"},
				Spec: HorizontalPodAutoscalerSpecV1{ScaleTargetRef: CrossVersionObjectReference{Kind: "ReplicaSet", Name: "app-rs"},
					MaxReplicas: 10, TargetCPUUtilizationPercentage: tt.target},
				Status: HorizontalPodAutoscalerStatusV1{CurrentCPUUtilizationPercentage: Int32(30)},
			}
			out, err := ConvertHPAV1ToV2(in)
			if err != nil {
				t.Fatal(err)
			}
			if out.APIVersion != "autoscaling/v2" || !reflect.DeepEqual(out.Spec.Metrics, []MetricSpec{cpuUtilizationMetric(tt.want)}) {
				t.Errorf("got %+v %+v", out.TypeMeta, out.Spec.Metrics)
			}
			if m := out.Status.CurrentMetrics; len(m) != 1 || m[0].Resource.Name != ResourceCPU || *m[0].Resource.Current.AverageUtilization != 30 {
				t.Errorf("current metrics = %+v", m)
			}
			if out.Annotations != nil {
				t.Errorf("annotations = %v", out.Annotations)
			}
		})
	}
}

func TestConvertHPAV1ToV2RejectsBadAnnotations(t *testing.T) {
	for _, key := range []string{HPAConditionsAnnotation, HPABehaviorSpecsAnnotation} {
		in := &HorizontalPodAutoscalerV1{ObjectMeta: ObjectMeta{Annotations: map[string]string{key: "{not json"}}}
		if _, err := ConvertHPAV1ToV2(in); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: err = %v", key, err)
		}
	}
}

func TestConvertHPAV2ToV1DropsStaleAnnotations(t *testing.T) {
	in := hpaV2(nil)
	in.Annotations[HPAConditionsAnnotation] = `[{"type":"Stale"}]`
	out, err := ConvertHPAV2ToV1(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.Annotations[HPAConditionsAnnotation]; ok {
		t.Error("stale conditions annotation kept")
	}
	if out.Spec.TargetCPUUtilizationPercentage != nil {
		t.Error("no CPU metric should leave the target unset")
	}
}
