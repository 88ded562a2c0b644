// Package scheduler is kube-scheduler: it watches pods that name no node,
// queues them, and in scheduleOne filters and scores the nodes with the
// default plugins, picks one, assumes the pod there and binds it; a pod
// that fits nowhere gets a FailedScheduling event and PodScheduled=False
// and waits in the queue for an event that may help.
package scheduler

import (
	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/imagelocality"
	"kubeplay/core/scheduler/framework/plugins/interpodaffinity"
	"kubeplay/core/scheduler/framework/plugins/names"
	"kubeplay/core/scheduler/framework/plugins/nodeaffinity"
	"kubeplay/core/scheduler/framework/plugins/nodename"
	"kubeplay/core/scheduler/framework/plugins/nodeports"
	"kubeplay/core/scheduler/framework/plugins/noderesources"
	"kubeplay/core/scheduler/framework/plugins/nodeunschedulable"
	"kubeplay/core/scheduler/framework/plugins/podtopologyspread"
	"kubeplay/core/scheduler/framework/plugins/tainttoleration"
	"kubeplay/core/scheduler/framework/plugins/volumebinding"
	"kubeplay/core/scheduler/internal/cache"
	"kubeplay/core/scheduler/internal/queue"
)

// SchedulerName is the profile this scheduler serves.
const SchedulerName = api.DefaultSchedulerName

// DefaultScoreWeights are v1.32's default score plugin weights.
var DefaultScoreWeights = map[string]int64{
	names.TaintToleration:                 3,
	names.NodeAffinity:                    2,
	names.PodTopologySpread:               2,
	names.InterPodAffinity:                2,
	names.NodeResourcesFit:                1,
	names.NodeResourcesBalancedAllocation: 1,
	names.ImageLocality:                   1,
}

// Scheduler is the default scheduler.
type Scheduler struct {
	client   client.Interface
	recorder *client.Recorder
	clock    *clock.Clock
	rand     *clock.Rand

	cache    *cache.Cache
	snapshot *cache.Snapshot
	queue    *queue.PriorityQueue
	fwk      *framework.Framework
	handle   *handle

	podInf  *client.Informer
	nodeInf *client.Informer

	// nextStartNodeIndex rotates where filtering starts, so every node
	// gets its turn when only part of a large cluster is scored.
	nextStartNodeIndex int
	// feasibleScratch is the last cycle's feasible node list, reused.
	feasibleScratch []*framework.NodeInfo
	// percentageOfNodesToScore: 0 is upstream's adaptive default.
	percentageOfNodesToScore int32

	decisions map[string]*Decision
	// detailed are the latest decisions that keep per-node verdicts,
	// oldest first; lastNodeNames is the node order they share, as of the
	// snapshot's list rebuild lastNodeNamesList.
	detailed          []*Decision
	lastNodeNames     []string
	lastNodeNamesList int64
	nodeIndex         map[string]int
	// slotIndex is each node's position in lastNodeNames plus one, by the
	// slot of its NodeInfo (zero: not known by slot).
	slotIndex []int32
	// lastScorePlugins are the latest cycle's score plugins, for the next
	// decisions to share; scoreBuf is keepScores' scratch buffer and
	// spareScores the kept scores of a decision that no longer keeps them.
	lastScorePlugins *scorePlugins
	scoreBuf         []byte
	spareScores      []byte
	// nominated are the pods nominated to each node, gathered once a cycle.
	nominated map[string][]*api.Pod
	// shapedPod is the latest pod scheduled and podShape its shape's
	// number (framework.CycleState.SetPodShape): unchanged while pods
	// shaped alike follow one another.
	shapedPod *api.Pod
	podShape  int64
	// unshaped gives every pod a shape of its own (tests compare).
	unshaped bool
}

// New builds the scheduler on ctx's informers.
func New(ctx *controller.Context) *Scheduler {
	cl := ctx.Client("default-scheduler")
	s := &Scheduler{
		client:    cl,
		recorder:  client.NewRecorder(cl, "default-scheduler", ""),
		clock:     ctx.Clock,
		rand:      ctx.Rand,
		cache:     cache.New(),
		snapshot:  cache.NewSnapshot(),
		podInf:    client.InformerFor[*api.Pod](ctx.Informers),
		nodeInf:   client.InformerFor[*api.Node](ctx.Informers),
		decisions: map[string]*Decision{},
	}
	s.handle = &handle{
		lister: s.snapshot,
		nsInf:  client.InformerFor[*api.Namespace](ctx.Informers),
		svcInf: client.InformerFor[*api.Service](ctx.Informers),
		rsInf:  client.InformerFor[*api.ReplicaSet](ctx.Informers),
		ssInf:  client.InformerFor[*api.StatefulSet](ctx.Informers),
		pvcInf: client.InformerFor[*api.PersistentVolumeClaim](ctx.Informers),
		pvInf:  client.InformerFor[*api.PersistentVolume](ctx.Informers),
		scInf:  client.InformerFor[*api.StorageClass](ctx.Informers),
	}
	s.fwk = framework.NewFramework(defaultPlugins(s.handle), DefaultScoreWeights)
	s.queue = queue.New(ctx.Clock, s.fwk.EventsToRegister(), s.handle.NamespaceLabels)
	s.addAllEventHandlers()
	return s
}

// defaultPlugins are v1.32's default profile, in its MultiPoint order
// (which is the order plugins run at every extension point).
func defaultPlugins(h *handle) []framework.Plugin {
	return []framework.Plugin{
		nodeunschedulable.New(),
		nodename.New(),
		tainttoleration.New(),
		nodeaffinity.New(),
		nodeports.New(),
		noderesources.NewFit(),
		volumebinding.New(h),
		podtopologyspread.New(h),
		interpodaffinity.New(h),
		noderesources.NewBalancedAllocation(),
		imagelocality.New(h),
	}
}

// Name implements controller.Worker.
func (s *Scheduler) Name() string { return "default-scheduler/scheduleOne" }

// ProcessNextWorkItem schedules the pod at the head of activeQ.
func (s *Scheduler) ProcessNextWorkItem() bool {
	p, ok := s.queue.Pop()
	if !ok {
		return false
	}
	s.scheduleOne(p)
	return true
}

// QueueOf reports which internal queue holds a pending pod: "Active",
// "Backoff", "Unschedulable", or "" when it is not queued.
func (s *Scheduler) QueueOf(namespace, name string) string { return s.queue.Where(namespace, name) }
