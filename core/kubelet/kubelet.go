// Package kubelet is one node's agent: it runs the pods bound to its node
// through the runtime, probes them, reports their status and the node's,
// and renews the node's lease. It is driven like every component: watch →
// workqueue → syncPod → write status.
package kubelet

import (
	"maps"
	"reflect"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/network"
	"kubeplay/core/vfs"
)

// Version is the kubelet version nodes report.
const Version = "v1.32.4"

// Options configure a kubelet.
type Options struct {
	NodeName string
	Catalog  *runtime.Catalog
	// NodeIP is the node's InternalIP.
	NodeIP string
	// PodCIDR is used when the node has no spec.podCIDR yet.
	PodCIDR string
	// Network is the cluster network: containers' curl, nslookup and
	// friends go through it (optional).
	Network *network.Network
	// Volumes holds persistent volume data across pods and nodes (optional).
	Volumes *VolumeStore
	// Preloaded images are on the node before anything is pulled.
	Preloaded []string
	// RoutedPodEvents: the host calls PodAdded/PodUpdated/PodDeleted for
	// this node's pods itself (one router for all kubelets keeps a pod
	// event's cost independent of the number of nodes).
	RoutedPodEvents bool
	// StaticPods are the pods in the node's manifest directory
	// (/etc/kubernetes/manifests), mirrored into the API.
	StaticPods []*api.Pod
}

// Kubelet is the agent of one node.
type Kubelet struct {
	opts     Options
	nodeName string
	client   client.Interface
	clock    *clock.Clock
	podInf   *client.Informer
	svcInf   *client.Informer
	svcEnv   map[serviceEnvKey]serviceEnvMemo
	plainEnv map[plainEnvKey]plainEnvMemo
	queue    *workqueue.Queue[string]
	recorder *client.Recorder
	runtime  *runtime.Runtime
	pods     map[string]*podState // by pod UID
	byKey    map[string]string    // namespace/name → UID of the pod we run
	// statusWrite is the pod the kubelet is writing through the status
	// subresource, while the write (and the watch events it fires) runs.
	statusWrite *api.Pod
	images      *imageManager
	ipam        *podIPs
	backoff     *backoff
	hostFS      *vfs.FS
	volumes     *VolumeStore
	running     bool
	started     bool
	// statusTimer and leaseTimer drive the node's heartbeats.
	statusTimer, leaseTimer *clock.Timer
	lastStatusReport        time.Time
	nodeEventsSent          bool
	// systemInfo is the node's system info, worked out at the first
	// status report (it depends only on the node's name).
	systemInfo *api.NodeSystemInfo
	adopting   bool
}

// nodeStatusKey is the queue key of the node's own status work.
const nodeStatusKey = "\x00node"

// NewKubelet builds the kubelet of one node on ctx's informers. It starts
// stopped; Start begins heartbeats and pod work.
func NewKubelet(ctx *controller.Context, opts Options) *Kubelet {
	cl := ctx.Client("kubelet/" + opts.NodeName)
	if opts.Catalog == nil {
		opts.Catalog = runtime.NewCatalog()
	}
	if opts.Volumes == nil {
		opts.Volumes = NewVolumeStore()
	}
	k := &Kubelet{
		opts:     opts,
		nodeName: opts.NodeName,
		client:   cl,
		clock:    ctx.Clock,
		podInf:   client.InformerFor[*api.Pod](ctx.Informers),
		svcInf:   client.InformerFor[*api.Service](ctx.Informers),
		queue:    workqueue.New[string]("kubelet-"+opts.NodeName, ctx.Clock, nil),
		recorder: client.NewRecorder(cl, "kubelet", opts.NodeName),
		runtime:  runtime.New(ctx.Clock, opts.Catalog, opts.NodeName),
		pods:     map[string]*podState{},
		byKey:    map[string]string{},
		backoff:  newBackoff(10*time.Second, 300*time.Second),
		hostFS:   vfs.New(),
		volumes:  opts.Volumes,
	}
	k.hostFS.Now = ctx.Clock.Now
	k.images = newImageManager(k, opts.Preloaded)
	k.ipam = newPodIPs()
	if !opts.RoutedPodEvents {
		k.podInf.AddHandler(client.Handler{OnAdd: k.PodAdded, OnUpdate: k.PodUpdated, OnDelete: k.PodDeleted})
	}
	return k
}

// Name implements controller.Worker.
func (k *Kubelet) Name() string { return "kubelet/" + k.nodeName + "/syncPod" }

// NodeName is the node the kubelet runs.
func (k *Kubelet) NodeName() string { return k.nodeName }

// Running reports whether the kubelet is up.
func (k *Kubelet) Running() bool { return k.running }

// Start brings the kubelet up (again): it posts node status, renews the
// lease and syncs its pods.
func (k *Kubelet) Start() {
	if k.running {
		return
	}
	k.running = true
	k.queue.Add(nodeStatusKey)
	for _, o := range k.podInf.List("") {
		if o.(*api.Pod).Spec.NodeName == k.nodeName {
			k.queue.Add(client.KeyOf(o))
		}
	}
	for uid := range k.pods {
		k.queue.Add(k.pods[uid].key)
	}
}

