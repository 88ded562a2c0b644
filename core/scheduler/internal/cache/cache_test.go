package cache

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/scheduler/framework/fake"
)

func zoned(name, zone string) *api.Node {
	return fake.Node(name, map[string]string{api.LabelTopologyZone: zone})
}

func names(s *Snapshot) string {
	var out []string
	for _, n := range s.List() {
		out = append(out, n.Node().Name)
	}
	return strings.Join(out, " ")
}

// Nodes are listed zone by zone in turn, each zone in the order its nodes came.
func TestSnapshotOrderInterleavesZones(t *testing.T) {
	tests := []struct {
		name  string
		nodes []*api.Node
		want  string
	}{
		{"one zone keeps add order", []*api.Node{fake.Node("c", nil), fake.Node("a", nil), fake.Node("b", nil)}, "c a b"},
		{"zones interleave", []*api.Node{zoned("a1", "a"), zoned("a2", "a"), zoned("a3", "a"), zoned("b1", "b"), zoned("c1", "c"), zoned("b2", "b")}, "a1 b1 c1 a2 b2 a3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			for _, n := range tt.nodes {
				c.AddNode(n)
			}
			s := NewSnapshot()
			c.UpdateSnapshot(s)
			if got := names(s); got != tt.want {
				t.Fatalf("%q, want %q", got, tt.want)
			}
		})
	}
}

// An assumed pod counts at once; forgetting it or confirming it keeps the
// books right; the snapshot sees a change only when it is updated, into
// the same NodeInfo its lists hold.
func TestAssumeConfirmForget(t *testing.T) {
	c := New()
	c.AddNode(fake.Node("n", nil))
	s := NewSnapshot()
	c.UpdateSnapshot(s)
	before, _ := s.Get("n")

	p := fake.On(fake.Requests(fake.Pod("p", nil), "cpu", "1"), "n")
	if err := c.AssumePod(p); err != nil {
		t.Fatal(err)
	}
	if !c.IsAssumedPod(p) {
		t.Fatal("not assumed")
	}
	if err := c.AssumePod(p); err == nil {
		t.Fatal("assumed twice")
	}
	if before.Requested.MilliCPU != 0 || len(before.Pods) != 0 {
		t.Fatal("the snapshot changed before it was updated")
	}
	c.UpdateSnapshot(s)
	ni, _ := s.Get("n")
	if ni != before || ni.Requested.MilliCPU != 1000 || len(ni.Pods) != 1 {
		t.Fatalf("after assume: %d m, %d pods, same NodeInfo %v", ni.Requested.MilliCPU, len(ni.Pods), ni == before)
	}
	if err := c.ForgetPod(p); err != nil {
		t.Fatal(err)
	}
	c.UpdateSnapshot(s)
	if ni, _ := s.Get("n"); ni.Requested.MilliCPU != 0 || len(ni.Pods) != 0 {
		t.Fatal("forget left the pod")
	}
	_ = c.AssumePod(p)
	c.AddPod(p) // the API confirms the binding
	if c.IsAssumedPod(p) {
		t.Fatal("still assumed after AddPod")
	}
	if err := c.ForgetPod(p); err == nil {
		t.Fatal("a confirmed pod was forgotten")
	}
	c.RemovePod(p)
	c.UpdateSnapshot(s)
	if ni, _ := s.Get("n"); ni.Requested.MilliCPU != 0 {
		t.Fatal("remove left the request")
	}
	c.RemoveNode(fake.Node("n", nil))
	c.UpdateSnapshot(s)
	if s.NumNodes() != 0 {
		t.Fatal("node still listed")
	}
}

