// Package persistentvolume is the PersistentVolume controller: it binds
// claims to volumes, asks the class's provisioner for new volumes (kind's
// rancher.io/local-path, which it also plays), waits for the first
// consumer when the class says so, and reclaims released volumes.
package persistentvolume

import (
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

// Annotations the controller and provisioners write.
const (
	annBindCompleted          = "pv.kubernetes.io/bind-completed"
	annBoundByController      = "pv.kubernetes.io/bound-by-controller"
	annStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	annBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	annSelectedNode           = "volume.kubernetes.io/selected-node"
	annProvisionedBy          = "pv.kubernetes.io/provisioned-by"
	localPathProvisioner      = "rancher.io/local-path"
)

// PersistentVolumeController syncs claims and volumes.
type PersistentVolumeController struct {
	client      client.Interface
	clock       *clock.Clock
	pvInf       *client.Informer
	pvcInf      *client.Informer
	classInf    *client.Informer
	podInf      *client.Informer
	claimQueue  *workqueue.Queue[string]
	volumeQueue *workqueue.Queue[string]
	recorder    *client.Recorder
	provisioner *client.Recorder
	// waiting remembers claims already told they wait for a consumer.
	waiting map[string]bool
}

// NewPersistentVolumeController builds the controller on ctx's informers.
func NewPersistentVolumeController(ctx *controller.Context) *PersistentVolumeController {
	cl := ctx.Client("persistentvolume-controller")
	c := &PersistentVolumeController{
		client:      cl,
		clock:       ctx.Clock,
		pvInf:       client.InformerFor[*api.PersistentVolume](ctx.Informers),
		pvcInf:      client.InformerFor[*api.PersistentVolumeClaim](ctx.Informers),
		classInf:    client.InformerFor[*api.StorageClass](ctx.Informers),
		podInf:      client.InformerFor[*api.Pod](ctx.Informers),
		claimQueue:  workqueue.New[string]("claims", ctx.Clock, nil),
		volumeQueue: workqueue.New[string]("volumes", ctx.Clock, nil),
		recorder:    client.NewRecorder(cl, "persistentvolume-controller", ""),
		provisioner: client.NewRecorder(ctx.Client(localPathProvisioner), localPathProvisioner+"_local-path-provisioner-7577fdbbfb-8xk2l_3ad9d3a5-0d61-4a5e-9d79-7c1d7b4b8a52", ""),
		waiting:     map[string]bool{},
	}
	enqClaim := func(o api.Object) { c.claimQueue.Add(client.KeyOf(o)) }
	c.pvcInf.AddHandler(client.Handler{OnAdd: enqClaim, OnUpdate: func(_, o api.Object) { enqClaim(o) }, OnDelete: func(o api.Object) {
		delete(c.waiting, client.KeyOf(o))
		if v := o.(*api.PersistentVolumeClaim).Spec.VolumeName; v != "" {
			c.volumeQueue.Add(v)
		}
	}})
	enqVolume := func(o api.Object) { c.volumeQueue.Add(o.GetObjectMeta().Name) }
	c.pvInf.AddHandler(client.Handler{OnAdd: func(o api.Object) {
		enqVolume(o)
		c.enqueuePendingClaims() // a new volume may match a waiting claim
	}, OnUpdate: func(_, o api.Object) { enqVolume(o) }, OnDelete: func(o api.Object) {
		if ref := o.(*api.PersistentVolume).Spec.ClaimRef; ref != nil {
			c.claimQueue.Add(ref.Namespace + "/" + ref.Name)
		}
	}})
	onPod := func(o api.Object) {
		p := o.(*api.Pod)
		if p.Spec.NodeName == "" {
			return
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				c.claimQueue.Add(p.Namespace + "/" + v.PersistentVolumeClaim.ClaimName)
			}
		}
	}
	c.podInf.AddHandler(client.Handler{OnAdd: onPod, OnUpdate: func(_, o api.Object) { onPod(o) }})
	return c
}

func (c *PersistentVolumeController) enqueuePendingClaims() {
	for _, o := range c.pvcInf.List("") {
		if o.(*api.PersistentVolumeClaim).Spec.VolumeName == "" {
			c.claimQueue.Add(client.KeyOf(o))
		}
	}
}

