package framework

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// probe is a Filter and Score plugin that counts the nodes it is asked
// about; localProbe is the same, node-local.
type probe struct {
	name   string
	asked  int
	reject map[string]bool
	score  int64
}

func (p *probe) Name() string { return p.name }

func (p *probe) Filter(_ *CycleState, _ *api.Pod, ni *NodeInfo) *Status {
	p.asked++
	if p.reject[ni.NodeName()] {
		return NewStatus(Unschedulable, p.name+" says no")
	}
	return nil
}

func (p *probe) Score(_ *CycleState, _ *api.Pod, ni *NodeInfo) (int64, *Status) {
	p.asked++
	return p.score + int64(len(ni.Pods)), nil
}

type localProbe struct{ probe }

func (*localProbe) NodeLocal() {}

func slottedNode(name string, slot int) *NodeInfo {
	ni := NewNodeInfo()
	ni.SetNode(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
	ni.SetSlot(slot)
	return ni
}

// cycle runs filtering and scoring over nodes for a pod of the given
// shape, as the scheduler does, and returns the feasible nodes' totals.
func cycle(t *testing.T, f *Framework, shape int64, nodes []*NodeInfo) map[string]int64 {
	t.Helper()
	state := NewCycleState()
	state.SetPodShape(shape)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	if _, st, _ := f.RunPreFilterPlugins(state, pod); !st.IsSuccess() {
		t.Fatal(st.AsError())
	}
	var feasible []*NodeInfo
	for _, ni := range nodes {
		if f.RunFilterPlugins(state, pod, ni).IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	scores, st := f.RunScorePlugins(state, pod, feasible)
	if !st.IsSuccess() {
		t.Fatal(st.AsError())
	}
	out := map[string]int64{}
	for i, name := range scores.Names {
		out[name] = scores.Totals[i]
	}
	return out
}

// A pod shaped like the one before it is filtered and scored by the
// node-local plugins only on nodes that changed since; other plugins,
// rejections and pods of other shapes are asked every time, and the
// answers are those a fresh cycle gives.
func TestNodeLocalAnswersKeptPerShapeAndGeneration(t *testing.T) {
	local := &localProbe{probe{name: "Local", reject: map[string]bool{"c": true}, score: 10}}
	other := &probe{name: "Other", score: 20}
	f := NewFramework([]Plugin{local, other}, nil)
	nodes := []*NodeInfo{slottedNode("a", 1), slottedNode("b", 2), slottedNode("c", 3)}
	want := map[string]int64{"a": 30, "b": 30}

	steps := []struct {
		name       string
		shape      int64
		change     func()
		localAsked int
		otherAsked int
		want       map[string]int64
	}{
		// Filter: a, b, c (c rejected); score: a, b.
		{name: "first pod", shape: 1, localAsked: 5, otherAsked: 4, want: want},
		// Only the rejection is asked again.
		{name: "same shape", shape: 1, localAsked: 1, otherAsked: 4, want: want},
		{name: "node a changed", shape: 1, change: func() { nodes[0].AddPod(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "x", Namespace: "default"}}) },
			localAsked: 3, otherAsked: 4, want: map[string]int64{"a": 32, "b": 30}},
		{name: "another shape", shape: 2, localAsked: 5, otherAsked: 4, want: map[string]int64{"a": 32, "b": 30}},
		{name: "no shape keeps nothing", shape: 0, localAsked: 5, otherAsked: 4, want: map[string]int64{"a": 32, "b": 30}},
	}
	for _, step := range steps {
		if step.change != nil {
			step.change()
		}
		local.asked, other.asked = 0, 0
		got := cycle(t, f, step.shape, nodes)
		if local.asked != step.localAsked || other.asked != step.otherAsked {
			t.Errorf("%s: node-local plugin asked %d times, other %d; want %d and %d", step.name, local.asked, other.asked, step.localAsked, step.otherAsked)
		}
		if len(got) != len(step.want) {
			t.Errorf("%s: totals %v, want %v", step.name, got, step.want)
		}
		for n, v := range step.want {
			if got[n] != v {
				t.Errorf("%s: totals %v, want %v", step.name, got, step.want)
				break
			}
		}
	}

	// A NodeInfo outside the snapshot (no slot: a preemption's trial
	// copy) is always asked.
	trial := nodes[1].Clone()
	local.asked = 0
	cycle(t, f, 1, []*NodeInfo{trial})
	if local.asked != 2 {
		t.Errorf("trial node: node-local plugin asked %d times, want 2", local.asked)
	}
}

