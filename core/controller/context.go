// Package controller holds what every controller of kube-controller-manager
// shares: how the simulation drives it and what it is given to work with.
// Each controller lives in its own folder below, cut by behaviour as upstream.
package controller

import (
	"kubeplay/core/client"
	"kubeplay/core/clock"
)

// Context is what a controller is built from: the API, shared informers,
// the virtual clock and the seeded random source.
type Context struct {
	// Client returns a client whose writes are tagged with the component name.
	Client    func(component string) client.Interface
	Informers *client.Factory
	Clock     *clock.Clock
	Rand      *clock.Rand
}

// Worker is a component with queued work. The simulation calls
// ProcessNextWorkItem until every worker's queue is empty, then advances
// the clock to the next timer: watch → workqueue → sync → write.
type Worker interface {
	// Name is the component and loop, "deployment-controller/syncDeployment".
	Name() string
	// ProcessNextWorkItem handles one ready item and reports whether there was one.
	ProcessNextWorkItem() bool
}
