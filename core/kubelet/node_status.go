package kubelet

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
)

const (
	// nodeStatusUpdateFrequency is how often the kubelet computes node status.
	nodeStatusUpdateFrequency = 10 * time.Second
	// nodeStatusReportFrequency is how often it writes an unchanged status.
	nodeStatusReportFrequency = 5 * time.Minute
	// leaseDuration and its renewal interval (a quarter of it).
	leaseDurationSeconds = 40
	leaseRenewInterval   = 10 * time.Second
	leaseKey             = "\x00lease"
)

// DefaultCapacity is what a node reports when its manifest gives none.
func DefaultCapacity() api.ResourceList {
	return api.ResourceList{
		"cpu":               resource.MustParse("2"),
		"ephemeral-storage": resource.MustParse("61202244Ki"),
		"hugepages-1Gi":     resource.MustParse("0"),
		"hugepages-2Mi":     resource.MustParse("0"),
		"memory":            resource.MustParse("8148236Ki"),
		"pods":              resource.MustParse("110"),
	}
}

func (k *Kubelet) node() *api.Node {
	n, err := client.Get[*api.Node](k.client, "", k.nodeName)
	if err != nil {
		return nil
	}
	return n
}

func (k *Kubelet) podCIDR() string {
	if n := k.node(); n != nil && n.Spec.PodCIDR != "" {
		return n.Spec.PodCIDR
	}
	return k.opts.PodCIDR
}

func (k *Kubelet) allocatable() api.ResourceList {
	if n := k.node(); n != nil && len(n.Status.Allocatable) > 0 {
		return n.Status.Allocatable
	}
	return DefaultCapacity()
}

// syncNodeStatus posts the node's status when it changed or is due, and
// renews the node's lease; it reschedules itself.
func (k *Kubelet) syncNodeStatus() {
	k.renewLease()
	k.updateNodeStatus()
	k.ensureMirrorPods()
	if k.statusTimer == nil {
		k.statusTimer = k.clock.AfterFunc(nodeStatusUpdateFrequency, func() {
			k.statusTimer = nil
			k.queue.Add(nodeStatusKey)
		})
	}
}

// ensureNodeLabels adds the labels a kubelet puts on its node when it
// registers (os, arch, hostname), without touching the others.
func (k *Kubelet) ensureNodeLabels(node *api.Node) *api.Node {
	if hasNodeLabels(node) {
		return node
	}
	want := map[string]string{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
		"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": k.nodeName, "kubernetes.io/os": "linux",
	}
	missing := false
	for key := range want {
		if _, ok := node.Labels[key]; !ok {
			missing = true
		}
	}
	if !missing {
		return node
	}
	n := node.DeepCopy()
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	for key, v := range want {
		if _, ok := n.Labels[key]; !ok {
			n.Labels[key] = v
		}
	}
	updated, err := client.Update(k.client, n)
	if err != nil {
		return node
	}
	return updated
}

// hasNodeLabels says whether node carries every label ensureNodeLabels adds.
func hasNodeLabels(node *api.Node) bool {
	for _, key := range [...]string{"beta.kubernetes.io/arch", "beta.kubernetes.io/os", "kubernetes.io/arch", "kubernetes.io/hostname", "kubernetes.io/os"} {
		if _, ok := node.Labels[key]; !ok {
			return false
		}
	}
	return true
}

func (k *Kubelet) updateNodeStatus() {
	node := k.node()
	if node == nil {
		return
	}
	node = k.ensureNodeLabels(node)
	now := k.clock.Now()
	images := k.images.images()
	// Most heartbeats find nothing to write: the conditions as they
	// were, the images as they were and the report not yet due. Those
	// leave before copying the node.
	due := now.Sub(k.lastStatusReport) >= nodeStatusReportFrequency
	if !due && !k.firstReport() && !nodeConditionsChange(&node.Status) && sameImages(node.Status.Images, images) {
		return
	}
	n := node.DeepCopy()
	st := &n.Status
	if len(st.Capacity) == 0 {
		st.Capacity = DefaultCapacity()
	}
	if len(st.Allocatable) == 0 {
		st.Allocatable = api.ResourceList{}
		for name, q := range st.Capacity {
			st.Allocatable[name] = q
		}
	}
	if k.opts.NodeIP != "" && len(st.Addresses) == 0 {
		st.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: k.opts.NodeIP}, {Type: "Hostname", Address: k.nodeName}}
	}
	st.DaemonEndpoints.KubeletEndpoint.Port = 10250
	if k.systemInfo == nil {
		id := hexID(k.nodeName)
		k.systemInfo = &api.NodeSystemInfo{
			MachineID: id[:32], SystemUUID: uuidOf(hexID("uuid" + k.nodeName)), BootID: uuidOf(hexID("boot" + k.nodeName)),
			KernelVersion: "6.1.0-28-cloud-amd64", OSImage: "Debian GNU/Linux 12 (bookworm)", ContainerRuntimeVersion: "containerd://1.7.24",
			KubeletVersion: Version, OperatingSystem: "linux", Architecture: "amd64",
		}
	}
	st.NodeInfo = *k.systemInfo
	st.Images = images
	changed := false
	var transitions []string
	for _, c := range kubeletNodeConditions {
		_, old := api.GetNodeCondition(st, c.typ)
		nc := api.NodeCondition{Type: c.typ, Status: c.status, Reason: c.reason, Message: c.msg,
			LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}
		if old != nil && old.Status == c.status {
			nc.LastTransitionTime = old.LastTransitionTime
		}
		if old == nil || old.Status != c.status || old.Reason != c.reason {
			changed = true
			transitions = append(transitions, c.reason)
		}
		setNodeCondition(st, nc)
	}
	if !changed && !due && sameImages(node.Status.Images, st.Images) && !k.firstReport() {
		return
	}
	if _, err := client.UpdateStatus(k.client, n); err != nil {
		return
	}
	k.lastStatusReport = now
	if !k.nodeEventsSent {
		k.nodeEventsSent = true
		ref := nodeRef(n)
		k.event(ref, "Normal", "Starting", "Starting kubelet.")
		for _, r := range []string{"NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID"} {
			k.eventf(ref, "Normal", r, "Node %s status is now: %s", k.nodeName, r)
		}
		k.event(ref, "Normal", "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods")
	}
	for _, r := range transitions {
		if r == "KubeletReady" {
			k.eventf(nodeRef(n), "Normal", "NodeReady", "Node %s status is now: NodeReady", k.nodeName)
		}
	}
}