// Name implements controller.Worker.
func (c *PersistentVolumeController) Name() string { return "persistentvolume-controller/syncClaim" }

// ProcessNextWorkItem implements controller.Worker: claims first, then volumes.
func (c *PersistentVolumeController) ProcessNextWorkItem() bool {
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

func claimClass(claim *api.PersistentVolumeClaim) string {
	if claim.Spec.StorageClassName != nil {
		return *claim.Spec.StorageClassName
	}
	return ""
}

// syncClaim binds a pending claim, provisions for it, or keeps a bound
// claim's status in step with its volume.
func (c *PersistentVolumeController) syncClaim(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := c.pvcInf.Get(ns, name)
	if !ok {
		return nil
	}
	claim := o.(*api.PersistentVolumeClaim)
	if claim.DeletionTimestamp != nil {
		return nil
	}
	if claim.Spec.VolumeName != "" {
		vo, ok := c.pvInf.Get("", claim.Spec.VolumeName)
		if !ok {
			if claim.Status.Phase == api.ClaimBound {
				c.recorder.Event(claim, "Warning", "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!")
				return c.setClaimPhase(claim, "Lost", nil)
			}
			return nil
		}
		pv := vo.(*api.PersistentVolume)
		if pv.Spec.ClaimRef == nil {
			return c.bind(claim, pv)
		}
		return c.setClaimPhase(claim, api.ClaimBound, pv)
	}
	if pv := c.findMatchingVolume(claim); pv != nil {
		return c.bind(claim, pv)
	}
	className := claimClass(claim)
	var class *api.StorageClass
	if className != "" {
		if co, ok := c.classInf.Get("", className); ok {
			class = co.(*api.StorageClass)
		}
	}
	if class == nil {
		msg := "no persistent volumes available for this claim and no storage class is set"
		if className != "" {
			msg = fmt.Sprintf("storageclass.storage.k8s.io %q not found", className)
		}
		c.recorder.Event(claim, "Warning", "ProvisioningFailed", msg)
		if className == "" {
			c.recorder.Event(claim, "Normal", "FailedBinding", msg)
		}
		return c.setClaimPhase(claim, api.ClaimPending, nil)
	}
	node := claim.Annotations[annSelectedNode]
	if class.VolumeBindingMode != nil && *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer && node == "" {
		node = c.consumerNode(claim)
		if node == "" {
			c.recorder.Event(claim, "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding")
			return c.setClaimPhase(claim, api.ClaimPending, nil)
		}
	}
	return c.provision(claim, class, node)
}

// consumerNode is the node of a scheduled pod that uses the claim (the
// scheduler's choice, which it records as the selected-node annotation).
func (c *PersistentVolumeController) consumerNode(claim *api.PersistentVolumeClaim) string {
	var nodes []string
	for _, o := range c.podInf.List(claim.Namespace) {
		p := o.(*api.Pod)
		if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
			continue
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim.Name {
				nodes = append(nodes, p.Spec.NodeName)
			}
		}
	}
	sort.Strings(nodes)
	if len(nodes) == 0 {
		return ""
	}
	return nodes[0]
}

// findMatchingVolume picks the smallest available volume that satisfies
// the claim: same class, enough capacity, the access modes, the selector.
func (c *PersistentVolumeController) findMatchingVolume(claim *api.PersistentVolumeClaim) *api.PersistentVolume {
	want := claim.Spec.Resources.Requests["storage"]
	var sel labels.Selector
	if claim.Spec.Selector != nil {
		s, err := labels.SelectorFromLabelSelector(claim.Spec.Selector)
		if err != nil {
			return nil
		}
		sel = s
	}
	var best *api.PersistentVolume
	for _, o := range c.pvInf.List("") {
		pv := o.(*api.PersistentVolume)
		if pv.DeletionTimestamp != nil || pv.Spec.StorageClassName != claimClass(claim) {
			continue
		}
		if ref := pv.Spec.ClaimRef; ref != nil && !(ref.Namespace == claim.Namespace && ref.Name == claim.Name && (ref.UID == "" || ref.UID == claim.UID)) {
			continue
		}
		if pv.Status.Phase == api.VolumeReleased || pv.Status.Phase == "Failed" {
			continue
		}
		if claim.Spec.VolumeName != "" && claim.Spec.VolumeName != pv.Name {
			continue
		}
		capacity := pv.Spec.Capacity["storage"]
		if capacity.Cmp(want) < 0 || !hasModes(pv.Spec.AccessModes, claim.Spec.AccessModes) {
			continue
		}
		if sel != nil && !sel.Matches(labels.Set(pv.Labels)) {
			continue
		}
		if best == nil {
			best = pv
			continue
		}
		bc := best.Spec.Capacity["storage"]
		if capacity.Cmp(bc) < 0 || capacity.Cmp(bc) == 0 && pv.Name < best.Name {
			best = pv
		}
	}
	return best
}

