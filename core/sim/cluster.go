// Package sim wires the control plane into one deterministic discrete-event
// simulation: the API server, shared informers, the controllers, the
// scheduler and a kubelet per node, all driven by Advance on a virtual clock.
package sim

import (
	"fmt"
	"time"

	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/network"
	"kubeplay/core/scheduler"
)

// DefaultStart is the virtual time a cluster starts at unless told otherwise.
var DefaultStart = time.Date(2026, time.November, 22, 11, 29, 0, 0, time.UTC)

// Options configure a new cluster.
type Options struct {
	Seed  uint64
	Start time.Time
	// Bare starts no controllers, scheduler or kubelets: a package's tests
	// add, with AddWorker, only the components they are about.
	Bare bool
}

// Cluster is a whole simulated cluster. It is a state machine: nothing
// happens between calls, and the same calls give the same state.
type Cluster struct {
	Clock     *clock.Clock
	Rand      *clock.Rand
	API       *apiserver.Server
	Informers *client.Factory
	workers   []controller.Worker
	kubelets  map[string]*kubeletHandle
	agents    *nodeAgents
	scheduler *scheduler.Scheduler
	network   *network.Network
	// proxies are `kubectl proxy` listeners on the terminal's loopback.
	proxies map[int]*apiserver.Handler
	// loads are the learner's simulated CPU loads (kubeplay load).
	loads map[string]loadTarget
	// loadedPods are the pods (namespace/name → node) the loads last reached.
	loadedPods map[string]string
	seed       uint64
	err        error // a failed restore
	// maxItemsPerInstant bounds work at one virtual instant, so a pair of
	// components that keep re-queueing each other cannot hang the driver.
	maxItemsPerInstant int
	// Stalled is set when that bound was hit; the trace reports it.
	Stalled string
	// Yield, when set, is called between two pieces of work while the
	// cluster settles (after each timer and each work item) and after
	// each committed write, inside a work item that writes many objects
	// (a ReplicaSet creating a batch of pods), so a host with one thread
	// (the page) can let its user interface run. It must not drive the
	// cluster; the order of the work does not depend on it.
	Yield func()
}

// New returns an empty cluster: no namespaces, no nodes, control plane idle.
func New(opts Options) *Cluster {
	return newCluster(opts, nil)
}

// newCluster builds the API server, lets preload fill it (a restore), then
// starts the components, which list what is there as they start.
func newCluster(opts Options, preload func(*Cluster) error) *Cluster {
	start := opts.Start
	if start.IsZero() {
		start = DefaultStart
	}
	clk := clock.New(start)
	rnd := clock.NewRand(opts.Seed)
	srv := apiserver.New(clk, rnd)
	c := &Cluster{
		Clock:              clk,
		Rand:               rnd,
		API:                srv,
		seed:               opts.Seed,
		maxItemsPerInstant: 1_000_000,
		kubelets:           map[string]*kubeletHandle{},
	}
	srv.Pods = c
	srv.Metrics = c
	srv.Observe(func(*apiserver.Resource, apiserver.WatchEvent) { c.yield() })
	if preload != nil {
		if c.err = preload(c); c.err != nil {
			return c
		}
	}
	c.Informers = client.NewFactory(client.NewLocal(srv, "informers"))
	c.network = network.New(c.ControllerContext(), clusterBackend{c})
	if !opts.Bare {
		c.startControllers()
		c.startNodeAgents()
		c.startLeaderLeases()
	}
	return c
}

// Scheduler is the cluster's kube-scheduler (nil in a bare cluster), for
// the page's "why did this pod land here".
func (c *Cluster) Scheduler() *scheduler.Scheduler { return c.scheduler }

// Client returns an API client whose writes are tagged as component's.
func (c *Cluster) Client(component string) client.Interface {
	return client.NewLocal(c.API, component)
}

// ControllerContext is what controllers are built from.
func (c *Cluster) ControllerContext() *controller.Context {
	return &controller.Context{Client: c.Client, Informers: c.Informers, Clock: c.Clock, Rand: c.Rand}
}

// AddWorker registers a component with queued work; workers run in the
// order they were added.
func (c *Cluster) AddWorker(w controller.Worker) { c.workers = append(c.workers, w) }

// Now is the cluster's virtual time.
func (c *Cluster) Now() time.Time { return c.Clock.Now() }

// Settle runs all work due now: timers due at this instant and every
// queued item, round-robin over the workers in registration order, until
// nothing is left.
func (c *Cluster) Settle() {
	items := 0
	for {
		did := false
		for c.Clock.FireNext() {
			did = true
			c.yield()
		}
		for _, w := range c.workers {
			for w.ProcessNextWorkItem() {
				did = true
				items++
				if items >= c.maxItemsPerInstant {
					c.Stalled = fmt.Sprintf("more than %d work items at %s; last worker %s", items, c.Clock.Now().Format(time.RFC3339), w.Name())
					return
				}
				c.yield()
			}
		}
		if !did {
			return
		}
	}
}

func (c *Cluster) yield() {
	if c.Yield != nil {
		c.Yield()
	}
}

// Advance lets d of virtual time pass: every timer due in that span fires
// at its own instant, and the cluster settles after each.
func (c *Cluster) Advance(d time.Duration) {
	target := c.Clock.Now().Add(d)
	for {
		c.Settle()
		next, ok := c.Clock.Next()
		if !ok || next.After(target) {
			break
		}
		c.Clock.Step(next)
	}
	c.Clock.Step(target)
	c.Settle()
}