// An image's spread is the snapshot's count of nodes holding it: a node
// that pulls it raises the count every holder shows, and nodes that come
// and go keep the list in the tree's order.
func TestSnapshotFollowsImagesAndMembership(t *testing.T) {
	withImage := func(n *api.Node) *api.Node {
		n.Status.Images = []api.ContainerImage{{Names: []string{"docker.io/library/nginx:1.14.2"}, SizeBytes: 100 << 20}}
		return n
	}
	spread := func(s *Snapshot, node string) int {
		ni, ok := s.Get(node)
		if !ok {
			t.Fatalf("%s not in the snapshot", node)
		}
		if st := ni.ImageStates["docker.io/library/nginx:1.14.2"]; st != nil {
			return st.NumNodes
		}
		return 0
	}
	c := New()
	c.AddNode(withImage(fake.Node("a", nil)))
	c.AddNode(fake.Node("b", nil))
	s := NewSnapshot()
	c.UpdateSnapshot(s)
	if got := spread(s, "a"); got != 1 {
		t.Fatalf("spread on a = %d, want 1", got)
	}
	c.UpdateNode(nil, withImage(fake.Node("b", nil)))
	c.UpdateSnapshot(s)
	if a, b := spread(s, "a"), spread(s, "b"); a != 2 || b != 2 {
		t.Fatalf("spread on a, b = %d, %d, want 2, 2", a, b)
	}
	c.RemoveNode(fake.Node("a", nil))
	c.AddNode(fake.Node("c", nil))
	c.UpdateSnapshot(s)
	if got := names(s); got != "b c" {
		t.Fatalf("nodes %q, want \"b c\"", got)
	}
	if got := spread(s, "b"); got != 1 {
		t.Fatalf("spread on b after a left = %d, want 1", got)
	}
	c.AddNode(withImage(fake.Node("a", nil)))
	c.UpdateSnapshot(s)
	if got := names(s); got != "b c a" {
		t.Fatalf("nodes %q, want \"b c a\"", got)
	}
}

// The snapshot tells a reader at one of its generations which nodes were
// copied since, and that a reader it no longer remembers must look at
// every node.
func TestSnapshotChangedSince(t *testing.T) {
	c := New()
	for _, n := range []string{"a", "b", "c"} {
		c.AddNode(fake.Node(n, nil))
	}
	s := NewSnapshot()
	c.UpdateSnapshot(s)
	start := s.Generation()
	changedNames := func(since int64) string {
		got, ok := s.ChangedSince(since)
		if !ok {
			return "forgotten"
		}
		var out []string
		for _, ni := range got {
			out = append(out, ni.Node().Name)
		}
		return strings.Join(out, " ")
	}
	if got := changedNames(start); got != "" {
		t.Fatalf("nothing changed yet: %q", got)
	}
	if err := c.AssumePod(fake.On(fake.Pod("p1", nil), "b")); err != nil {
		t.Fatal(err)
	}
	c.UpdateSnapshot(s)
	middle := s.Generation()
	if err := c.AssumePod(fake.On(fake.Pod("p2", nil), "c")); err != nil {
		t.Fatal(err)
	}
	c.UpdateSnapshot(s)
	if got := changedNames(start); got != "b c" {
		t.Errorf("since the start: %q, want \"b c\"", got)
	}
	if got := changedNames(middle); got != "c" {
		t.Errorf("since the middle: %q, want \"c\"", got)
	}
	if got := changedNames(start - 1); got != "forgotten" {
		t.Errorf("before the log: %q, want forgotten", got)
	}
	for i := 0; i < 1100; i++ {
		if err := c.AssumePod(fake.On(fake.Pod(fmt.Sprintf("q%d", i), nil), "a")); err != nil {
			t.Fatal(err)
		}
		c.UpdateSnapshot(s)
	}
	if got := changedNames(middle); got != "forgotten" {
		t.Errorf("after 1,100 updates the log still reaches back: %q", got)
	}
}

