package sim

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
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
		yieldLikeAHost(c)
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
		if ready := readyPods(cl, "nginx:1.14.2"); ready != n {
			b.Fatalf("%d of %d pods ready", ready, n)
		}
		c.Close()
	}
}

func BenchmarkPods1000(b *testing.B)  { benchmarkPods(b, 1000, 10) }
func BenchmarkPods10000(b *testing.B) { benchmarkPods(b, 10000, 100) }

// benchmarkScheduled creates n pods without a node through one ReplicaSet
// and lets the scheduler place them on nodes nodes and the kubelets start
// them: the whole path a Deployment's pods take. The clock runs from the
// ReplicaSet's creation until it reports every pod Ready; the cluster's
// start and its nodes, up and running their DaemonSet pods, come before.
func benchmarkScheduled(b *testing.B, n, nodes int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := NewDefault(Options{Seed: 1})
		yieldLikeAHost(c)
		cl := c.Client("bench")
		for j := 0; j < nodes; j++ {
			mustCreate(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node%04d", j), Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node%04d", j)}}})
		}
		c.Advance(time.Minute) // the kubelets pull and start kube-proxy
		replicas := int32(n)
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}}}
		b.StartTimer()
		stopProfile := startTimedProfile(b)
		if _, err := client.Create(cl, rs); err != nil {
			b.Fatal(err)
		}
		allReady := advanceUntil(c, time.Minute, func() bool {
			cur, err := client.Get[*api.ReplicaSet](cl, "default", "web")
			return err == nil && cur.Status.ReadyReplicas == replicas
		})
		stopProfile()
		b.StopTimer()
		if ready := readyPods(cl, "nginx:1.14.2"); !allReady || ready != n {
			b.Fatalf("%d of %d pods ready", ready, n)
		}
		if i == b.N-1 {
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MB-heap")
			writeHeapProfile(b)
		}
		c.Close()
	}
}

// advanceUntil runs the cluster a virtual second at a time until done
// holds, for at most limit, and reports whether it came to hold: a
// benchmark's clock stops within a virtual second of what it waits for,
// not after a fixed stretch of the cluster idling.
func advanceUntil(c *Cluster, limit time.Duration, done func() bool) bool {
	for waited := time.Duration(0); waited < limit; waited += time.Second {
		c.Advance(time.Second)
		if done() {
			return true
		}
	}
	return false
}

// BenchmarkSchedulingCurve is the cost curve docs/PERFORMANCE.md draws
// (./build.sh perf): pods created, scheduled, started and Ready, for each
// cluster size. It reports pods per second and the heap left in use.
func BenchmarkSchedulingCurve(b *testing.B) {
	for _, pods := range []int{1000, 5000, 10000} {
		for _, nodes := range []int{100, 500, 1000} {
			b.Run(fmt.Sprintf("pods=%d/nodes=%d", pods, nodes), func(b *testing.B) {
				benchmarkScheduled(b, pods, nodes)
			})
		}
	}
}

