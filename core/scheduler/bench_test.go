package scheduler_test

import (
	"fmt"
	"testing"

	"kubeplay/core/controller/replicaset"
)

// BenchmarkSchedule1000 schedules a 1000-replica ReplicaSet over 20 nodes.
func BenchmarkSchedule1000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := newCluster(b, 1)
		c.c.AddWorker(replicaset.NewReplicaSetController(c.c.ControllerContext()))
		for j := 0; j < 20; j++ {
			c.addNode(node(fmt.Sprintf("n%02d", j), nil))
		}
		c.workload("web", 1000, nil)
		if got := c.placement("web"); got[""] != 0 {
			b.Fatalf("%d pending", got[""])
		}
	}
}
