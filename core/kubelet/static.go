package kubelet

import (
	"fmt"
	"hash/fnv"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// Static pods come from files on the node (kubeadm's control plane). The
// kubelet runs them whatever the API says, and mirrors each into the API
// as <name>-<node> so kubectl can see it; a deleted mirror pod comes back.

// ensureMirrorPods creates the mirror pods that are missing.
func (k *Kubelet) ensureMirrorPods() {
	node := k.node()
	if node == nil {
		return
	}
	for _, sp := range k.opts.StaticPods {
		name := sp.Name + "-" + k.nodeName
		if _, err := client.Get[*api.Pod](k.client, sp.Namespace, name); err == nil {
			continue
		}
		p := sp.DeepCopy()
		p.Name = name
		p.Spec.NodeName = k.nodeName
		// The kubelet lets its static pods tolerate every NoExecute taint.
		p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute})
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%s/%s", k.nodeName, sp.Namespace, sp.Name)
		sum := h.Sum64()
		hash := fmt.Sprintf("%016x%016x", sum, sum*0x9e3779b97f4a7c15)
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations["kubernetes.io/config.hash"] = hash
		p.Annotations["kubernetes.io/config.mirror"] = hash
		p.Annotations["kubernetes.io/config.seen"] = k.clock.Now().UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
		p.Annotations["kubernetes.io/config.source"] = "file"
		ctrl := true
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: &ctrl}}
		_, _ = client.Create(k.client, p)
	}
}