// sameImages is reflect.DeepEqual of two image lists, at once when the node
// holds the very list the kubelet last made.
func sameImages(a, b []api.ContainerImage) bool {
	if len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// nodeCondition is a condition the kubelet reports on its node, with the
// status, reason and message it always reports.
type nodeCondition struct {
	typ, reason, msg string
	status           api.ConditionStatus
}

// kubeletNodeConditions are the conditions the kubelet posts, in order.
var kubeletNodeConditions = [...]nodeCondition{
	{api.NodeMemoryPressure, "KubeletHasSufficientMemory", "kubelet has sufficient memory available", api.ConditionFalse},
	{api.NodeDiskPressure, "KubeletHasNoDiskPressure", "kubelet has no disk pressure", api.ConditionFalse},
	{api.NodePIDPressure, "KubeletHasSufficientPID", "kubelet has sufficient PID available", api.ConditionFalse},
	{api.NodeReady, "KubeletReady", "kubelet is posting ready status", api.ConditionTrue},
}

// nodeConditionsChange says whether posting the kubelet's conditions on a
// node of status st would change one's status or reason (a transition).
func nodeConditionsChange(st *api.NodeStatus) bool {
	for _, c := range kubeletNodeConditions {
		if _, old := api.GetNodeCondition(st, c.typ); old == nil || old.Status != c.status || old.Reason != c.reason {
			return true
		}
	}
	return false
}

// firstReport is true until the kubelet has written status since it started.
func (k *Kubelet) firstReport() bool { return !k.nodeEventsSent }

// nodeRef is the node as the kubelet names it in events: its uid is the
// node's name, as upstream's kubelet does.
func nodeRef(n *api.Node) *api.Node {
	r := &api.Node{TypeMeta: n.TypeMeta, ObjectMeta: api.ObjectMeta{Name: n.Name, UID: n.Name}}
	r.Kind, r.APIVersion = "Node", "v1"
	return r
}

func setNodeCondition(st *api.NodeStatus, c api.NodeCondition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// renewLease creates or renews the node's Lease in kube-node-lease.
func (k *Kubelet) renewLease() {
	now := k.clock.Now()
	if k.leaseTimer == nil {
		k.leaseTimer = k.clock.AfterFunc(leaseRenewInterval, func() {
			k.leaseTimer = nil
			k.queue.Add(nodeStatusKey)
		})
	}
	lease, err := client.Get[*api.Lease](k.client, "kube-node-lease", k.nodeName)
	if err != nil {
		node := k.node()
		l := &api.Lease{ObjectMeta: api.ObjectMeta{Name: k.nodeName, Namespace: "kube-node-lease"}}
		if node != nil {
			l.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID}}
		}
		l.Spec.HolderIdentity = &k.nodeName
		l.Spec.LeaseDurationSeconds = int32Ptr(leaseDurationSeconds)
		l.Spec.RenewTime = api.NewMicroTimePtr(now)
		_, _ = client.Create(k.client, l)
		return
	}
	l := lease.DeepCopy()
	l.Spec.HolderIdentity = &k.nodeName
	l.Spec.LeaseDurationSeconds = int32Ptr(leaseDurationSeconds)
	l.Spec.RenewTime = api.NewMicroTimePtr(now)
	_, _ = client.Update(k.client, l)
}

func int32Ptr(v int32) *int32 { return &v }

func hexID(s string) string {
	var out string
	for i := 0; len(out) < 64; i++ {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", s, i)
		out += fmt.Sprintf("%016x", h.Sum64())
	}
	return out
}

func uuidOf(h string) string {
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
