package sim

import (
	"kubeplay/core/controller/garbagecollector"
	"kubeplay/core/controller/namespace"
)

// startControllers builds the controllers of kube-controller-manager, in
// the order the simulation gives them work.
func (c *Cluster) startControllers() {
	ctx := c.ControllerContext()
	c.AddWorker(namespace.NewController(ctx))
	c.AddWorker(garbagecollector.NewGarbageCollector(ctx))
}
