package nodelifecycle

import (
	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
)

// podUpdated queues a pod that was just bound to a node (or moved).
func (nc *Controller) podUpdated(oldPod, newPod *api.Pod) {
	if newPod == nil || newPod.Spec.NodeName == "" {
		return
	}
	if oldPod == nil || oldPod.Spec.NodeName != newPod.Spec.NodeName {
		nc.podUpdateQueue.Add(client.KeyOf(newPod))
	}
}

// processPod marks a pod just bound to a node that is not Ready as not
// ready itself; it reports whether it is done with the pod.
func (nc *Controller) processPod(key string) bool {
	ns, name := client.SplitKey(key)
	o, ok := nc.podInf.Get(ns, name)
	if !ok {
		return true
	}
	pod := o.(*api.Pod)
	health := nc.nodeHealthMap[pod.Spec.NodeName]
	if health == nil {
		return true // the next health pass handles it
	}
	if _, ok := nc.nodeInf.Get("", pod.Spec.NodeName); !ok {
		return false
	}
	_, ready := api.GetNodeCondition(health.status, api.NodeReady)
	if ready == nil || ready.Status == api.ConditionTrue {
		return true
	}
	return nc.markPodsNotReady([]*api.Pod{pod}, pod.Spec.NodeName) == nil
}

// getPodsAssignedToNode lists the pods bound to a node, by name.
func (nc *Controller) getPodsAssignedToNode(nodeName string) []*api.Pod {
	objs := nc.podInf.ByIndex(podNodeNameIndex, nodeName)
	pods := make([]*api.Pod, 0, len(objs))
	for _, o := range objs {
		pods = append(pods, o.(*api.Pod))
	}
	return pods
}

// markPodsNotReady sets the Ready condition of the node's pods to False and
// records NodeNotReady on each.
func (nc *Controller) markPodsNotReady(pods []*api.Pod, nodeName string) error {
	var errs []error
	now := api.NewTime(nc.clock.Now())
	for _, p := range pods {
		if p.Spec.NodeName != nodeName {
			continue
		}
		pod := p.DeepCopy()
		_, ready := api.GetPodCondition(&pod.Status, api.PodReady)
		if ready == nil {
			continue
		}
		cond := *ready
		cond.Status = api.ConditionFalse
		if !api.UpdatePodCondition(&pod.Status, &cond, now) {
			continue
		}
		if _, err := client.UpdateStatus(nc.client, pod); err != nil {
			if apierrors.IsNotFound(err) {
				continue // the pod is gone: nothing left to mark
			}
			errs = append(errs, err)
		}
		nc.recorder.Event(pod, "Warning", "NodeNotReady", "Node is not ready")
	}
	return aggregate(errs)
}
