// Package simtest holds test helpers that play cluster members in a bare
// sim.Cluster, so controller tests can drive a node's life by hand.
package simtest

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/clock"
	"kubeplay/core/sim"
)

// FakeKubelet plays a node's kubelet: it posts a Ready status when it
// starts and renews the node's Lease every LeaseRenewInterval until it is
// stopped. It runs no pods.
type FakeKubelet struct {
	t       *testing.T
	c       *sim.Cluster
	cl      client.Interface
	name    string
	running bool
	timer   *clock.Timer
	// LastRenew is when the Lease was last renewed.
	LastRenew time.Time
}

// LeaseRenewInterval is how often the fake kubelet renews its Lease, the
// kubelet's default.
const LeaseRenewInterval = 10 * time.Second

// StartNode creates a node with labels and starts its kubelet.
func StartNode(t *testing.T, c *sim.Cluster, name string, labels map[string]string) *FakeKubelet {
	t.Helper()
	cl := c.Client("kubelet")
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	if _, err := client.Create(cl, node); err != nil {
		t.Fatal(err)
	}
	k := &FakeKubelet{t: t, c: c, cl: cl, name: name}
	k.Start()
	return k
}

// Name is the node this kubelet plays.
func (k *FakeKubelet) Name() string { return k.name }

// Start brings the kubelet (back) to life: a Ready status, then renewals.
func (k *FakeKubelet) Start() {
	k.running = true
	k.postStatus()
	k.tick()
}

// Stop makes the kubelet fall silent, as when its machine dies.
func (k *FakeKubelet) Stop() {
	k.running = false
	if k.timer != nil {
		k.c.Clock.Stop(k.timer)
	}
}

func (k *FakeKubelet) tick() {
	if !k.running {
		return
	}
	k.renewLease()
	k.timer = k.c.Clock.AfterFunc(LeaseRenewInterval, k.tick)
}

func (k *FakeKubelet) postStatus() {
	k.t.Helper()
	node, err := client.Get[*api.Node](k.cl, "", k.name)
	if err != nil {
		k.t.Fatal(err)
	}
	node = node.DeepCopy()
	now := api.NewTime(k.c.Now())
	cond := func(t, status, reason, msg string) api.NodeCondition {
		return api.NodeCondition{Type: t, Status: status, Reason: reason, Message: msg, LastHeartbeatTime: now, LastTransitionTime: now}
	}
	node.Status.Conditions = []api.NodeCondition{
		cond(api.NodeMemoryPressure, api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		cond(api.NodeDiskPressure, api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		cond(api.NodePIDPressure, api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		cond(api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
	}
	if _, err := client.UpdateStatus(k.cl, node); err != nil {
		k.t.Fatal(err)
	}
}

func (k *FakeKubelet) renewLease() {
	k.t.Helper()
	now := k.c.Now()
	lease, err := client.Get[*api.Lease](k.cl, "kube-node-lease", k.name)
	if err != nil {
		lease = &api.Lease{ObjectMeta: api.ObjectMeta{Name: k.name, Namespace: "kube-node-lease"}}
		lease.Spec.HolderIdentity = &k.name
		lease.Spec.RenewTime = api.NewMicroTimePtr(now)
		if _, err := client.Create(k.cl, lease); err != nil {
			k.t.Fatal(err)
		}
	} else {
		lease = lease.DeepCopy()
		lease.Spec.RenewTime = api.NewMicroTimePtr(now)
		if _, err := client.Update(k.cl, lease); err != nil {
			k.t.Fatal(err)
		}
	}
	k.LastRenew = now
}

// RunningPod creates a Running, Ready pod labelled app=web, bound to node,
// as if a kubelet had started it.
func RunningPod(t *testing.T, c *sim.Cluster, name, node string, tolerations ...api.Toleration) *api.Pod {
	t.Helper()
	cl := c.Client("test")
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{
			NodeName:    node,
			Tolerations: tolerations,
			Containers:  []api.Container{{Name: "nginx", Image: "nginx"}},
		},
	}
	p, err := client.Create(cl, p)
	if err != nil {
		t.Fatal(err)
	}
	p = p.DeepCopy()
	now := api.NewTime(c.Now())
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: now},
	}
	p, err = client.UpdateStatus(cl, p)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
