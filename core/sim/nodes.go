package sim

import "fmt"

// kubeletHandle is the simulation's grip on one node's kubelet.
type kubeletHandle struct {
	running bool
}

// SetNodeRunning stops or starts the kubelet of a node: a stopped kubelet
// posts no status and renews no lease, and the node lifecycle controller
// takes it from there.
func (c *Cluster) SetNodeRunning(name string, running bool) error {
	if _, ok := c.kubelets[name]; !ok {
		return fmt.Errorf("node %q has no kubelet", name)
	}
	c.kubelets[name].running = running
	return nil
}
