// Package nodelifecycle is the node lifecycle controller of
// kube-controller-manager: it watches each node's heartbeats (its status
// conditions and its Lease in kube-node-lease), marks a silent node's
// conditions Unknown, marks its pods not ready, and taints unhealthy nodes,
// NoSchedule at once and NoExecute at a per-zone rate, so that the taint
// eviction controller moves their pods away.
package nodelifecycle

import (
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// Defaults of kube-controller-manager v1.32's flags.
const (
	DefaultNodeMonitorPeriod           = 5 * time.Second
	DefaultNodeMonitorGracePeriod      = 50 * time.Second
	DefaultNodeStartupGracePeriod      = 60 * time.Second
	DefaultEvictionLimiterQPS          = 0.1
	DefaultSecondaryEvictionLimiterQPS = 0.01
	DefaultLargeClusterSizeThreshold   = 50
	DefaultUnhealthyZoneThreshold      = 0.55
)

// The controller's loops, run as items of one queue so that timers only
// enqueue and the worker does the work.
const (
	loopMonitor  = "monitorNodeHealth"
	loopNoExec   = "doNoExecuteTaintingPass"
	nodeLeaseNS  = "kube-node-lease"
	componentTag = "node-controller"
)

// Config holds the controller's flags.
type Config struct {
	// NodeMonitorPeriod is how often node health is checked (--node-monitor-period).
	NodeMonitorPeriod time.Duration
	// NodeMonitorGracePeriod is how long a node may stay silent before it
	// is marked Unknown (--node-monitor-grace-period).
	NodeMonitorGracePeriod time.Duration
	// NodeStartupGracePeriod is the same for a node that never posted a
	// Ready condition (--node-startup-grace-period).
	NodeStartupGracePeriod time.Duration
	// EvictionLimiterQPS is how many nodes a second get NoExecute taints
	// in a healthy zone (--node-eviction-rate).
	EvictionLimiterQPS float32
	// SecondaryEvictionLimiterQPS is that rate in a large partially
	// disrupted zone (--secondary-node-eviction-rate).
	SecondaryEvictionLimiterQPS float32
	// LargeClusterSizeThreshold is the zone size above which a partially
	// disrupted zone keeps tainting, slowly (--large-cluster-size-threshold).
	LargeClusterSizeThreshold int32
	// UnhealthyZoneThreshold is the share of not-Ready nodes that makes a
	// zone partially disrupted (--unhealthy-zone-threshold).
	UnhealthyZoneThreshold float32
}

// DefaultConfig is v1.32's defaults.
func DefaultConfig() Config {
	return Config{
		NodeMonitorPeriod:           DefaultNodeMonitorPeriod,
		NodeMonitorGracePeriod:      DefaultNodeMonitorGracePeriod,
		NodeStartupGracePeriod:      DefaultNodeStartupGracePeriod,
		EvictionLimiterQPS:          DefaultEvictionLimiterQPS,
		SecondaryEvictionLimiterQPS: DefaultSecondaryEvictionLimiterQPS,
		LargeClusterSizeThreshold:   DefaultLargeClusterSizeThreshold,
		UnhealthyZoneThreshold:      DefaultUnhealthyZoneThreshold,
	}
}

// nodeHealthData is what the controller last saw of a node, and when (on
// its own clock: kubelets' clocks are not trusted).
type nodeHealthData struct {
	probeTimestamp           time.Time
	readyTransitionTimestamp time.Time
	status                   *api.NodeStatus
	lease                    *api.Lease
}

// Controller is the node lifecycle controller.
type Controller struct {
	cfg      Config
	client   client.Interface
	clock    *clock.Clock
	recorder *client.Recorder
	nodeInf  *client.Informer
	podInf   *client.Informer
	leaseInf *client.Informer

	knownNodeSet         map[string]*api.Node
	nodeHealthMap        map[string]*nodeHealthData
	zoneNoExecuteTainter map[string]*RateLimitedTimedQueue
	zoneStates           map[string]ZoneState
	nodesToRetry         map[string]bool

	loops           *workqueue.Queue[string]
	nodeUpdateQueue *workqueue.Queue[string]
	podUpdateQueue  *workqueue.Queue[string]
}

// podNodeNameIndex indexes pods by spec.nodeName.
const podNodeNameIndex = "spec.nodeName"

// NewNodeLifecycleController builds the controller with v1.32's defaults.
func NewNodeLifecycleController(ctx *controller.Context) *Controller {
	return New(ctx, DefaultConfig())
}

// New builds the controller with cfg; zero or negative durations and rates
// fall back to the defaults, so a bad flag cannot stop the clock.
func New(ctx *controller.Context, cfg Config) *Controller {
	def := DefaultConfig()
	if cfg.NodeMonitorPeriod <= 0 {
		cfg.NodeMonitorPeriod = def.NodeMonitorPeriod
	}
	if cfg.NodeMonitorGracePeriod <= 0 {
		cfg.NodeMonitorGracePeriod = def.NodeMonitorGracePeriod
	}
	if cfg.NodeStartupGracePeriod <= 0 {
		cfg.NodeStartupGracePeriod = def.NodeStartupGracePeriod
	}
	if cfg.EvictionLimiterQPS < 0 {
		cfg.EvictionLimiterQPS = def.EvictionLimiterQPS
	}
	if cfg.SecondaryEvictionLimiterQPS < 0 {
		cfg.SecondaryEvictionLimiterQPS = def.SecondaryEvictionLimiterQPS
	}
	if cfg.UnhealthyZoneThreshold <= 0 {
		cfg.UnhealthyZoneThreshold = def.UnhealthyZoneThreshold
	}
	cl := ctx.Client(componentTag)
	nc := &Controller{
		cfg:                  cfg,
		client:               cl,
		clock:                ctx.Clock,
		recorder:             client.NewRecorder(cl, componentTag, ""),
		nodeInf:              client.InformerFor[*api.Node](ctx.Informers),
		podInf:               client.InformerFor[*api.Pod](ctx.Informers),
		leaseInf:             client.InformerFor[*api.Lease](ctx.Informers),
		knownNodeSet:         map[string]*api.Node{},
		nodeHealthMap:        map[string]*nodeHealthData{},
		zoneNoExecuteTainter: map[string]*RateLimitedTimedQueue{},
		zoneStates:           map[string]ZoneState{},
		nodesToRetry:         map[string]bool{},
		loops:                workqueue.New[string]("node_lifecycle_controller_loops", ctx.Clock, nil),
		nodeUpdateQueue:      workqueue.New[string]("node_lifecycle_controller", ctx.Clock, nil),
		podUpdateQueue:       workqueue.New[string]("node_lifecycle_controller_pods", ctx.Clock, nil),
	}
	nc.podInf.AddIndexer(podNodeNameIndex, func(o api.Object, into []string) []string {
		if p := o.(*api.Pod); p.Spec.NodeName != "" {
			return append(into, p.Spec.NodeName)
		}
		return into
	})
	nc.podInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { nc.podUpdated(nil, o.(*api.Pod)) },
		OnUpdate: func(old, cur api.Object) { nc.podUpdated(old.(*api.Pod), cur.(*api.Pod)) },
	})
	nc.nodeInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { nc.nodeUpdateQueue.Add(o.GetObjectMeta().Name) },
		OnUpdate: func(_, cur api.Object) { nc.nodeUpdateQueue.Add(cur.GetObjectMeta().Name) },
		OnDelete: func(o api.Object) { delete(nc.nodesToRetry, o.GetObjectMeta().Name) },
	})
	nc.loops.Add(loopMonitor)
	return nc
}

