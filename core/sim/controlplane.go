package sim

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
)

// The control plane's own traces, as kubeadm leaves them: static pods on
// control-plane nodes, and the leases of leader election and API server
// identity in kube-system.

// isControlPlane reports a node kubeadm would have made a control-plane node.
func isControlPlane(n *api.Node) bool {
	_, cp := n.Labels["node-role.kubernetes.io/control-plane"]
	_, master := n.Labels["node-role.kubernetes.io/master"]
	return cp || master
}

// kubeadmStaticPods are the manifests kubeadm v1.32 writes to
// /etc/kubernetes/manifests on a control-plane node at ip.
func kubeadmStaticPods(ip string) []*api.Pod {
	critical := int32(2000001000)
	mk := func(component, image string, cpu string, command ...string) *api.Pod {
		return &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: component, Namespace: "kube-system",
				Labels: map[string]string{"component": component, "tier": "control-plane"}},
			Spec: api.PodSpec{
				HostNetwork:       true,
				PriorityClassName: "system-node-critical",
				Priority:          &critical,
				SecurityContext:   &api.PodSecurityContext{SeccompProfile: &api.SeccompProfile{Type: "RuntimeDefault"}},
				Containers: []api.Container{{
					Name: component, Image: image, Command: command, ImagePullPolicy: api.PullIfNotPresent,
					Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse(cpu)}},
				}},
			},
		}
	}
	etcd := mk("etcd", "registry.k8s.io/etcd:3.5.16-0", "100m", "etcd",
		"--advertise-client-urls=https://"+ip+":2379", "--data-dir=/var/lib/etcd",
		"--listen-client-urls=https://127.0.0.1:2379,https://"+ip+":2379", "--name="+"etcd")
	etcd.Spec.Containers[0].Resources.Requests["memory"] = resource.MustParse("100Mi")
	return []*api.Pod{
		etcd,
		mk("kube-apiserver", "registry.k8s.io/kube-apiserver:v1.32.4", "250m", "kube-apiserver",
			"--advertise-address="+ip, "--allow-privileged=true", "--authorization-mode=Node,RBAC",
			"--enable-admission-plugins=NodeRestriction", "--etcd-servers=https://127.0.0.1:2379",
			"--secure-port=6443", "--service-cluster-ip-range=10.96.0.0/12"),
		mk("kube-controller-manager", "registry.k8s.io/kube-controller-manager:v1.32.4", "200m", "kube-controller-manager",
			"--allocate-node-cidrs=true", "--cluster-cidr=10.244.0.0/16", "--leader-elect=true",
			"--service-cluster-ip-range=10.96.0.0/12", "--use-service-account-credentials=true"),
		mk("kube-scheduler", "registry.k8s.io/kube-scheduler:v1.32.4", "100m", "kube-scheduler",
			"--bind-address=127.0.0.1", "--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true"),
	}
}

// controlPlaneImages are on a control-plane node from kubeadm's pull.
var controlPlaneImages = []string{
	"registry.k8s.io/etcd:3.5.16-0", "registry.k8s.io/kube-apiserver:v1.32.4",
	"registry.k8s.io/kube-controller-manager:v1.32.4", "registry.k8s.io/kube-scheduler:v1.32.4",
}

// leaderLeases keeps the leases of kube-controller-manager and
// kube-scheduler (renewed every 2 s, held 15 s) and the API server's
// identity lease (renewed every 10 s, held an hour).
type leaderLeases struct {
	c     *Cluster
	queue *workqueue.Queue[string]
	ids   map[string]string
}

func (c *Cluster) startLeaderLeases() {
	l := &leaderLeases{c: c, queue: workqueue.New[string]("leader-election", c.Clock, nil), ids: map[string]string{}}
	for _, name := range []string{"kube-controller-manager", "kube-scheduler", "apiserver"} {
		l.queue.Add(name)
	}
	c.AddWorker(l)
}

func (l *leaderLeases) Name() string { return "leader-election/renew" }

func (l *leaderLeases) ProcessNextWorkItem() bool {
	name, ok := l.queue.Get()
	if !ok {
		return false
	}
	defer l.queue.Done(name)
	cl := l.c.Client(name)
	now := l.c.Now()
	host := "kubeplay-control-plane"
	for _, n := range client.List[*api.Node](cl, "", nil) {
		if isControlPlane(n) {
			host = n.Name
			break
		}
	}
	leaseName, duration, every := name, int32(15), 2*time.Second
	if name == "apiserver" {
		leaseName, duration, every = apiserverIdentity(host), 3600, 10*time.Second
		if id, ok := l.ids["apiserver-name"]; ok {
			leaseName = id
		}
		l.ids["apiserver-name"] = leaseName
	}
	id, ok := l.ids[name]
	if ok && name != "apiserver" && !strings.HasPrefix(id, host+"_") {
		ok = false // the control plane now runs elsewhere: a new leader
	}
	if !ok {
		prefix := host
		if name == "apiserver" {
			prefix = leaseName
		}
		id = fmt.Sprintf("%s_%s", prefix, uuid(l.c.Rand.Uint64(), l.c.Rand.Uint64()))
		l.ids[name] = id
	}
	lease, err := client.Get[*api.Lease](cl, "kube-system", leaseName)
	if err != nil {
		lease = &api.Lease{ObjectMeta: api.ObjectMeta{Name: leaseName, Namespace: "kube-system"}}
		if name == "apiserver" {
			lease.Labels = map[string]string{"apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": host}
		}
		lease.Spec.HolderIdentity = &id
		lease.Spec.LeaseDurationSeconds = &duration
		lease.Spec.AcquireTime = api.NewMicroTimePtr(now)
		lease.Spec.RenewTime = api.NewMicroTimePtr(now)
		transitions := int32(0)
		if name != "apiserver" {
			lease.Spec.LeaseTransitions = &transitions
		}
		_, _ = client.Create(cl, lease)
	} else {
		lease = lease.DeepCopy()
		if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != id {
			lease.Spec.HolderIdentity = &id
			lease.Spec.AcquireTime = api.NewMicroTimePtr(now)
			if lease.Spec.LeaseTransitions != nil {
				n := *lease.Spec.LeaseTransitions + 1
				lease.Spec.LeaseTransitions = &n
			}
		}
		lease.Spec.RenewTime = api.NewMicroTimePtr(now)
		_, _ = client.Update(cl, lease)
	}
	l.queue.AddAfter(name, every)
	return true
}

// apiserverIdentity names the API server's identity lease as upstream
// does: a base32 digest of its host name.
func apiserverIdentity(host string) string {
	sum := sha256.Sum256([]byte(host))
	return "apiserver-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:16]))
}

func uuid(a, b uint64) string {
	h := fmt.Sprintf("%016x%016x", a, b)
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// staticPodsFor is what a node's kubelet finds in its manifest directory.
func staticPodsFor(n *api.Node, ip string) ([]*api.Pod, []string) {
	if !isControlPlane(n) {
		return nil, nil
	}
	return kubeadmStaticPods(ip), controlPlaneImages
}
