package sim

import (
	"fmt"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// benchmarkPods runs n nginx pods bound round-robin to nodes nodes and lets
// them start: API writes, informers, kubelets, image pulls, status.
func benchmarkPods(b *testing.B, n, nodes int) {
	for i := 0; i < b.N; i++ {
		c := NewDefault(Options{Seed: 1})
		cl := c.Client("bench")
		for j := 0; j < nodes; j++ {
			mustCreate(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node%03d", j)}})
		}
		c.Settle()
		for j := 0; j < n; j++ {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%05d", j), Namespace: "default", Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{NodeName: fmt.Sprintf("node%03d", j%nodes), Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}
			if _, err := client.Create(cl, p); err != nil {
				b.Fatal(err)
			}
		}
		c.Advance(30 * time.Second)
		ready := 0
		for _, p := range client.List[*api.Pod](cl, "default", nil) {
			if api.IsPodReady(p) {
				ready++
			}
		}
		if ready != n {
			b.Fatalf("%d of %d pods ready", ready, n)
		}
		c.Close()
	}
}

func BenchmarkPods1000(b *testing.B)  { benchmarkPods(b, 1000, 10) }
func BenchmarkPods10000(b *testing.B) { benchmarkPods(b, 10000, 100) }

// benchmarkScheduled creates n pods without a node through one ReplicaSet
// and lets the scheduler place them on nodes nodes and the kubelets start
// them: the whole path a Deployment's pods take.
func benchmarkScheduled(b *testing.B, n, nodes int) {
	for i := 0; i < b.N; i++ {
		c := NewDefault(Options{Seed: 1})
		cl := c.Client("bench")
		for j := 0; j < nodes; j++ {
			mustCreate(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node%04d", j), Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node%04d", j)}}})
		}
		c.Settle()
		replicas := int32(n)
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}}}
		if _, err := client.Create(cl, rs); err != nil {
			b.Fatal(err)
		}
		c.Advance(60 * time.Second)
		ready := 0
		for _, p := range client.List[*api.Pod](cl, "default", nil) {
			if api.IsPodReady(p) {
				ready++
			}
		}
		if ready != n {
			b.Fatalf("%d of %d pods ready", ready, n)
		}
		c.Close()
	}
}

func BenchmarkScheduled1000On100(b *testing.B)   { benchmarkScheduled(b, 1000, 100) }
func BenchmarkScheduled10000On1000(b *testing.B) { benchmarkScheduled(b, 10000, 1000) }