// batchProbe scores all nodes in one call (two points a pod), where
// Score gives one a pod; localBatchProbe is the same, node-local.
type batchProbe struct {
	probe
	calls int
}

func (p *batchProbe) ScoreNodes(_ *CycleState, _ *api.Pod, nodes []*NodeInfo, scores []int64) *Status {
	p.calls++
	for i, ni := range nodes {
		scores[i] = p.score + 2*int64(len(ni.Pods))
	}
	return nil
}

type localBatchProbe struct{ batchProbe }

func (*localBatchProbe) NodeLocal() {}

// A plugin that scores all nodes at once is asked once a cycle, and its
// scores land in its own column; a node-local one is asked node by node
// through Score, so that its answers can be kept per node.
func TestNodesScorerScoresAllNodesInOneCall(t *testing.T) {
	batch := &batchProbe{probe: probe{name: "Batch", score: 5}}
	local := &localBatchProbe{batchProbe{probe: probe{name: "LocalBatch", score: 7}}}
	plain := &probe{name: "Plain", score: 50}
	f := NewFramework([]Plugin{batch, local, plain}, map[string]int64{"Batch": 1, "LocalBatch": 10, "Plain": 1000})
	nodes := []*NodeInfo{slottedNode("a", 1), slottedNode("b", 2)}
	nodes[1].AddPod(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "x", Namespace: "default"}})

	got := cycle(t, f, 1, nodes)
	// a: 5 + 10*7 + 1000*50; b: 5+2 + 10*(7+1) + 1000*(50+1).
	want := map[string]int64{"a": 50075, "b": 51087}
	if got["a"] != want["a"] || got["b"] != want["b"] || len(got) != 2 {
		t.Errorf("totals %v, want %v", got, want)
	}
	// Each probe's Filter is asked once per node; Score adds to asked.
	if batch.calls != 1 || batch.asked != 2 {
		t.Errorf("batch plugin: %d calls, asked %d times; want 1 call and only its 2 filters", batch.calls, batch.asked)
	}
	if local.calls != 0 || local.asked != 4 {
		t.Errorf("node-local plugin: %d batch calls, asked %d times; want none and 4", local.calls, local.asked)
	}
}

func TestSamePodShape(t *testing.T) {
	base := func() *api.Pod {
		return &api.Pod{Spec: api.PodSpec{
			Containers: []api.Container{{Name: "web", Image: "nginx",
				Resources:    api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: resource.MustParse("100m")}},
				VolumeMounts: []api.VolumeMount{{Name: "kube-api-access-abcde", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}}}},
			Tolerations: []api.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(300)}},
		}}
	}
	cases := []struct {
		name   string
		change func(*api.Pod)
		same   bool
	}{
		{"identical", func(*api.Pod) {}, true},
		{"another replica's volume and image", func(p *api.Pod) {
			p.Name = "web-2"
			p.Spec.Containers[0].VolumeMounts[0].Name = "kube-api-access-fghij"
			p.Spec.Containers[0].Image = "nginx:1.25"
			p.Spec.Volumes = []api.Volume{{Name: "kube-api-access-fghij"}}
		}, true},
		{"cpu request", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests[api.ResourceCPU] = resource.MustParse("200m")
		}, false},
		{"host port", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
		}, false},
		{"init container", func(p *api.Pod) { p.Spec.InitContainers = []api.Container{{Name: "init"}} }, false},
		{"toleration seconds", func(p *api.Pod) { p.Spec.Tolerations[0].TolerationSeconds = api.Int64(60) }, false},
		{"node selector", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"ssd": "true"} }, false},
		{"affinity", func(p *api.Pod) { p.Spec.Affinity = &api.Affinity{} }, false},
		{"node name", func(p *api.Pod) { p.Spec.NodeName = "node1" }, false},
		{"overhead", func(p *api.Pod) { p.Spec.Overhead = api.ResourceList{api.ResourceMemory: resource.MustParse("1Mi")} }, false},
	}
	for _, c := range cases {
		b := base()
		c.change(b)
		if got := SamePodShape(base(), b); got != c.same {
			t.Errorf("%s: SamePodShape = %v, want %v", c.name, got, c.same)
		}
	}
}