func hasModes(have, want []api.PersistentVolumeAccessMode) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// bind points the volume at the claim and the claim at the volume.
func (c *PersistentVolumeController) bind(claim *api.PersistentVolumeClaim, pv *api.PersistentVolume) error {
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID != claim.UID {
		v := pv.DeepCopy()
		v.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID, APIVersion: "v1", ResourceVersion: claim.ResourceVersion}
		if v.Annotations == nil {
			v.Annotations = map[string]string{}
		}
		v.Annotations[annBoundByController] = "yes"
		updated, err := client.Update(c.client, v)
		if err != nil {
			return err
		}
		pv = updated
	}
	if err := c.setVolumePhase(pv, api.VolumeBound); err != nil {
		return err
	}
	cl := claim.DeepCopy()
	cl.Spec.VolumeName = pv.Name
	if cl.Annotations == nil {
		cl.Annotations = map[string]string{}
	}
	cl.Annotations[annBindCompleted] = "yes"
	cl.Annotations[annBoundByController] = "yes"
	updated, err := client.Update(c.client, cl)
	if err != nil {
		return err
	}
	return c.setClaimPhase(updated, api.ClaimBound, pv)
}

func (c *PersistentVolumeController) setClaimPhase(claim *api.PersistentVolumeClaim, phase api.PersistentVolumeClaimPhase, pv *api.PersistentVolume) error {
	st := claim.Status
	st.Phase = phase
	if pv != nil && phase == api.ClaimBound {
		st.AccessModes = pv.Spec.AccessModes
		st.Capacity = api.ResourceList{"storage": pv.Spec.Capacity["storage"]}
	}
	if phase == api.ClaimPending {
		st.AccessModes, st.Capacity = nil, nil
	}
	if equalClaimStatus(claim.Status, st) {
		return nil
	}
	cl := claim.DeepCopy()
	cl.Status = st
	_, err := client.UpdateStatus(c.client, cl)
	return err
}