// Stop takes the kubelet down, as a node that lost power or network: it
// posts nothing more. Its containers keep running (on a partitioned node
// they would), but nobody hears of them until Start.
func (k *Kubelet) Stop() {
	if !k.running {
		return
	}
	k.running = false
	if k.statusTimer != nil {
		k.clock.Stop(k.statusTimer)
		k.statusTimer = nil
	}
	if k.leaseTimer != nil {
		k.clock.Stop(k.leaseTimer)
		k.leaseTimer = nil
	}
}

func (k *Kubelet) podChanged(o api.Object) {
	pod := o.(*api.Pod)
	key := client.KeyOf(pod)
	if pod.Spec.NodeName == k.nodeName {
		k.queue.Add(key)
		return
	}
	if _, ok := k.byKey[key]; ok {
		k.queue.Add(key)
	}
}

// PodAdded, PodUpdated and PodDeleted are the pod informer's events.
func (k *Kubelet) PodAdded(o api.Object) { k.podChanged(o) }

// PodUpdated handles a pod update.
func (k *Kubelet) PodUpdated(old, cur api.Object) {
	p := cur.(*api.Pod)
	if p.Spec.NodeName != k.nodeName && old.(*api.Pod).Spec.NodeName != k.nodeName {
		if _, tracked := k.byKey[client.KeyOf(p)]; !tracked {
			return // another node's pod
		}
	}
	// The kubelet's own status writes are no reason to sync again. Its
	// write stores the pod it sent, with the spec the server kept.
	if !statusOnlyChange(old.(*api.Pod), p, p == k.statusWrite) {
		k.podChanged(cur)
	}
}

// PodDeleted handles a pod's removal.
func (k *Kubelet) PodDeleted(o api.Object) { k.podChanged(o) }

// statusOnlyChange reports an update that touched only the pod's status;
// specKept says the server kept the old spec (a status subresource
// write), sparing the comparison of two specs (taken by address: by value
// each would be copied to the heap). The cheap comparisons come first: a
// binding differs in the node's name, which reflection reaches only after
// walking the volumes and containers.
func statusOnlyChange(old, cur *api.Pod, specKept bool) bool {
	return old.UID == cur.UID && old.Spec.NodeName == cur.Spec.NodeName &&
		sameTime(old.DeletionTimestamp, cur.DeletionTimestamp) &&
		sameInt64(old.DeletionGracePeriodSeconds, cur.DeletionGracePeriodSeconds) &&
		maps.Equal(old.Labels, cur.Labels) && maps.Equal(old.Annotations, cur.Annotations) &&
		(specKept || reflect.DeepEqual(&old.Spec, &cur.Spec))
}

func sameTime(a, b *api.Time) bool {
	return a == b || a != nil && b != nil && a.Equal(b.Time)
}

func sameInt64(a, b *int64) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// ProcessNextWorkItem implements controller.Worker.
func (k *Kubelet) ProcessNextWorkItem() bool {
	key, ok := k.queue.Get()
	if !ok {
		return false
	}
	defer k.queue.Done(key)
	if !k.running {
		return true // a stopped kubelet drops its work; Start requeues all
	}
	if key == nodeStatusKey {
		k.syncNodeStatus()
		return true
	}
	k.syncPod(key)
	return true
}

// enqueueAfter asks for a pod's sync after d.
func (k *Kubelet) enqueueAfter(key string, d time.Duration) {
	if d <= 0 {
		k.queue.Add(key)
		return
	}
	k.queue.AddAfter(key, d)
}

// Container returns a running container of a pod on this node, for exec,
// logs and the network.
func (k *Kubelet) Container(namespace, name, container string) (*runtime.Container, bool) {
	uid, ok := k.byKey[namespace+"/"+name]
	if !ok {
		return nil, false
	}
	ps := k.pods[uid]
	for _, cs := range ps.all() {
		if (container == "" || cs.name == container) && cs.current != nil {
			return cs.current, true
		}
	}
	return nil, false
}

// Close kills every container (the cluster is being thrown away).
func (k *Kubelet) Close() {
	for _, ps := range k.pods {
		for _, cs := range ps.all() {
			if cs.current != nil && !cs.current.Exited {
				cs.current.Kill()
			}
		}
	}
}

// eventf and event record events unless the kubelet is adopting pods it
// finds already running, which happened before it started.
func (k *Kubelet) eventf(obj api.Object, typ, reason, format string, args ...any) {
	if !k.adopting {
		k.recorder.Eventf(obj, typ, reason, format, args...)
	}
}

func (k *Kubelet) event(obj api.Object, typ, reason, msg string) {
	if !k.adopting {
		k.recorder.Event(obj, typ, reason, msg)
	}
}
