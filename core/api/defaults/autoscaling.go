package defaults

import "kubeplay/core/api"

// defaultHPA is autoscaling/v2's: one replica at least, a CPU target of 80%
// when no metric is given, and a behavior filled in wherever one is given.
func defaultHPA(hpa *api.HorizontalPodAutoscaler) {
	spec := &hpa.Spec
	if spec.MinReplicas == nil {
		spec.MinReplicas = ptr[int32](1)
	}
	if len(spec.Metrics) == 0 {
		spec.Metrics = []api.MetricSpec{{
			Type: api.ResourceMetricSourceType,
			Resource: &api.ResourceMetricSource{
				Name: api.ResourceCPU,
				Target: api.MetricTarget{
					Type:               api.UtilizationMetricType,
					AverageUtilization: ptr(api.DefaultCPUUtilization),
				},
			},
		}}
	}
	if b := spec.Behavior; b != nil {
		b.ScaleUp = fillScalingRules(b.ScaleUp, scaleUpDefaults())
		b.ScaleDown = fillScalingRules(b.ScaleDown, scaleDownDefaults())
	}
}

// scaleUpDefaults: no stabilization; the larger of 4 pods or 100% per 15 s.
func scaleUpDefaults() *api.HPAScalingRules {
	return &api.HPAScalingRules{
		StabilizationWindowSeconds: ptr[int32](0),
		SelectPolicy:               ptr(api.MaxChangePolicySelect),
		Policies: []api.HPAScalingPolicy{
			{Type: api.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// scaleDownDefaults: 100% per 15 s; the stabilization window stays unset
// because the controller's --horizontal-pod-autoscaler-downscale-stabilization
// (300 s) supplies it.
func scaleDownDefaults() *api.HPAScalingRules {
	return &api.HPAScalingRules{
		SelectPolicy: ptr(api.MaxChangePolicySelect),
		Policies: []api.HPAScalingPolicy{
			{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// fillScalingRules returns def with every field the user set taken from rules.
func fillScalingRules(rules, def *api.HPAScalingRules) *api.HPAScalingRules {
	if rules == nil {
		return def
	}
	if rules.SelectPolicy != nil {
		def.SelectPolicy = rules.SelectPolicy
	}
	if rules.StabilizationWindowSeconds != nil {
		def.StabilizationWindowSeconds = rules.StabilizationWindowSeconds
	}
	if rules.Policies != nil {
		def.Policies = rules.Policies
	}
	return def
}
