package sim

import (
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/kubelet"
	"kubeplay/core/kubelet/runtime"
)

// kubeletHandle is the simulation's grip on one node's kubelet.
type kubeletHandle struct {
	kubelet *kubelet.Kubelet
	// stopped is set by `kubeplay node stop`: the machine is down.
	stopped bool
}

// nodeAgents gives every Node a kubelet, as booting a machine would: a
// node that appears gets a kubelet started on it, one that is deleted
// loses it. Node IPs and fallback pod CIDRs follow the order nodes appear.
type nodeAgents struct {
	c       *Cluster
	queue   *workqueue.Queue[string]
	catalog *runtime.Catalog
	volumes *kubelet.VolumeStore
	order   []string // node names in the order they got a kubelet
}

func (c *Cluster) startNodeAgents() {
	a := &nodeAgents{c: c, queue: workqueue.New[string]("node-agents", c.Clock, nil), catalog: runtime.NewCatalog(), volumes: kubelet.NewVolumeStore()}
	c.agents = a
	inf := client.InformerFor[*api.Node](c.Informers)
	inf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { a.queue.Add(o.GetObjectMeta().Name) },
		OnDelete: func(o api.Object) { a.queue.Add(o.GetObjectMeta().Name) },
	})
	pods := client.InformerFor[*api.Pod](c.Informers)
	route := func(node string) *kubelet.Kubelet {
		if h, ok := c.kubelets[node]; ok && node != "" {
			return h.kubelet
		}
		return nil
	}
	pods.AddHandler(client.Handler{
		OnAdd: func(o api.Object) {
			if k := route(o.(*api.Pod).Spec.NodeName); k != nil {
				k.PodAdded(o)
			}
		},
		OnUpdate: func(old, cur api.Object) {
			on, cn := old.(*api.Pod).Spec.NodeName, cur.(*api.Pod).Spec.NodeName
			if k := route(cn); k != nil {
				k.PodUpdated(old, cur)
			}
			if on != cn {
				if k := route(on); k != nil {
					k.PodUpdated(old, cur)
				}
			}
		},
		OnDelete: func(o api.Object) {
			if k := route(o.(*api.Pod).Spec.NodeName); k != nil {
				k.PodDeleted(o)
			}
		},
	})
	c.AddWorker(a)
}

func (a *nodeAgents) Name() string { return "node-agents/boot" }

func (a *nodeAgents) ProcessNextWorkItem() bool {
	name, ok := a.queue.Get()
	if !ok {
		return false
	}
	defer a.queue.Done(name)
	c := a.c
	node, err := client.Get[*api.Node](c.Client("node-agents"), "", name)
	h, have := c.kubelets[name]
	switch {
	case err != nil && have:
		h.kubelet.Stop()
		h.kubelet.Close()
		delete(c.kubelets, name)
	case err == nil && !have:
		idx := len(a.order)
		a.order = append(a.order, name)
		ip := nodeIP(node, idx)
		static, images := staticPodsFor(node, ip)
		k := kubelet.NewKubelet(c.ControllerContext(), kubelet.Options{
			NodeName:        name,
			Catalog:         a.catalog,
			NodeIP:          ip,
			PodCIDR:         fmt.Sprintf("10.244.%d.0/24", idx%256),
			Volumes:         a.volumes,
			Preloaded:       append(append([]string(nil), preloadedImages...), images...),
			StaticPods:      static,
			Network:         c.network,
			RoutedPodEvents: true,
		})
		c.kubelets[name] = &kubeletHandle{kubelet: k}
		c.AddWorker(k)
		k.Start()
	}
	return true
}

// nodeIP is a node's InternalIP: the one its manifest gives in
// status.addresses, else the next address of kind's network.
func nodeIP(n *api.Node, idx int) string {
	for _, a := range n.Status.Addresses {
		if a.Type == "InternalIP" && a.Address != "" {
			return a.Address
		}
	}
	return fmt.Sprintf("172.18.%d.%d", (idx+2)/250, (idx+2)%250)
}

// preloadedImages are on every node from the start: kubeadm's control
// plane and the seeds' locally built app image (pulled with policy Never).
var preloadedImages = []string{
	"registry.k8s.io/pause:3.10", "registry.k8s.io/kube-proxy:v1.32.4", "registry.k8s.io/coredns/coredns:v1.11.3",
	"app:1.0.0", "app:1.0.1", "app:1.0.2", "app:1.0.3",
}

// SetNodeRunning stops or starts the kubelet of a node: a stopped kubelet
// posts no status and renews no lease, and the node lifecycle controller
// takes it from there.
func (c *Cluster) SetNodeRunning(name string, running bool) error {
	h, ok := c.kubelets[name]
	if !ok {
		if _, err := client.Get[*api.Node](c.Client("kubeplay"), "", name); err != nil {
			return fmt.Errorf("nodes %q not found", name)
		}
		return fmt.Errorf("node %q has no kubelet", name)
	}
	h.stopped = !running
	if running {
		h.kubelet.Start()
	} else {
		h.kubelet.Stop()
	}
	return nil
}

// Kubelet returns a node's kubelet.
func (c *Cluster) Kubelet(node string) (*kubelet.Kubelet, bool) {
	h, ok := c.kubelets[node]
	if !ok {
		return nil, false
	}
	return h.kubelet, true
}

// Kubelets lists the kubelets by node name.
func (c *Cluster) Kubelets() []*kubelet.Kubelet {
	names := make([]string, 0, len(c.kubelets))
	for n := range c.kubelets {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*kubelet.Kubelet, len(names))
	for i, n := range names {
		out[i] = c.kubelets[n].kubelet
	}
	return out
}

// Close kills every container of every node: call it when a cluster is
// thrown away, so no process is left waiting.
func (c *Cluster) Close() {
	for _, k := range c.Kubelets() {
		k.Close()
	}
}
