package sim

import (
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
)

// Simulated CPU load, the stand-in for a load generator: `kubeplay load
// deployment/web 600m` sends work worth 600 millicores to the workload,
// shared by its running pods as a Service would share requests, so adding
// pods lowers each one's use, which is what an autoscaler watches.

type loadTarget struct {
	namespace, kind, name string
	milliCPU              int64
}

func (lt loadTarget) key() string { return lt.namespace + "/" + lt.kind + "/" + lt.name }

// SetLoad puts a total CPU load on a workload (or a pod); 0 removes it.
func (c *Cluster) SetLoad(namespace, kind, name string, milliCPU int64) error {
	if _, err := c.loadSelector(loadTarget{namespace: namespace, kind: kind, name: name}); err != nil {
		return err
	}
	lt := loadTarget{namespace, kind, name, milliCPU}
	if c.loads == nil {
		c.loads = map[string]loadTarget{}
	}
	if milliCPU <= 0 {
		delete(c.loads, lt.key())
	} else {
		c.loads[lt.key()] = lt
	}
	return nil
}

// loadSelector finds the pods a load target spreads over.
func (c *Cluster) loadSelector(lt loadTarget) (func(*api.Pod) bool, error) {
	cl := c.Client("kubeplay")
	var sel *api.LabelSelector
	switch lt.kind {
	case "pod", "pods", "po":
		if _, err := client.Get[*api.Pod](cl, lt.namespace, lt.name); err != nil {
			return nil, err
		}
		return func(p *api.Pod) bool { return p.Namespace == lt.namespace && p.Name == lt.name }, nil
	case "deployment", "deployments", "deploy":
		d, err := client.Get[*api.Deployment](cl, lt.namespace, lt.name)
		if err != nil {
			return nil, err
		}
		sel = d.Spec.Selector
	case "replicaset", "replicasets", "rs":
		r, err := client.Get[*api.ReplicaSet](cl, lt.namespace, lt.name)
		if err != nil {
			return nil, err
		}
		sel = r.Spec.Selector
	case "statefulset", "statefulsets", "sts":
		s, err := client.Get[*api.StatefulSet](cl, lt.namespace, lt.name)
		if err != nil {
			return nil, err
		}
		sel = s.Spec.Selector
	default:
		return nil, fmt.Errorf("cannot put load on %s: use pod, deployment, replicaset or statefulset", lt.kind)
	}
	s, err := labels.SelectorFromLabelSelector(sel)
	if err != nil {
		return nil, err
	}
	return func(p *api.Pod) bool { return p.Namespace == lt.namespace && s.Matches(labels.Set(p.Labels)) }, nil
}

// applyLoads shares each load among the running pods it targets. Metrics
// reads call it, so it touches only the pods it loaded last time and the
// pods of current targets, never every pod of every node.
func (c *Cluster) applyLoads() {
	for key, node := range c.loadedPods {
		if k, ok := c.Kubelet(node); ok {
			ns, name, _ := strings.Cut(key, "/")
			k.SetLoad(ns, name, 0)
		}
	}
	clear(c.loadedPods)
	if len(c.loads) == 0 {
		return
	}
	if c.loadedPods == nil {
		c.loadedPods = map[string]string{}
	}
	keys := make([]string, 0, len(c.loads))
	for key := range c.loads {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		lt := c.loads[key]
		match, err := c.loadSelector(lt)
		if err != nil {
			continue
		}
		var running []*api.Pod
		for _, p := range client.List[*api.Pod](c.Client("kubeplay"), lt.namespace, nil) {
			if match(p) && p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil {
				running = append(running, p)
			}
		}
		for _, p := range running {
			if k, ok := c.Kubelet(p.Spec.NodeName); ok {
				k.SetLoad(p.Namespace, p.Name, lt.milliCPU/int64(len(running)))
				c.loadedPods[p.Namespace+"/"+p.Name] = p.Spec.NodeName
			}
		}
	}
}

// parseLoad reads "600m", "1.5" (cores) or "0".
func parseLoad(s string) (int64, error) {
	q, err := resource.ParseQuantity(strings.TrimSpace(s))
	if err != nil || q.Sign() < 0 {
		return 0, fmt.Errorf("invalid CPU amount %q: want millicores like 500m or cores like 1.5", s)
	}
	return q.MilliValue(), nil
}
