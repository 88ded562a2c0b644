package sim

import (
	"kubeplay/core/controller/cronjob"
	"kubeplay/core/controller/daemon"
	"kubeplay/core/controller/deployment"
	"kubeplay/core/controller/disruption"
	"kubeplay/core/controller/endpoint"
	"kubeplay/core/controller/endpointslice"
	"kubeplay/core/controller/garbagecollector"
	"kubeplay/core/controller/job"
	"kubeplay/core/controller/namespace"
	"kubeplay/core/controller/nodeipam"
	"kubeplay/core/controller/nodelifecycle"
	"kubeplay/core/controller/podautoscaler"
	"kubeplay/core/controller/replicaset"
	"kubeplay/core/controller/rootcacertpublisher"
	"kubeplay/core/controller/serviceaccount"
	"kubeplay/core/controller/statefulset"
	"kubeplay/core/controller/tainteviction"
	"kubeplay/core/controller/ttlafterfinished"
	"kubeplay/core/controller/volume/externalprovisioner"
	"kubeplay/core/controller/volume/persistentvolume"
	"kubeplay/core/scheduler"
)

// startControllers builds the controllers of kube-controller-manager, in
// the order the simulation gives them work.
func (c *Cluster) startControllers() {
	ctx := c.ControllerContext()
	c.AddWorker(namespace.NewController(ctx))
	c.AddWorker(garbagecollector.NewGarbageCollector(ctx))
	c.AddWorker(deployment.NewDeploymentController(ctx))
	c.AddWorker(replicaset.NewReplicaSetController(ctx))
	c.AddWorker(statefulset.NewStatefulSetController(ctx))
	c.AddWorker(daemon.NewDaemonSetsController(ctx))
	c.AddWorker(job.NewController(ctx))
	c.AddWorker(cronjob.NewController(ctx))
	c.AddWorker(ttlafterfinished.New(ctx))
	c.AddWorker(podautoscaler.NewHorizontalController(ctx))
	c.AddWorker(endpoint.NewEndpointController(ctx))
	c.AddWorker(endpointslice.NewController(ctx))
	c.AddWorker(nodeipam.NewRangeAllocator(ctx))
	c.AddWorker(nodelifecycle.NewNodeLifecycleController(ctx))
	c.AddWorker(tainteviction.New(ctx))
	c.AddWorker(disruption.NewDisruptionController(ctx))
	c.scheduler = scheduler.New(ctx)
	c.AddWorker(c.scheduler)
	c.AddWorker(serviceaccount.NewServiceAccountsController(ctx))
	c.AddWorker(rootcacertpublisher.NewPublisher(ctx, clusterCA))
	c.AddWorker(persistentvolume.NewPersistentVolumeController(ctx))
	c.AddWorker(persistentvolume.NewProtectionController(ctx))
	// Provisioners that run as pods (nfs-subdir-external-provisioner).
	c.AddWorker(externalprovisioner.New(ctx))
}