func equalClaimStatus(a, b api.PersistentVolumeClaimStatus) bool {
	if a.Phase != b.Phase || len(a.AccessModes) != len(b.AccessModes) || len(a.Capacity) != len(b.Capacity) {
		return false
	}
	for i := range a.AccessModes {
		if a.AccessModes[i] != b.AccessModes[i] {
			return false
		}
	}
	for k, v := range a.Capacity {
		if w, ok := b.Capacity[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func (c *PersistentVolumeController) setVolumePhase(pv *api.PersistentVolume, phase api.PersistentVolumePhase) error {
	if pv.Status.Phase == phase {
		return nil
	}
	v := pv.DeepCopy()
	v.Status.Phase = phase
	now := api.NewTime(c.clock.Now())
	v.Status.LastPhaseTransitionTime = &now
	_, err := client.UpdateStatus(c.client, v)
	return err
}

// syncVolume keeps a volume's phase and reclaims it once its claim is gone.
func (c *PersistentVolumeController) syncVolume(name string) error {
	o, ok := c.pvInf.Get("", name)
	if !ok {
		return nil
	}
	pv := o.(*api.PersistentVolume)
	if pv.DeletionTimestamp != nil {
		return nil
	}
	ref := pv.Spec.ClaimRef
	if ref == nil {
		return c.setVolumePhase(pv, api.VolumeAvailable)
	}
	co, ok := c.pvcInf.Get(ref.Namespace, ref.Name)
	if ok && (ref.UID == "" || co.GetObjectMeta().UID == ref.UID) {
		claim := co.(*api.PersistentVolumeClaim)
		if claim.Spec.VolumeName == pv.Name {
			return c.setVolumePhase(pv, api.VolumeBound)
		}
		if ref.UID == "" {
			c.claimQueue.Add(ref.Namespace + "/" + ref.Name) // pre-bound to a claim by name
		}
		return nil
	}
	if ref.UID == "" {
		return c.setVolumePhase(pv, api.VolumeAvailable) // waiting for its named claim
	}
	// The claim is gone: the volume is released and reclaimed by policy.
	if err := c.setVolumePhase(pv, api.VolumeReleased); err != nil {
		return err
	}
	if by := pv.Annotations[annProvisionedBy]; by != "" && by != localPathProvisioner {
		// An external provisioner made it and deletes it (and its storage).
		return nil
	}
	if pv.Spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimDelete {
		err := client.Delete[*api.PersistentVolume](c.client, "", pv.Name, api.DeleteOptions{})
		if err == nil && pv.Annotations[annProvisionedBy] == localPathProvisioner {
			c.provisioner.Eventf(pv, "Normal", "VolumeDeleted", "Successfully deleted volume %s", pv.Name)
		}
		return err
	}
	return nil
}

// provision asks the class's provisioner for a volume; for kind's
// local-path class the controller plays the provisioner too.
func (c *PersistentVolumeController) provision(claim *api.PersistentVolumeClaim, class *api.StorageClass, node string) error {
	key := client.KeyOf(claim)
	if claim.Annotations[annStorageProvisioner] == "" {
		cl := claim.DeepCopy()
		if cl.Annotations == nil {
			cl.Annotations = map[string]string{}
		}
		cl.Annotations[annStorageProvisioner] = class.Provisioner
		cl.Annotations[annBetaStorageProvisioner] = class.Provisioner
		if node != "" {
			cl.Annotations[annSelectedNode] = node
		}
		if _, err := client.Update(c.client, cl); err != nil {
			return err
		}
		c.recorder.Eventf(claim, "Normal", "ExternalProvisioning", "Waiting for a volume to be created either by the external provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", class.Provisioner)
		c.claimQueue.Add(key)
		return nil
	}
	if class.Provisioner != localPathProvisioner {
		return nil // nobody provisions for this class
	}
	pvName := "pvc-" + claim.UID
	if _, ok := c.pvInf.Get("", pvName); ok {
		return nil
	}
	c.provisioner.Eventf(claim, "Normal", "Provisioning", "External provisioner is provisioning volume for claim %q", key)
	size := claim.Spec.Resources.Requests["storage"]
	if size.IsZero() {
		size = resource.MustParse("1Gi")
	}
	policy := api.PersistentVolumeReclaimPolicy(api.PersistentVolumeReclaimDelete)
	if class.ReclaimPolicy != nil {
		policy = *class.ReclaimPolicy
	}
	mode := api.PersistentVolumeMode(api.PersistentVolumeFilesystem)
	dirType := api.HostPathType("DirectoryOrCreate")
	pv := &api.PersistentVolume{
		ObjectMeta: api.ObjectMeta{Name: pvName, Annotations: map[string]string{
			annProvisionedBy: localPathProvisioner, "local.path.provisioner/selected-node": node,
		}},
		Spec: api.PersistentVolumeSpec{
			Capacity:                      api.ResourceList{"storage": size},
			AccessModes:                   claim.Spec.AccessModes,
			ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID, APIVersion: "v1", ResourceVersion: claim.ResourceVersion},
			PersistentVolumeReclaimPolicy: policy,
			StorageClassName:              class.Name,
			VolumeMode:                    &mode,
			PersistentVolumeSource: api.PersistentVolumeSource{HostPath: &api.HostPathVolumeSource{
				Path: fmt.Sprintf("/var/local-path-provisioner/%s_%s_%s", pvName, claim.Namespace, claim.Name), Type: &dirType}},
		},
	}
	if node != "" {
		pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: "In", Values: []string{node}}}}}}}
	}
	if _, err := client.Create(c.client, pv); err != nil {
		return err
	}
	c.provisioner.Eventf(claim, "Normal", "ProvisioningSucceeded", "Successfully provisioned volume %s", pvName)
	return nil
}
