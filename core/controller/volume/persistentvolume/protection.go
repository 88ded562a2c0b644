package persistentvolume

import (
	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/controller"
)

// Finalizers the API server puts on every claim and volume
// (StorageObjectInUseProtection), removed here once nothing uses them.
const (
	PVCProtectionFinalizer = "kubernetes.io/pvc-protection"
	PVProtectionFinalizer  = "kubernetes.io/pv-protection"
)

// ProtectionController is the pvc-protection and pv-protection
// controllers: a claim being deleted stays until no pod uses it; a volume
// being deleted stays while a claim is bound to it.
type ProtectionController struct {
	client client.Interface
	pvcInf *client.Informer
	pvInf  *client.Informer
	podInf *client.Informer
	queue  *workqueue.Queue[string] // "pvc/ns/name" or "pv/name"
}

// NewProtectionController builds the controller on ctx's informers.
func NewProtectionController(ctx *controller.Context) *ProtectionController {
	c := &ProtectionController{
		client: ctx.Client("pvc-protection-controller"),
		pvcInf: client.InformerFor[*api.PersistentVolumeClaim](ctx.Informers),
		pvInf:  client.InformerFor[*api.PersistentVolume](ctx.Informers),
		podInf: client.InformerFor[*api.Pod](ctx.Informers),
		queue:  workqueue.New[string]("pvcprotection", ctx.Clock, nil),
	}
	c.pvcInf.AddHandler(client.Handler{OnAdd: c.claimChanged, OnUpdate: func(_, o api.Object) { c.claimChanged(o) }})
	c.pvInf.AddHandler(client.Handler{OnAdd: c.volumeChanged, OnUpdate: func(_, o api.Object) { c.volumeChanged(o) }})
	onPod := func(o api.Object) {
		for _, v := range o.(*api.Pod).Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				c.queue.Add("pvc/" + o.GetObjectMeta().Namespace + "/" + v.PersistentVolumeClaim.ClaimName)
			}
		}
	}
	c.podInf.AddHandler(client.Handler{OnUpdate: func(_, o api.Object) { onPod(o) }, OnDelete: onPod})
	return c
}

func (c *ProtectionController) claimChanged(o api.Object) {
	if o.GetObjectMeta().DeletionTimestamp != nil {
		c.queue.Add("pvc/" + client.KeyOf(o))
	}
}

func (c *ProtectionController) volumeChanged(o api.Object) {
	if o.GetObjectMeta().DeletionTimestamp != nil {
		c.queue.Add("pv/" + o.GetObjectMeta().Name)
	}
}

// Name implements controller.Worker.
func (c *ProtectionController) Name() string { return "pvc-protection-controller/processPVC" }

// ProcessNextWorkItem implements controller.Worker.
func (c *ProtectionController) ProcessNextWorkItem() bool {
	key, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(key)
	var err error
	if len(key) > 4 && key[:4] == "pvc/" {
		err = c.processPVC(key[4:])
	} else {
		err = c.processPV(key[3:])
	}
	if err != nil {
		c.queue.AddRateLimited(key)
	} else {
		c.queue.Forget(key)
	}
	return true
}

func (c *ProtectionController) processPVC(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := c.pvcInf.Get(ns, name)
	if !ok || o.GetObjectMeta().DeletionTimestamp == nil {
		return nil
	}
	for _, po := range c.podInf.List(ns) {
		p := po.(*api.Pod)
		if api.IsPodTerminal(p) {
			continue
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == name {
				return nil // still in use: the claim stays Terminating
			}
		}
	}
	return c.dropFinalizer(o, PVCProtectionFinalizer)
}

func (c *ProtectionController) processPV(name string) error {
	o, ok := c.pvInf.Get("", name)
	if !ok || o.GetObjectMeta().DeletionTimestamp == nil {
		return nil
	}
	pv := o.(*api.PersistentVolume)
	if ref := pv.Spec.ClaimRef; ref != nil && pv.Status.Phase == api.VolumeBound {
		if co, ok := c.pvcInf.Get(ref.Namespace, ref.Name); ok && co.GetObjectMeta().UID == ref.UID {
			return nil
		}
	}
	return c.dropFinalizer(o, PVProtectionFinalizer)
}

func (c *ProtectionController) dropFinalizer(o api.Object, finalizer string) error {
	m := o.GetObjectMeta()
	var kept []string
	found := false
	for _, f := range m.Finalizers {
		if f == finalizer {
			found = true
			continue
		}
		kept = append(kept, f)
	}
	if !found {
		return nil
	}
	switch obj := o.(type) {
	case *api.PersistentVolumeClaim:
		cp := obj.DeepCopy()
		cp.Finalizers = kept
		_, err := client.Update(c.client, cp)
		return err
	case *api.PersistentVolume:
		cp := obj.DeepCopy()
		cp.Finalizers = kept
		_, err := client.Update(c.client, cp)
		return err
	}
	return nil
}