// startTimedProfile writes the CPU profile of the timed part alone (setup
// left out, as -cpuprofile cannot) to the file KUBEPLAY_CPUPROFILE names;
// the function it returns stops it.
func startTimedProfile(b *testing.B) func() {
	path := os.Getenv("KUBEPLAY_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// writeHeapProfile writes the heap in use, with the cluster still alive,
// to the file KUBEPLAY_HEAPPROFILE names (-memprofile runs after the
// cluster is gone).
func writeHeapProfile(b *testing.B) {
	path := os.Getenv("KUBEPLAY_HEAPPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkScheduled1000On100(b *testing.B)   { benchmarkScheduled(b, 1000, 100) }
func BenchmarkScheduled10000On1000(b *testing.B) { benchmarkScheduled(b, 10000, 1000) }

// benchmarkRollout rolls a replicas-pod Deployment spread over nodes nodes
// from one image to another with the default 25%/25% strategy and stops
// when every pod runs the new image and the old ReplicaSet is empty: the
// Deployment, ReplicaSet and scheduler loops, the kubelets' pulls, starts
// and graceful stops, all through the API.
func benchmarkRollout(b *testing.B, replicas, nodes int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := NewDefault(Options{Seed: 1})
		yieldLikeAHost(c)
		cl := c.Client("bench")
		for j := 0; j < nodes; j++ {
			mustCreate(cl, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node%04d", j), Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node%04d", j)}}})
		}
		c.Settle()
		n := int32(replicas)
		d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}}}}}
		if _, err := client.Create(cl, d); err != nil {
			b.Fatal(err)
		}
		c.Advance(60 * time.Second)
		if got := readyPods(cl, "nginx:1.14.2"); got != replicas {
			b.Fatalf("before the rollout: %d of %d pods ready", got, replicas)
		}
		b.StartTimer()
		stopProfile := startTimedProfile(b)
		cur, err := client.Get[*api.Deployment](cl, "default", "web")
		if err != nil {
			b.Fatal(err)
		}
		// What Get returns is the stored object: change a copy.
		cur = cur.DeepCopy()
		cur.Spec.Template.Spec.Containers[0].Image = "nginx:1.16.1"
		if _, err := client.Update(cl, cur); err != nil {
			b.Fatal(err)
		}
		done := advanceUntil(c, 10*time.Minute, func() bool {
			return rolledOut(cl, "web", n) && len(client.List[*api.Pod](cl, "default", nil)) == replicas
		})
		stopProfile()
		b.StopTimer()
		if !done {
			b.Fatalf("the rollout did not finish in 10 minutes")
		}
		if got := readyPods(cl, "nginx:1.16.1"); got != replicas {
			b.Fatalf("after the rollout: %d of %d pods ready on the new image", got, replicas)
		}
		if got := len(client.List[*api.Pod](cl, "default", nil)); got != replicas {
			b.Fatalf("after the rollout: %d pods left, want %d", got, replicas)
		}
		// What the cluster keeps alive after the rollout: in the page,
		// a garbage collection's marking runs as one piece of the main
		// thread, about 2 ms per MB of it.
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
		b.ReportMetric(float64(ms.HeapObjects)/1e3, "live-kobjects")
		runtime.KeepAlive(c)
		c.Close()
	}
}

// rolledOut is what kubectl rollout status waits for: the Deployment's
// controller has seen its latest spec and every replica is updated and
// available, with none of an older template left.
func rolledOut(cl client.Interface, name string, replicas int32) bool {
	d, err := client.Get[*api.Deployment](cl, "default", name)
	if err != nil {
		return false
	}
	st := d.Status
	return st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == replicas && st.Replicas == replicas && st.AvailableReplicas == replicas
}

func readyPods(cl client.Interface, image string) int {
	ready := 0
	for _, p := range client.List[*api.Pod](cl, "default", nil) {
		if api.IsPodReady(p) && p.DeletionTimestamp == nil && p.Spec.Containers[0].Image == image {
			ready++
		}
	}
	return ready
}

func BenchmarkRollout500On50(b *testing.B)   { benchmarkRollout(b, 500, 50) }
func BenchmarkRollout5000On500(b *testing.B) { benchmarkRollout(b, 5000, 500) }

// yieldLikeAHost has the cluster step aside for the Go scheduler every 64
// pieces of work (a few milliseconds), as the page hands its thread back
// to the browser every frame. On one thread (wasm) the collector's
// background worker runs only then; without it a benchmark that never
// yields leaves all marking to allocation assists with the write barrier
// on, which is not how the engine runs in a page (10,000 pods under Node:
// 10.7-20.7 s from run to run without, 9.7-10.9 s with). Natively, where
// kubeplay serve does not yield either, it would wake the second core's
// idle scheduler each time (3% of the 10,000-pod benchmark), so it is
// left out. The engine itself does not do this: in the page a Gosched
// between frames' slices only lengthened them.
func yieldLikeAHost(c *Cluster) {
	if runtime.GOARCH != "wasm" {
		return
	}
	pieces := 0
	c.Yield = func() {
		if pieces++; pieces%64 == 0 {
			runtime.Gosched()
		}
	}
}