// Name implements controller.Worker.
func (nc *Controller) Name() string { return "node-lifecycle-controller/monitorNodeHealth" }

// ProcessNextWorkItem implements controller.Worker: the periodic loops
// first, then nodes whose NoSchedule taints may be stale, then pods bound
// to nodes that may not be ready.
func (nc *Controller) ProcessNextWorkItem() bool {
	if loop, ok := nc.loops.Get(); ok {
		defer nc.loops.Done(loop)
		switch loop {
		case loopMonitor:
			nc.monitorNodeHealth()
			nc.doNoExecuteTaintingPass()
			nc.loops.AddAfter(loopMonitor, nc.cfg.NodeMonitorPeriod)
		case loopNoExec:
			nc.doNoExecuteTaintingPass()
		}
		return true
	}
	if name, ok := nc.nodeUpdateQueue.Get(); ok {
		defer nc.nodeUpdateQueue.Done(name)
		// Failures are not retried here, as upstream: the next change of
		// the node, or the next health pass, brings it back.
		_ = nc.doNoScheduleTaintingPass(name)
		_ = nc.reconcileNodeLabels(name)
		return true
	}
	if key, ok := nc.podUpdateQueue.Get(); ok {
		defer nc.podUpdateQueue.Done(key)
		if nc.processPod(key) {
			nc.podUpdateQueue.Forget(key)
		} else {
			nc.podUpdateQueue.AddRateLimited(key)
		}
		return true
	}
	return false
}

// nodeRef is the object node events are about: the node by name and uid.
func nodeRef(name, uid string) *api.Node {
	return &api.Node{
		TypeMeta:   api.TypeMeta{Kind: "Node", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: name, UID: uid},
	}
}

// recordNodeEvent records "Node NAME event: MESSAGE" about a node.
func (nc *Controller) recordNodeEvent(name, uid, eventType, reason, event string) {
	nc.recorder.Eventf(nodeRef(name, uid), eventType, reason, "Node %s event: %s", name, event)
}

// recordNodeStatusChange records "Node NAME status is now: STATUS".
func (nc *Controller) recordNodeStatusChange(node *api.Node, newStatus string) {
	nc.recorder.Eventf(nodeRef(node.Name, node.UID), "Normal", newStatus, "Node %s status is now: %s", node.Name, newStatus)
}

// errorList joins errors into one, or nil.
type errorList []error

func (e errorList) Error() string {
	if len(e) == 1 {
		return e[0].Error()
	}
	s := "["
	for i, err := range e {
		if i > 0 {
			s += ", "
		}
		s += err.Error()
	}
	return s + "]"
}

func aggregate(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errorList(errs)
}
