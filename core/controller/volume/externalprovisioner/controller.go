// Package externalprovisioner plays the dynamic provisioners that run as
// pods outside kube-controller-manager, built on
// sig-storage-lib-external-provisioner's ProvisionController: it provisions
// a PersistentVolume named "pvc-<claim uid>" for each claim the PV
// controller hands to its provisioner name (the
// volume.kubernetes.io/storage-provisioner annotation), and deletes the
// volumes it made once they are Released under a Delete reclaim policy.
//
// A provisioner works only while a pod running its image is Running and
// Ready, and that pod's container environment configures it, as the real
// program reads it (nfs-subdir-external-provisioner: PROVISIONER_NAME,
// NFS_SERVER, NFS_PATH). With no such pod a claim stays Pending, waiting
// for "the external provisioner", as on a real cluster.
package externalprovisioner

import (
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// Annotations the library reads and writes.
const (
	annDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	annStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	annBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	annSelectedNode           = "volume.kubernetes.io/selected-node"
)

// ProvisionOptions is what a provisioner is asked to make.
type ProvisionOptions struct {
	Class  *api.StorageClass
	PVName string
	Claim  *api.PersistentVolumeClaim
}

// Provisioner is the program's part: make the storage for a claim and
// describe it as a volume; remove the storage of a volume.
type Provisioner interface {
	Provision(opts ProvisionOptions) (*api.PersistentVolume, error)
	Delete(pv *api.PersistentVolume, class *api.StorageClass) error
}

// program builds a provisioner from its container's environment and
// returns the provisioner name it serves ("" when it would not start).
type program func(env map[string]string) (string, Provisioner)

// programs are the provisioner images, by repository.
var programs = map[string]program{
	"registry.k8s.io/sig-storage/nfs-subdir-external-provisioner":    newNFSSubdir,
	"k8s.gcr.io/sig-storage/nfs-subdir-external-provisioner":         newNFSSubdir,
	"gcr.io/k8s-staging-sig-storage/nfs-subdir-external-provisioner": newNFSSubdir,
}

// instance is one provisioner pod's running program.
type instance struct {
	name     string // the provisioner name it serves
	pod      *api.Pod
	program  Provisioner
	recorder *client.Recorder
}

// Controller is the provision controller of every provisioner pod.
type Controller struct {
	client      client.Interface
	rand        *clock.Rand
	pvInf       *client.Informer
	pvcInf      *client.Informer
	classInf    *client.Informer
	podInf      *client.Informer
	claimQueue  *workqueue.Queue[string]
	volumeQueue *workqueue.Queue[string]
	// instances are the programs started so far, by pod uid: a pod keeps
	// its identity (and its event recorder) while it runs.
	instances map[string]*instance
}

// New builds the controller on ctx's informers.
func New(ctx *controller.Context) *Controller {
	c := &Controller{
		client:      ctx.Client("nfs-subdir-external-provisioner"),
		rand:        ctx.Rand.Split("external-provisioner"),
		pvInf:       client.InformerFor[*api.PersistentVolume](ctx.Informers),
		pvcInf:      client.InformerFor[*api.PersistentVolumeClaim](ctx.Informers),
		classInf:    client.InformerFor[*api.StorageClass](ctx.Informers),
		podInf:      client.InformerFor[*api.Pod](ctx.Informers),
		claimQueue:  workqueue.New[string]("external-provisioner-claims", ctx.Clock, nil),
		volumeQueue: workqueue.New[string]("external-provisioner-volumes", ctx.Clock, nil),
		instances:   map[string]*instance{},
	}
	enqClaim := func(o api.Object) { c.claimQueue.Add(client.KeyOf(o)) }
	c.pvcInf.AddHandler(client.Handler{OnAdd: enqClaim, OnUpdate: func(_, o api.Object) { enqClaim(o) }})
	enqVolume := func(o api.Object) { c.volumeQueue.Add(o.GetObjectMeta().Name) }
	c.pvInf.AddHandler(client.Handler{OnAdd: enqVolume, OnUpdate: func(_, o api.Object) { enqVolume(o) }})
	onPod := func(o api.Object) {
		if len(programsOf(o.(*api.Pod))) > 0 {
			c.resync()
		}
	}
	c.podInf.AddHandler(client.Handler{OnAdd: onPod, OnUpdate: func(_, o api.Object) { onPod(o) }, OnDelete: func(o api.Object) {
		delete(c.instances, string(o.GetObjectMeta().UID))
	}})
	return c
}

// resync looks at every claim and volume again: a provisioner pod came up
// (or went), which the library's own informers would see as its start.
func (c *Controller) resync() {
	for _, o := range c.pvcInf.List("") {
		if o.(*api.PersistentVolumeClaim).Spec.VolumeName == "" {
			c.claimQueue.Add(client.KeyOf(o))
		}
	}
	for _, o := range c.pvInf.List("") {
		if o.(*api.PersistentVolume).Status.Phase == api.VolumeReleased {
			c.volumeQueue.Add(o.GetObjectMeta().Name)
		}
	}
}

// Name implements controller.Worker.
func (c *Controller) Name() string { return "external-provisioner/syncClaim" }

// ProcessNextWorkItem implements controller.Worker: claims, then volumes.
func (c *Controller) ProcessNextWorkItem() bool {
	if key, ok := c.claimQueue.Get(); ok {
		defer c.claimQueue.Done(key)
		if err := c.syncClaim(key); err != nil {
			c.claimQueue.AddRateLimited(key)
		} else {
			c.claimQueue.Forget(key)
		}
		return true
	}
	if name, ok := c.volumeQueue.Get(); ok {
		defer c.volumeQueue.Done(name)
		if err := c.syncVolume(name); err != nil {
			c.volumeQueue.AddRateLimited(name)
		} else {
			c.volumeQueue.Forget(name)
		}
		return true
	}
	return false
}

// imageRepository strips the tag or digest from an image reference.
func imageRepository(image string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		image = image[:i]
	}
	return image
}

