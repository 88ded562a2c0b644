package sim

import (
	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
)

// NewDefault returns a cluster as `kind create cluster` leaves one, minus
// nodes: the four system namespaces, the kubernetes Service at 10.96.0.1
// and a default StorageClass "standard". Nodes come from Node manifests
// or AddDefaultNode.
func NewDefault(opts Options) *Cluster {
	c := New(opts)
	c.bootstrap()
	if !opts.Bare {
		c.installAddons()
	}
	c.Settle()
	return c
}

func (c *Cluster) bootstrap() {
	cl := c.Client("kube-apiserver")
	for _, ns := range []string{"default", "kube-node-lease", "kube-public", "kube-system"} {
		mustCreate(cl, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns, Labels: map[string]string{"kubernetes.io/metadata.name": ns}}})
	}
	mustCreate(cl, &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "kubernetes", Namespace: "default", Labels: map[string]string{"component": "apiserver", "provider": "kubernetes"}},
		Spec: api.ServiceSpec{
			ClusterIP: "10.96.0.1",
			Ports:     []api.ServicePort{{Name: "https", Protocol: "TCP", Port: 443, TargetPort: intstr.FromInt(6443)}},
		},
	})
	mustCreate(cl, &api.StorageClass{
		ObjectMeta:  api.ObjectMeta{Name: "standard", Annotations: map[string]string{"storageclass.kubernetes.io/is-default-class": "true"}},
		Provisioner: "rancher.io/local-path",
		ReclaimPolicy: func() *api.PersistentVolumeReclaimPolicy {
			p := api.PersistentVolumeReclaimDelete
			return &p
		}(),
		VolumeBindingMode: func() *api.VolumeBindingMode {
			m := api.VolumeBindingWaitForFirstConsumer
			return &m
		}(),
	})
}

// DefaultNodeName is the node a session that defines none runs on.
const DefaultNodeName = "node01"

// AddDefaultNode adds the single node a session gets when it defines none.
func (c *Cluster) AddDefaultNode() {
	mustCreate(c.Client("kubectl"), &api.Node{ObjectMeta: api.ObjectMeta{Name: DefaultNodeName, Labels: map[string]string{
		"kubernetes.io/hostname": DefaultNodeName, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
	}}})
	c.Settle()
}

// mustCreate writes a bootstrap object; the objects are fixed, so a
// rejection is a bug in this file, not a user's mistake.
func mustCreate[T api.Object](cl client.Interface, obj T) {
	if _, err := client.Create(cl, obj); err != nil {
		panic("sim: bootstrap object rejected: " + err.Error())
	}
}
