package podautoscaler

import (
	"fmt"
	"math"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

func apiserverUpdateOptions() apiserver.UpdateOptions { return apiserver.UpdateOptions{} }

func apiserverStatusOptions() apiserver.UpdateOptions {
	return apiserver.UpdateOptions{Subresource: "status"}
}

// computeReplicasForMetrics returns the largest proposal over the HPA's
// metrics (CPU and memory resource metrics are supported).
func (c *HorizontalController) computeReplicasForMetrics(hpa *api.HorizontalPodAutoscaler, t *target, now time.Time) (int32, []api.MetricStatus, string, error) {
	var best int32
	var statuses []api.MetricStatus
	name := ""
	for _, m := range hpa.Spec.Metrics {
		if m.Type != api.ResourceMetricSourceType || m.Resource == nil {
			continue
		}
		replicas, status, err := c.replicasForResource(hpa.Namespace, m.Resource, t, now)
		if err != nil {
			return 0, statuses, "", err
		}
		statuses = append(statuses, status)
		if replicas > best || name == "" {
			best = replicas
			name = fmt.Sprintf("%s resource utilization (percentage of request)", m.Resource.Name)
			if m.Resource.Target.Type != api.UtilizationMetricType {
				name = fmt.Sprintf("%s resource", m.Resource.Name)
			}
		}
	}
	if name == "" {
		return t.replicas, statuses, "", fmt.Errorf("no supported metric in spec.metrics")
	}
	return best, statuses, name, nil
}

// replicasForResource is upstream's GetResourceReplicas: usage over
// requests on the ready pods, with unready and unmeasured pods counted so
// as not to overreact.
func (c *HorizontalController) replicasForResource(ns string, src *api.ResourceMetricSource, t *target, now time.Time) (int32, api.MetricStatus, error) {
	resName := src.Name
	metricsRes, ok := c.client.Registry().Get("metrics.k8s.io", "pods")
	if !ok {
		return 0, api.MetricStatus{}, fmt.Errorf("failed to get %s utilization: unable to get metrics for resource %s: no metrics returned from resource metrics API", resName, resName)
	}
	objs, _ := c.client.List(metricsRes, ns, apiserver.ListOptions{Filter: func(o api.Object) bool { return t.selector.Matches(labels.Set(o.GetObjectMeta().Labels)) }})
	if len(objs) == 0 {
		return 0, api.MetricStatus{}, fmt.Errorf("failed to get %s utilization: unable to get metrics for resource %s: no metrics returned from resource metrics API", resName, resName)
	}
	usage := map[string]int64{}
	for _, o := range objs {
		pm := o.(*api.PodMetrics)
		var sum int64
		for _, ct := range pm.Containers {
			q := ct.Usage[resName]
			sum += milli(q, resName)
		}
		usage[pm.Name] = sum
	}
	pods := client.List[*api.Pod](c.client, ns, func(o api.Object) bool { return t.selector.Matches(labels.Set(o.GetObjectMeta().Labels)) })
	var ready []*api.Pod
	unready, missing := map[string]bool{}, map[string]bool{}
	requests := map[string]int64{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
			continue
		}
		var req int64
		for _, ct := range p.Spec.Containers {
			q, ok := ct.Resources.Requests[resName]
			if !ok {
				return 0, api.MetricStatus{}, fmt.Errorf("failed to get %s utilization: missing request for %s in container %s of Pod %s", resName, resName, ct.Name, p.Name)
			}
			req += milli(q, resName)
		}
		requests[p.Name] = req
		if p.Status.Phase == api.PodPending {
			unready[p.Name] = true
			continue
		}
		if _, ok := usage[p.Name]; !ok {
			missing[p.Name] = true
			continue
		}
		if resName == api.ResourceCPU && !cpuTrusted(p, now) {
			unready[p.Name] = true
			continue
		}
		ready = append(ready, p)
	}
	var readyUsage, readyRequests int64
	for _, p := range ready {
		readyUsage += usage[p.Name]
		readyRequests += requests[p.Name]
	}
	if readyRequests == 0 {
		return 0, api.MetricStatus{}, fmt.Errorf("failed to get %s utilization: did not receive metrics for targeted pods (pods might be unready)", resName)
	}
	utilization := float64(readyUsage) * 100 / float64(readyRequests)
	averageValue := readyUsage / int64(len(ready))
	status := api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: resName}}
	util32 := int32(utilization)
	status.Resource.Current.AverageUtilization = &util32
	av := quantityOf(averageValue, resName)
	status.Resource.Current.AverageValue = &av

	var ratio float64
	switch src.Target.Type {
	case api.UtilizationMetricType:
		if src.Target.AverageUtilization == nil {
			return 0, status, fmt.Errorf("invalid resource metric source: averageUtilization unset")
		}
		ratio = utilization / float64(*src.Target.AverageUtilization)
	default:
		if src.Target.AverageValue == nil {
			return 0, status, fmt.Errorf("invalid resource metric source: averageValue unset")
		}
		ratio = float64(averageValue) / float64(milli(*src.Target.AverageValue, resName))
	}
	current := t.replicas
	scaleUpWithUnready := len(unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if math.Abs(1.0-ratio) <= tolerance {
			return current, status, nil
		}
		return ceilInt32(ratio * float64(len(ready))), status, nil
	}
	// Rebalance: assume the worst for the unmeasured pods in the direction
	// of the change, and nothing for unready ones when scaling up.
	total, totalRequests := readyUsage, readyRequests
	for name := range missing {
		if ratio < 1.0 {
			total += requests[name] // scaling down: as if at their request
		}
		totalRequests += requests[name]
	}
	if scaleUpWithUnready {
		for name := range unready {
			totalRequests += requests[name]
		}
	}
	var newRatio float64
	if src.Target.Type == api.UtilizationMetricType {
		newRatio = float64(total) * 100 / float64(totalRequests) / float64(*src.Target.AverageUtilization)
	} else {
		n := len(ready) + len(missing)
		if scaleUpWithUnready {
			n += len(unready)
		}
		newRatio = float64(total) / float64(n) / float64(milli(*src.Target.AverageValue, resName))
	}
	if math.Abs(1.0-newRatio) <= tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return current, status, nil
	}
	n := len(ready) + len(missing)
	if scaleUpWithUnready {
		n += len(unready)
	}
	proposal := ceilInt32(newRatio * float64(n))
	if (newRatio < 1.0 && proposal > current) || (newRatio > 1.0 && proposal < current) {
		return current, status, nil
	}
	return proposal, status, nil
}

// cpuTrusted reports whether a pod's CPU reading can be believed: a pod
// started less than five minutes ago counts only once it has been ready
// for a while.
func cpuTrusted(p *api.Pod, now time.Time) bool {
	_, cond := api.GetPodCondition(&p.Status, api.PodReady)
	if cond == nil || p.Status.StartTime == nil {
		return false
	}
	if p.Status.StartTime.Add(cpuInitializationPeriod).After(now) {
		return cond.Status == api.ConditionTrue && !cond.LastTransitionTime.Add(initialReadinessDelay).After(now)
	}
	return cond.Status == api.ConditionTrue || !cond.LastTransitionTime.Add(initialReadinessDelay).After(p.Status.StartTime.Time)
}

func milli(q resource.Quantity, name api.ResourceName) int64 {
	if name == api.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

func quantityOf(v int64, name api.ResourceName) resource.Quantity {
	if name == api.ResourceCPU {
		return *resource.NewMilliQuantity(v, resource.DecimalSI)
	}
	return *resource.NewQuantity(v, resource.BinarySI)
}