// programsOf lists the provisioner containers of a pod.
func programsOf(p *api.Pod) []api.Container {
	var out []api.Container
	for _, ct := range p.Spec.Containers {
		if _, ok := programs[imageRepository(ct.Image)]; ok {
			out = append(out, ct)
		}
	}
	return out
}

func podRunningAndReady(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning && api.IsPodReady(p)
}

// leader is the instance serving a provisioner name: of the running pods
// whose program serves it, the oldest wins the library's leader election.
func (c *Controller) leader(name string) *instance {
	if name == "" {
		return nil
	}
	var pods []*api.Pod
	for _, o := range c.podInf.List("") {
		p := o.(*api.Pod)
		if podRunningAndReady(p) && len(programsOf(p)) > 0 {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
		}
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
	for _, p := range pods {
		if in := c.instanceOf(p); in != nil && in.name == name {
			return in
		}
	}
	return nil
}

// instanceOf starts (once) the program of a provisioner pod.
func (c *Controller) instanceOf(p *api.Pod) *instance {
	if in, ok := c.instances[string(p.UID)]; ok {
		in.pod = p
		return in
	}
	for _, ct := range programsOf(p) {
		env := map[string]string{}
		for _, e := range ct.Env {
			if e.ValueFrom == nil {
				env[e.Name] = e.Value
			}
		}
		name, prog := programs[imageRepository(ct.Image)](env)
		if name == "" {
			continue // it would exit at once: its configuration is missing
		}
		// The library's identity: the pod's hostname and a uuid of this run.
		identity := fmt.Sprintf("%s_%s_%s", name, p.Name, c.uuid())
		in := &instance{name: name, pod: p, program: prog, recorder: client.NewRecorder(c.client, identity, "")}
		c.instances[string(p.UID)] = in
		return in
	}
	return nil
}

func (c *Controller) uuid() string {
	a, b := c.rand.Uint64(), c.rand.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, (b>>48)&0x3fff|0x8000, b&0xffffffffffff)
}

func claimClass(claim *api.PersistentVolumeClaim) string {
	if claim.Spec.StorageClassName != nil {
		return *claim.Spec.StorageClassName
	}
	return ""
}

// syncClaim is the library's: provision for a claim the PV controller
// handed to a running provisioner (shouldProvision, then
// provisionClaimOperation).
func (c *Controller) syncClaim(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := c.pvcInf.Get(ns, name)
	if !ok {
		return nil
	}
	claim := o.(*api.PersistentVolumeClaim)
	if claim.Spec.VolumeName != "" || claim.DeletionTimestamp != nil {
		return nil
	}
	provisioner := claim.Annotations[annStorageProvisioner]
	if provisioner == "" {
		provisioner = claim.Annotations[annBetaStorageProvisioner]
	}
	in := c.leader(provisioner)
	if in == nil {
		return nil
	}
	co, ok := c.classInf.Get("", claimClass(claim))
	if !ok {
		return nil
	}
	class := co.(*api.StorageClass)
	if class.Provisioner != in.name {
		return nil
	}
	if m := class.VolumeBindingMode; m != nil && *m == api.VolumeBindingWaitForFirstConsumer && claim.Annotations[annSelectedNode] == "" {
		return nil // the scheduler has not picked a node yet
	}
	pvName := "pvc-" + string(claim.UID)
	if _, ok := c.pvInf.Get("", pvName); ok {
		return nil // already provisioned
	}
	in.recorder.Eventf(claim, api.EventTypeNormal, "Provisioning", "External provisioner is provisioning volume for claim %q", key)
	pv, err := in.program.Provision(ProvisionOptions{Class: class, PVName: pvName, Claim: claim})
	if err != nil {
		in.recorder.Event(claim, api.EventTypeWarning, "ProvisioningFailed", err.Error())
		return nil
	}
	// The PV controller binds the claim to a volume that points at it.
	pv.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: claim.Namespace, Name: claim.Name,
		UID: claim.UID, APIVersion: "v1", ResourceVersion: claim.ResourceVersion}
	if pv.Annotations == nil {
		pv.Annotations = map[string]string{}
	}
	pv.Annotations[annDynamicallyProvisioned] = class.Provisioner
	pv.Spec.StorageClassName = class.Name
	if _, err := client.Create(c.client, pv); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	in.recorder.Eventf(claim, api.EventTypeNormal, "ProvisioningSucceeded", "Successfully provisioned volume %s", pvName)
	return nil
}

// syncVolume is the library's: a volume this provisioner made, Released
// under the Delete policy, has its storage removed, then goes from the API.
func (c *Controller) syncVolume(name string) error {
	o, ok := c.pvInf.Get("", name)
	if !ok {
		return nil
	}
	pv := o.(*api.PersistentVolume)
	in := c.leader(pv.Annotations[annDynamicallyProvisioned])
	if in == nil || pv.DeletionTimestamp != nil || pv.Status.Phase != api.VolumeReleased ||
		pv.Spec.PersistentVolumeReclaimPolicy != api.PersistentVolumeReclaimDelete {
		return nil
	}
	var class *api.StorageClass
	if co, ok := c.classInf.Get("", pv.Spec.StorageClassName); ok {
		class = co.(*api.StorageClass)
	}
	if err := in.program.Delete(pv, class); err != nil {
		in.recorder.Event(pv, api.EventTypeWarning, "VolumeFailedDelete", err.Error())
		return err
	}
	err := client.Delete[*api.PersistentVolume](c.client, "", pv.Name, api.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
