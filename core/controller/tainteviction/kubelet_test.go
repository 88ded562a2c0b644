package tainteviction_test

import (
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/clock"
	"kubeplay/core/sim"
)

// fakeKubelet plays a node's kubelet in a bare cluster: it posts a Ready
// status when it starts and renews the node's Lease every 10 s until it
// is stopped.
type fakeKubelet struct {
	t       *testing.T
	c       *sim.Cluster
	cl      client.Interface
	name    string
	running bool
	timer   *clock.Timer
	// lastRenew is when the Lease was last renewed.
	lastRenew time.Time
}

const leaseRenewInterval = 10 * time.Second

// startNode creates a node with labels and starts its kubelet.
func startNode(t *testing.T, c *sim.Cluster, name string, labels map[string]string) *fakeKubelet {
	t.Helper()
	cl := c.Client("kubelet")
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	if _, err := client.Create(cl, node); err != nil {
		t.Fatal(err)
	}
	k := &fakeKubelet{t: t, c: c, cl: cl, name: name}
	k.start()
	return k
}

func (k *fakeKubelet) start() {
	k.running = true
	k.postStatus()
	k.tick()
}

// stop makes the kubelet fall silent, as when its machine dies.
func (k *fakeKubelet) stop() {
	k.running = false
	if k.timer != nil {
		k.c.Clock.Stop(k.timer)
	}
}

func (k *fakeKubelet) tick() {
	if !k.running {
		return
	}
	k.renewLease()
	k.timer = k.c.Clock.AfterFunc(leaseRenewInterval, k.tick)
}

func (k *fakeKubelet) postStatus() {
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

func (k *fakeKubelet) renewLease() {
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
	k.lastRenew = now
}

// runningPod creates a Running, Ready pod bound to node.
func runningPod(t *testing.T, c *sim.Cluster, name, node string, tolerations ...api.Toleration) *api.Pod {
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
