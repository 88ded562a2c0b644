package kubectl

import (
	"fmt"

	"kubeplay/core/api"
)

// runAutoscale is `kubectl autoscale TYPE NAME --min --max --cpu-percent`:
// an autoscaling/v2 HorizontalPodAutoscaler named after the target.
func runAutoscale(inv *Invocation) error {
	if len(inv.Args) == 0 {
		return usageErrorf(inv.Cmd, "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
	}
	maxR := int32(inv.Flags.Int("max"))
	if maxR < 1 {
		return fmt.Errorf("--max=MAXPODS is required and must be at least 1, max: %d", maxR)
	}
	rargs, err := inv.resourceArgs(inv.Args)
	if err != nil {
		return err
	}
	ns, _ := inv.Namespace()
	for _, ra := range rargs {
		if !ra.Resource.Scale {
			return fmt.Errorf("cannot autoscale a %s: %s", ra.Resource.Kind, "the server does not allow this method on the requested resource")
		}
		for _, n := range ra.Names {
			if _, err := inv.Env.Client.Get(ra.Resource, ns, n); err != nil {
				return err
			}
			hpa := &api.HorizontalPodAutoscaler{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}, ObjectMeta: api.ObjectMeta{Name: n}}
			if name := inv.Flags.String("name"); name != "" {
				hpa.Name = name
			}
			hpa.Spec.ScaleTargetRef = api.CrossVersionObjectReference{APIVersion: ra.Resource.APIVersion(), Kind: ra.Resource.Kind, Name: n}
			hpa.Spec.MaxReplicas = maxR
			if m := int32(inv.Flags.Int("min")); m > 0 {
				hpa.Spec.MinReplicas = &m
			}
			if p := int32(inv.Flags.Int("cpu-percent")); p > 0 {
				hpa.Spec.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
					Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &p}}}}
			}
			if err := inv.createGeneratedOp(hpa, "horizontalpodautoscaler", false, "autoscaled"); err != nil {
				return err
			}
		}
	}
	return nil
}