// A write that leaves what the node sums and the plugins read as it was (a
// status write) replaces the pod where it stands, keeping the node's
// generation; any other write takes the pod out and puts it back in.
func TestUpdatePodKeepsGenerationOnlyWhenUsageIsTheSame(t *testing.T) {
	tests := []struct {
		name     string
		change   func(p *api.Pod)
		sameGen  bool
		wantMCPU int64
	}{
		{"status", func(p *api.Pod) { p.Status.Phase = api.PodRunning; p.Status.PodIP = "10.0.0.9" }, true, 1000},
		{"labels", func(p *api.Pod) { p.Labels = map[string]string{"app": "other"} }, false, 1000},
		{"terminating", func(p *api.Pod) { p.DeletionTimestamp = &api.Time{} }, false, 1000},
		{"requests", func(p *api.Pod) { fake.Requests(p, "cpu", "2") }, false, 2000},
		{"host port", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
		}, false, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			c.AddNode(fake.Node("n", nil))
			p := fake.On(fake.Requests(fake.Pod("p", map[string]string{"app": "web"}), "cpu", "1"), "n")
			c.AddPod(p)
			s := NewSnapshot()
			c.UpdateSnapshot(s)
			before, _ := s.Get("n")
			gen := before.Generation

			cur := p.DeepCopy()
			tt.change(cur)
			c.UpdatePod(p, cur)
			c.UpdateSnapshot(s)
			ni, _ := s.Get("n")
			if got := ni.Generation == gen; got != tt.sameGen {
				t.Errorf("generation kept = %v, want %v", got, tt.sameGen)
			}
			if len(ni.Pods) != 1 || ni.Pods[0].Pod != cur {
				t.Errorf("the node does not hold the new version")
			}
			if ni.Requested.MilliCPU != tt.wantMCPU {
				t.Errorf("requested %dm, want %dm", ni.Requested.MilliCPU, tt.wantMCPU)
			}
			if len(ni.UsedPorts) != len(cur.Spec.Containers[0].Ports) {
				t.Errorf("used ports %v", ni.UsedPorts)
			}
		})
	}
}

// A node copied into the snapshot again keeps its image lookups while it
// holds the same images (a pod placed on it, its status written again) and
// has them rebuilt when its images change; either way they name the
// current spreads.
func TestSnapshotRebuildsImageStatesOnlyWhenImagesChange(t *testing.T) {
	images := func(names ...string) []api.ContainerImage {
		var out []api.ContainerImage
		for _, n := range names {
			out = append(out, api.ContainerImage{Names: []string{n}, SizeBytes: 10 << 20})
		}
		return out
	}
	tests := []struct {
		name       string
		change     func(c *Cache, n *api.Node)
		keepMap    bool
		wantImages []string
	}{
		{"a pod placed", func(c *Cache, _ *api.Node) { c.AddPod(fake.On(fake.Pod("p", nil), "n")) }, true, []string{"nginx:1.14.2", "pause:3.10"}},
		{"status written again", func(c *Cache, n *api.Node) {
			n = n.DeepCopy()
			n.Status.Images = images("nginx:1.14.2", "pause:3.10")
			c.UpdateNode(nil, n)
		}, true, []string{"nginx:1.14.2", "pause:3.10"}},
		{"an image pulled", func(c *Cache, n *api.Node) {
			n = n.DeepCopy()
			n.Status.Images = images("nginx:1.14.2", "pause:3.10", "busybox:1.36")
			c.UpdateNode(nil, n)
		}, false, []string{"busybox:1.36", "nginx:1.14.2", "pause:3.10"}},
		{"an image removed", func(c *Cache, n *api.Node) {
			n = n.DeepCopy()
			n.Status.Images = images("pause:3.10")
			c.UpdateNode(nil, n)
		}, false, []string{"pause:3.10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New()
			n := fake.Node("n", nil)
			n.Status.Images = images("nginx:1.14.2", "pause:3.10")
			c.AddNode(n)
			other := fake.Node("m", nil)
			other.Status.Images = images("nginx:1.14.2")
			c.AddNode(other)
			s := NewSnapshot()
			c.UpdateSnapshot(s)
			before, _ := s.Get("n")
			beforeMap := before.ImageStates

			tt.change(c, n)
			c.UpdateSnapshot(s)
			ni, _ := s.Get("n")
			if kept := reflect.ValueOf(ni.ImageStates).Pointer() == reflect.ValueOf(beforeMap).Pointer(); kept != tt.keepMap {
				t.Errorf("image map kept = %v, want %v", kept, tt.keepMap)
			}
			var got []string
			for name, st := range ni.ImageStates {
				if strings.Contains(name, "/") {
					continue // the normalized twin of a short name
				}
				got = append(got, name)
				want := 1
				if name == "nginx:1.14.2" {
					want = 2 // m holds it too
				}
				if st.NumNodes != want {
					t.Errorf("%s spread over %d nodes, want %d", name, st.NumNodes, want)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.wantImages) {
				t.Errorf("images %v, want %v", got, tt.wantImages)
			}
		})
	}
}
