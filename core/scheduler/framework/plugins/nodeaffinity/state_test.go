package nodeaffinity_test

import "kubeplay/core/scheduler/framework"

func newState() *framework.CycleState { return framework.NewCycleState() }
