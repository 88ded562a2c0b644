package sim

import (
	"sort"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
)

// The cluster's metrics-server: metrics.k8s.io answers computed from what
// each kubelet measures, on metrics-server's 15 s resolution.

const metricsResolution = 15 * time.Second

func (c *Cluster) metricsTime() api.Time {
	return api.NewTime(c.Now().Truncate(metricsResolution))
}

func milliQuantity(m int64) resource.Quantity {
	return *resource.NewMilliQuantity(m, resource.DecimalSI)
}

func bytesQuantity(b int64) resource.Quantity {
	// metrics-server reports memory in Ki.
	return *resource.NewQuantity(b/1024*1024, resource.BinarySI)
}

// PodMetrics implements apiserver.MetricsProvider.
func (c *Cluster) PodMetrics(namespace string) []*api.PodMetrics {
	c.applyLoads()
	var out []*api.PodMetrics
	for _, p := range client.List[*api.Pod](c.Client("metrics-server"), namespace, nil) {
		if p.Spec.NodeName == "" || p.Status.Phase != api.PodRunning {
			continue
		}
		k, ok := c.Kubelet(p.Spec.NodeName)
		if !ok || !k.Running() {
			continue
		}
		usage, ok := k.PodUsage(p.Namespace, p.Name)
		if !ok {
			continue
		}
		names := make([]string, 0, len(usage))
		for n := range usage {
			names = append(names, n)
		}
		sort.Strings(names)
		m := &api.PodMetrics{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels, CreationTimestamp: api.NewTime(c.Now())},
			Timestamp: c.metricsTime(), Window: "15s"}
		for _, n := range names {
			u := usage[n]
			m.Containers = append(m.Containers, api.ContainerMetrics{Name: n, Usage: api.ResourceList{"cpu": milliQuantity(u.MilliCPU), "memory": bytesQuantity(u.Memory)}})
		}
		out = append(out, m)
	}
	return out
}

// NodeMetrics implements apiserver.MetricsProvider.
func (c *Cluster) NodeMetrics() []*api.NodeMetrics {
	c.applyLoads()
	var out []*api.NodeMetrics
	for _, n := range client.List[*api.Node](c.Client("metrics-server"), "", nil) {
		k, ok := c.Kubelet(n.Name)
		if !ok || !k.Running() {
			continue
		}
		u := k.NodeUsage()
		out = append(out, &api.NodeMetrics{ObjectMeta: api.ObjectMeta{Name: n.Name, Labels: n.Labels, CreationTimestamp: api.NewTime(c.Now())},
			Timestamp: c.metricsTime(), Window: "15s", Usage: api.ResourceList{"cpu": milliQuantity(u.MilliCPU), "memory": bytesQuantity(u.Memory)}})
	}
	return out
}
