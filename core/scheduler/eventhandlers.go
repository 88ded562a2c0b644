package scheduler

import (
	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/scheduler/framework"
)

// The handlers keep the cache and the queue in step with the informers;
// like every handler here they only record, never write to the API.
func (s *Scheduler) addAllEventHandlers() {
	s.nodeInf.AddHandler(client.Handler{
		OnAdd: func(o api.Object) { s.addNodeToCache(o.(*api.Node)) },
		OnUpdate: func(old, cur api.Object) {
			s.updateNodeInCache(old.(*api.Node), cur.(*api.Node))
		},
		OnDelete: func(o api.Object) { s.deleteNodeFromCache(o.(*api.Node)) },
	})
	s.podInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { s.onPodUpdate(nil, o.(*api.Pod)) },
		OnUpdate: func(old, cur api.Object) { s.onPodUpdate(old.(*api.Pod), cur.(*api.Pod)) },
		OnDelete: func(o api.Object) { s.onPodUpdate(o.(*api.Pod), nil) },
	})
	// Storage changes wake pods VolumeBinding turned away.
	for _, st := range []struct {
		inf *client.Informer
		res framework.EventResource
	}{{s.handle.pvcInf, framework.PersistentVolumeClaim}, {s.handle.pvInf, framework.PersistentVolume}, {s.handle.scInf, framework.StorageClass}} {
		res := st.res
		st.inf.AddHandler(client.Handler{
			OnAdd: func(o api.Object) {
				s.queue.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: res, ActionType: framework.Add}, nil, o, nil)
			},
			OnUpdate: func(old, cur api.Object) {
				s.queue.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: res, ActionType: framework.Update}, old, cur, nil)
			},
		})
	}
}

// visible: the scheduler's pod informer leaves out finished pods, so a pod
// reaching Succeeded or Failed looks deleted and frees its node's share.
func visible(p *api.Pod) bool { return p != nil && !api.IsPodTerminal(p) }

func assigned(p *api.Pod) bool { return visible(p) && p.Spec.NodeName != "" }

func (s *Scheduler) responsibleForPod(p *api.Pod) bool {
	return visible(p) && p.Spec.NodeName == "" && (p.Spec.SchedulerName == SchedulerName || p.Spec.SchedulerName == "")
}

// onPodUpdate splits pod events as upstream's two filtered handlers do:
// assigned pods feed the cache, unassigned ones the queue. A pod changing
// side (bound, or finished) leaves one and enters the other.
func (s *Scheduler) onPodUpdate(old, cur *api.Pod) {
	oldA, curA := old != nil && assigned(old), cur != nil && assigned(cur)
	switch {
	case oldA && curA:
		s.updatePodInCache(old, cur)
	case curA:
		s.addPodToCache(cur)
	case oldA:
		s.deletePodFromCache(old)
	}
	oldU, curU := old != nil && s.responsibleForPod(old), cur != nil && s.responsibleForPod(cur)
	switch {
	case oldU && curU:
		s.updatePodInSchedulingQueue(old, cur)
	case curU:
		s.queue.Add(cur)
	case oldU:
		s.queue.Delete(old)
	}
	if cur == nil && old != nil {
		delete(s.decisions, old.Namespace+"/"+old.Name)
	}
}

func (s *Scheduler) addPodToCache(p *api.Pod) {
	s.cache.AddPod(p)
	s.queue.AssignedPodAdded(p)
}

func (s *Scheduler) updatePodInCache(old, cur *api.Pod) {
	s.cache.UpdatePod(old, cur)
	for _, evt := range framework.PodSchedulingPropertiesChange(cur, old) {
		s.queue.AssignedPodUpdated(old, cur, evt)
	}
}

func (s *Scheduler) deletePodFromCache(p *api.Pod) {
	s.cache.RemovePod(p)
	s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete, p, nil, nil)
}

func (s *Scheduler) updatePodInSchedulingQueue(old, cur *api.Pod) {
	if old.ResourceVersion == cur.ResourceVersion || s.cache.IsAssumedPod(cur) {
		return
	}
	s.queue.Update(old, cur)
}

func (s *Scheduler) addNodeToCache(n *api.Node) {
	s.cache.AddNode(n)
	s.queue.MoveAllToActiveOrBackoffQueue(framework.EventNodeAdd, nil, n, nil)
}

func (s *Scheduler) updateNodeInCache(old, cur *api.Node) {
	s.cache.UpdateNode(old, cur)
	for _, evt := range framework.NodeSchedulingPropertiesChange(cur, old) {
		s.queue.MoveAllToActiveOrBackoffQueue(evt, old, cur, nil)
	}
}

func (s *Scheduler) deleteNodeFromCache(n *api.Node) {
	s.cache.RemoveNode(n)
	s.queue.MoveAllToActiveOrBackoffQueue(framework.ClusterEvent{Resource: framework.Node, ActionType: framework.Delete}, n, nil, nil)
}
