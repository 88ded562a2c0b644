// Package nodeipam is the node IPAM controller with the range allocator:
// it gives each node a pod CIDR (spec.podCIDR and spec.podCIDRs), a /24
// block of the cluster CIDR, as kube-controller-manager does when started
// with --allocate-node-cidrs.
package nodeipam

import (
	"fmt"
	"net/netip"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// Defaults of kind's kube-controller-manager.
var (
	DefaultClusterCIDR  = netip.MustParsePrefix("10.244.0.0/16")
	DefaultServiceCIDR  = netip.MustParsePrefix("10.96.0.0/12")
	DefaultNodeMaskSize = 24
)

// cidrUpdateRetries is how many times a failed write is tried at once.
const cidrUpdateRetries = 3

// RangeAllocator assigns pod CIDRs to nodes.
type RangeAllocator struct {
	client   client.Interface
	recorder *client.Recorder
	nodeInf  *client.Informer
	queue    *workqueue.Queue[string]
	cidrs    *CIDRSet
	// held is what each node holds in cidrs, to release it when the node goes.
	held map[string]netip.Prefix
}

// NewRangeAllocator builds the allocator over kind's cluster CIDR.
func NewRangeAllocator(ctx *controller.Context) *RangeAllocator {
	r, err := NewRangeAllocatorFor(ctx, DefaultClusterCIDR, DefaultServiceCIDR, DefaultNodeMaskSize)
	if err != nil {
		panic("nodeipam: default CIDRs rejected: " + err.Error()) // constants, never user input
	}
	return r
}

// NewRangeAllocatorFor builds the allocator over a cluster CIDR, keeping
// out of the service CIDR where the two overlap.
func NewRangeAllocatorFor(ctx *controller.Context, cluster, service netip.Prefix, nodeMaskSize int) (*RangeAllocator, error) {
	set, err := NewCIDRSet(cluster, nodeMaskSize)
	if err != nil {
		return nil, err
	}
	cl := ctx.Client("node-ipam-controller")
	r := &RangeAllocator{
		client:   cl,
		recorder: client.NewRecorder(cl, "cidrAllocator", ""),
		nodeInf:  client.InformerFor[*api.Node](ctx.Informers),
		queue:    workqueue.New[string]("node-ipam", ctx.Clock, workqueue.DefaultControllerRateLimiter[string]()),
		cidrs:    set,
		held:     map[string]netip.Prefix{},
	}
	if service.IsValid() && service.Overlaps(set.cluster) {
		_ = set.Occupy(service)
	}
	// Blocks nodes already hold are taken before anything new is handed out.
	for _, o := range r.nodeInf.List("") {
		r.occupy(o.(*api.Node))
	}
	r.nodeInf.AddHandler(client.Handler{
		OnAdd:    r.enqueue,
		OnUpdate: func(_, cur api.Object) { r.enqueue(cur) },
		OnDelete: r.enqueue,
	})
	return r, nil
}

func (r *RangeAllocator) enqueue(o api.Object) { r.queue.Add(o.GetObjectMeta().Name) }

// Name implements controller.Worker.
func (r *RangeAllocator) Name() string { return "node-ipam-controller/updateCIDRsAllocation" }

// ProcessNextWorkItem implements controller.Worker.
func (r *RangeAllocator) ProcessNextWorkItem() bool {
	name, ok := r.queue.Get()
	if !ok {
		return false
	}
	defer r.queue.Done(name)
	if err := r.sync(name); err != nil {
		r.queue.AddRateLimited(name)
		return true
	}
	r.queue.Forget(name)
	return true
}

// occupy records the block a node already has.
func (r *RangeAllocator) occupy(n *api.Node) {
	if len(n.Spec.PodCIDRs) == 0 {
		return
	}
	p, err := netip.ParsePrefix(n.Spec.PodCIDRs[0])
	if err != nil || r.cidrs.Occupy(p) != nil {
		return
	}
	r.held[n.Name] = p.Masked()
}

// sync gives a node without a pod CIDR the next free block, notes the
// block of a node that has one, and releases the block of a node that is gone.
func (r *RangeAllocator) sync(name string) error {
	o, ok := r.nodeInf.Get("", name)
	if !ok {
		if p, had := r.held[name]; had {
			_ = r.cidrs.Release(p)
			delete(r.held, name)
		}
		return nil
	}
	node := o.(*api.Node)
	if len(node.Spec.PodCIDRs) > 0 {
		if _, had := r.held[name]; !had {
			r.occupy(node)
		}
		return nil
	}
	if p, had := r.held[name]; had {
		// Ours from an earlier write that has not shown up yet: write it again.
		return r.updateCIDRsAllocation(node, p)
	}
	p, err := r.cidrs.AllocateNext()
	if err != nil {
		recordNodeStatusChange(r.recorder, node, "CIDRNotAvailable")
		return fmt.Errorf("failed to allocate cidr from cluster cidr at idx:0: %v", err)
	}
	r.held[name] = p
	return r.updateCIDRsAllocation(node, p)
}

// updateCIDRsAllocation writes the block into the node's spec.
func (r *RangeAllocator) updateCIDRsAllocation(node *api.Node, p netip.Prefix) error {
	patch := fmt.Sprintf(`{"spec":{"podCIDR":%q,"podCIDRs":[%q]}}`, p.String(), p.String())
	var err error
	for i := 0; i < cidrUpdateRetries; i++ {
		if _, err = r.client.Patch(client.ResourceFor[*api.Node](r.client), "", node.Name, apiserver.StrategicMergePatchType, []byte(patch), apiserver.PatchOptions{}); err == nil {
			return nil
		}
	}
	recordNodeStatusChange(r.recorder, node, "CIDRAssignmentFailed")
	_ = r.cidrs.Release(p)
	delete(r.held, node.Name)
	return err
}

// recordNodeStatusChange writes the node controller's status-change event.
func recordNodeStatusChange(rec *client.Recorder, node *api.Node, status string) {
	rec.Eventf(node, api.EventTypeNormal, status, "Node %s status is now: %s", node.Name, status)
}
