package sim

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

var (
	chaosSeeds = flag.Int("chaos.seeds", 6, "how many seeds TestChaos tries")
	chaosFrom  = flag.Int("chaos.from", 1, "the first of TestChaos's seeds (a long run can try seeds CI does not)")
	chaosSeed  = flag.Uint64("chaos.seed", 0, "replay only this TestChaos seed")
	chaosOps   = flag.Int("chaos.ops", 40, "operations per TestChaos seed")
)

// TestChaos applies a random mix of workloads, scaling, image updates,
// rollbacks, node stops and starts, taints, cordons, drains and deletions
// with every propagation policy; heals the nodes, lets the cluster settle
// and checks that everything converged and nothing leaked. A seed is
// replayed from its printed number with -chaos.seed.
func TestChaos(t *testing.T) {
	seeds := []uint64{}
	if *chaosSeed != 0 {
		seeds = append(seeds, *chaosSeed)
	} else {
		for s := *chaosFrom; s < *chaosFrom+*chaosSeeds; s++ {
			seeds = append(seeds, uint64(s))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			first := runChaos(t, seed, *chaosOps)
			if t.Failed() {
				t.Logf("replay with: go test ./core/sim -run TestChaos -chaos.seed=%d -chaos.ops=%d\nops:\n%s", seed, *chaosOps, strings.Join(first.ops, "\n"))
				return
			}
			second := runChaos(t, seed, *chaosOps)
			if !bytes.Equal(first.snapshot, second.snapshot) {
				t.Errorf("seed %d: the same seed replayed to a different final state (%d vs %d bytes)", seed, len(first.snapshot), len(second.snapshot))
			}
		})
	}
}

type chaosRun struct {
	ops      []string
	snapshot []byte
}

var chaosNodes = []string{"node-a1", "node-a2", "node-b1", "node-b2"}

// chaos is one run: the cluster, the learner's terminal and what the run
// did, for the checks.
type chaos struct {
	t    *testing.T
	c    *Cluster
	term *Terminal
	rnd  *rand.Rand
	ops  []string
	// live names the workloads created and not deleted, by kind.
	live map[string][]string
	next int
	// orphans are the UIDs of objects whose owner was deleted with the
	// Orphan policy: they may stay without an owner.
	orphans map[string]bool
	// lastRV is the newest resourceVersion each watch delivered.
	lastRV map[string]uint64
	// stored pairs every object the API server committed with a copy
	// taken then: stored objects are shared by the store, its history,
	// informers and versions that reuse unchanged parts of their
	// predecessor, so none may change afterwards.
	stored []storedObject
}

type storedObject struct {
	obj, copy api.Object
}

func runChaos(t *testing.T, seed uint64, ops int) chaosRun {
	c := NewDefault(Options{Seed: seed})
	defer c.Close()
	ch := &chaos{t: t, c: c, term: NewTerminal(c), rnd: rand.New(rand.NewPCG(seed, 0x6b756265)),
		live: map[string][]string{}, orphans: map[string]bool{}, lastRV: map[string]uint64{}}
	for _, kind := range []string{"Pod", "ReplicaSet", "Deployment", "StatefulSet", "DaemonSet", "Job"} {
		ch.watchResourceVersions(kind)
	}
	c.API.Observe(func(_ *apiserver.Resource, ev apiserver.WatchEvent) {
		ch.stored = append(ch.stored, storedObject{ev.Object, ev.Object.DeepCopyObject()})
	})
	for _, n := range chaosNodes {
		zone := "zone-" + n[5:6]
		ch.run(fmt.Sprintf("kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n    kubernetes.io/hostname: %s\n    topology.kubernetes.io/zone: %s\nEOF", n, n, zone))
	}
	ch.run("sleep 20")
	for i := 0; i < ops; i++ {
		ch.step()
	}
	ch.heal()
	ch.check()
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return chaosRun{ops: ch.ops, snapshot: snap}
}

func (ch *chaos) run(cmd string) string {
	ch.ops = append(ch.ops, "$ "+cmd)
	if *chaosSeed != 0 && testing.Verbose() {
		ch.t.Log("$ " + cmd) // a replayed seed shows where it stops
	}
	before := ch.c.API.ResourceVersion()
	out := ch.term.Run(cmd)
	if after := ch.c.API.ResourceVersion(); rvNumber(after) < rvNumber(before) {
		ch.t.Errorf("resourceVersion went back from %s to %s after %q", before, after, cmd)
	}
	return out
}

func rvNumber(rv string) uint64 {
	n, _ := strconv.ParseUint(rv, 10, 64)
	return n
}

// watchResourceVersions checks that a watch never delivers an older
// resourceVersion than one it already delivered.
func (ch *chaos) watchResourceVersions(kind string) {
	cl := ch.c.Client("chaos")
	res, _ := cl.Registry().ForGoKind(kind)
	// From the current version on: a watch without one opens with the
	// existing objects, in no particular order.
	_, err := cl.Watch(res, "", apiserver.ListOptions{ResourceVersion: ch.c.API.ResourceVersion()}, func(ev apiserver.WatchEvent) {
		rv := rvNumber(ev.Object.GetObjectMeta().ResourceVersion)
		if ev.Type != "DELETED" && rv <= ch.lastRV[kind] {
			ch.t.Errorf("%s watch: %s %s at resourceVersion %d after %d", kind, ev.Type, ev.Object.GetObjectMeta().Name, rv, ch.lastRV[kind])
		}
		ch.lastRV[kind] = max(ch.lastRV[kind], rv)
	})
	if err != nil {
		ch.t.Fatal(err)
	}
}

// expect fails the run when a command that must work did not say so.
func (ch *chaos) expect(out, want string) {
	if !strings.Contains(out, want) {
		ch.t.Errorf("%s: %q lacks %q", ch.ops[len(ch.ops)-1], out, want)
	}
}

func (ch *chaos) pick(list []string) string { return list[ch.rnd.IntN(len(list))] }

func (ch *chaos) name(prefix string) string {
	ch.next++
	return fmt.Sprintf("%s%d", prefix, ch.next)
}

var chaosImages = []string{"nginx:1.14.2", "nginx:1.16.1", "nginx:1.19"}

// step does one random thing a learner or the infrastructure might do.
func (ch *chaos) step() {
	r := ch.rnd
	switch k := r.IntN(16); {
	case k < 2 && len(ch.live["deployment"]) < 5:
		n := ch.name("web")
		ch.expect(ch.run(fmt.Sprintf("kubectl create deployment %s --image=%s --replicas=%d", n, ch.pick(chaosImages), r.IntN(6))), "created")
		ch.live["deployment"] = append(ch.live["deployment"], n)
	case k == 2 && len(ch.live["statefulset"]) < 3:
		n := ch.name("db")
		ch.expect(ch.run(fmt.Sprintf("kubectl apply -f - <<'EOF'\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: %s\nspec:\n  serviceName: %s\n  replicas: %d\n  selector:\n    matchLabels: {app: %s}\n  template:\n    metadata:\n      labels: {app: %s}\n    spec:\n      containers:\n      - name: nginx\n        image: %s\nEOF", n, n, r.IntN(4), n, n, ch.pick(chaosImages))), "created")
		ch.live["statefulset"] = append(ch.live["statefulset"], n)
	case k == 3 && len(ch.live["daemonset"]) < 2:
		n := ch.name("agent")
		ch.expect(ch.run(fmt.Sprintf("kubectl apply -f - <<'EOF'\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: %s\nspec:\n  selector:\n    matchLabels: {app: %s}\n  template:\n    metadata:\n      labels: {app: %s}\n    spec:\n      containers:\n      - name: nginx\n        image: %s\nEOF", n, n, n, ch.pick(chaosImages))), "created")
		ch.live["daemonset"] = append(ch.live["daemonset"], n)
	case k == 4 && len(ch.live["job"]) < 3:
		n := ch.name("batch")
		ch.expect(ch.run(fmt.Sprintf("kubectl create job %s --image=busybox -- sleep %d", n, 1+r.IntN(20))), "created")
		ch.live["job"] = append(ch.live["job"], n)
	case k == 5 && len(ch.live["deployment"]) > 0:
		ch.run(fmt.Sprintf("kubectl scale deployment %s --replicas=%d", ch.pick(ch.live["deployment"]), r.IntN(6)))
	case k == 6 && len(ch.live["statefulset"]) > 0:
		ch.run(fmt.Sprintf("kubectl scale statefulset %s --replicas=%d", ch.pick(ch.live["statefulset"]), r.IntN(4)))
	case k == 7 && len(ch.live["deployment"]) > 0:
		ch.run(fmt.Sprintf("kubectl set image deployment/%s nginx=%s", ch.pick(ch.live["deployment"]), ch.pick(chaosImages)))
	case k == 8 && len(ch.live["statefulset"]) > 0:
		ch.run(fmt.Sprintf("kubectl set image statefulset/%s nginx=%s", ch.pick(ch.live["statefulset"]), ch.pick(chaosImages)))
	case k == 9 && len(ch.live["deployment"]) > 0:
		ch.run("kubectl rollout undo deployment/" + ch.pick(ch.live["deployment"]))
	case k == 10:
		ch.deleteWorkload()
	case k == 11:
		n := ch.pick(chaosNodes)
		if r.IntN(2) == 0 {
			ch.run("kubeplay node stop " + n)
		} else {
			ch.run("kubeplay node start " + n)
		}
	case k == 12:
		n := ch.pick(chaosNodes)
		switch r.IntN(3) {
		case 0:
			ch.run("kubectl taint node " + n + " chaos=true:NoSchedule --overwrite")
		case 1:
			ch.run("kubectl taint node " + n + " chaos=true:NoExecute --overwrite")
		default:
			ch.run("kubectl taint node " + n + " chaos-")
		}
	case k == 13:
		n := ch.pick(chaosNodes)
		switch r.IntN(3) {
		case 0:
			ch.run("kubectl cordon " + n)
		case 1:
			ch.run("kubectl uncordon " + n)
		default:
			ch.run("kubectl drain " + n + " --ignore-daemonsets --delete-emptydir-data --force --timeout=120s")
		}
	default:
		ch.run(fmt.Sprintf("sleep %d", 1+r.IntN(90)))
	}
}

// deleteWorkload deletes a live workload with a random propagation policy,
// remembering under Orphan which dependents may stay without an owner.
func (ch *chaos) deleteWorkload() {
	var kinds []string
	for _, k := range []string{"deployment", "statefulset", "daemonset", "job"} {
		if len(ch.live[k]) > 0 {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return
	}
	kind := ch.pick(kinds)
	i := ch.rnd.IntN(len(ch.live[kind]))
	name := ch.live[kind][i]
	policy := ch.pick([]string{"background", "foreground", "orphan"})
	if policy == "orphan" {
		ch.noteOrphans(kind, name)
	}
	ch.run(fmt.Sprintf("kubectl delete %s %s --cascade=%s --timeout=60s", kind, name, policy))
	ch.live[kind] = append(ch.live[kind][:i:i], ch.live[kind][i+1:]...)
}

// noteOrphans records the objects owned by kind/name, which an Orphan
// delete leaves without an owner.
func (ch *chaos) noteOrphans(kind, name string) {
	cl := ch.c.Client("chaos")
	res, _ := cl.Registry().Resolve(kind)
	owner, err := cl.Get(res, "default", name)
	if err != nil {
		return
	}
	uid := owner.GetObjectMeta().UID
	for _, o := range ch.objects() {
		for _, ref := range o.GetObjectMeta().OwnerReferences {
			if ref.UID == uid {
				ch.orphans[o.GetObjectMeta().UID] = true
			}
		}
	}
}

// objects are every stored object of the kinds a workload owns.
func (ch *chaos) objects() []api.Object {
	cl := ch.c.Client("chaos")
	var out []api.Object
	for _, kind := range []string{"Pod", "ReplicaSet", "ControllerRevision", "Job", "PersistentVolumeClaim"} {
		res, _ := cl.Registry().ForGoKind(kind)
		objs, _ := cl.List(res, "", apiserver.ListOptions{})
		out = append(out, objs...)
	}
	return out
}

// heal brings every node back, schedulable and untainted, and waits.
func (ch *chaos) heal() {
	for _, n := range chaosNodes {
		ch.run("kubeplay node start " + n)
		ch.run("kubectl uncordon " + n)
		ch.run("kubectl taint node " + n + " chaos-")
	}
	ch.run("sleep 900")
}

func (ch *chaos) check() {
	t, cl := ch.t, ch.c.Client("chaos")
	ch.checkStoredObjects()
	nodes := map[string]bool{}
	for _, n := range client.List[*api.Node](cl, "", nil) {
		nodes[n.Name] = true
		if !api.IsNodeReady(n) {
			t.Errorf("node %s is not Ready after healing", n.Name)
		}
	}
	names, uids := map[string]bool{}, map[string]bool{}
	for _, p := range client.List[*api.Pod](cl, "", nil) {
		key := p.Namespace + "/" + p.Name
		if names[key] || uids[p.UID] {
			t.Errorf("two live pods share the name %s or the uid %s", key, p.UID)
		}
		names[key], uids[p.UID] = true, true
		if p.Spec.NodeName != "" && !nodes[p.Spec.NodeName] {
			t.Errorf("pod %s is bound to missing node %s", key, p.Spec.NodeName)
		}
		if p.DeletionTimestamp != nil {
			t.Errorf("pod %s is still terminating", key)
			if testing.Verbose() {
				t.Log(ch.term.Run("kubectl get pod " + p.Name + " -o yaml; kubectl describe pod " + p.Name + "; kubectl get nodes; kubectl get events --field-selector involvedObject.name=" + p.Name))
			}
		}
	}
	ch.checkOwners()
	for _, d := range client.List[*api.Deployment](cl, "default", nil) {
		want := *d.Spec.Replicas
		s := d.Status
		if s.ObservedGeneration < d.Generation || s.Replicas != want || s.UpdatedReplicas != want || s.AvailableReplicas != want || s.ReadyReplicas != want {
			t.Errorf("deployment %s did not converge to %d replicas: %+v", d.Name, want, s)
		}
	}
	for _, rs := range client.List[*api.ReplicaSet](cl, "default", nil) {
		want := *rs.Spec.Replicas
		if rs.Status.Replicas != want || rs.Status.ReadyReplicas != want {
			t.Errorf("replicaset %s did not converge to %d replicas: %+v", rs.Name, want, rs.Status)
		}
	}
	for _, s := range client.List[*api.StatefulSet](cl, "default", nil) {
		want := *s.Spec.Replicas
		if s.Status.ReadyReplicas != want || s.Status.UpdatedReplicas != want || s.Status.CurrentRevision != s.Status.UpdateRevision {
			t.Errorf("statefulset %s did not converge to %d updated replicas: %+v", s.Name, want, s.Status)
		}
		got := map[string]bool{}
		for _, p := range client.List[*api.Pod](cl, "default", nil) {
			if ref := p.GetControllerOf(); ref != nil && ref.UID == s.UID {
				got[p.Name] = true
			}
		}
		for i := 0; i < int(want); i++ {
			if !got[fmt.Sprintf("%s-%d", s.Name, i)] {
				t.Errorf("statefulset %s lacks ordinal %d (has %v)", s.Name, i, got)
			}
		}
		if len(got) != int(want) {
			t.Errorf("statefulset %s has pods %v, want ordinals 0..%d", s.Name, got, want-1)
		}
	}
	for _, ds := range client.List[*api.DaemonSet](cl, "default", nil) {
		s := ds.Status
		if s.DesiredNumberScheduled != int32(len(chaosNodes)) || s.NumberReady != s.DesiredNumberScheduled || s.UpdatedNumberScheduled != s.DesiredNumberScheduled {
			t.Errorf("daemonset %s did not converge to one ready pod per node: %+v", ds.Name, s)
		}
	}
	for _, j := range client.List[*api.Job](cl, "default", nil) {
		if j.Status.Succeeded != 1 || !jobComplete(j) {
			t.Errorf("job %s did not complete: %+v", j.Name, j.Status)
		}
	}
}

// checkStoredObjects fails the run for each stored object that changed
// after the API server committed it.
func (ch *chaos) checkStoredObjects() {
	for _, s := range ch.stored {
		obj := s.obj
		if !reflect.DeepEqual(obj, s.copy) {
			m := s.copy.GetObjectMeta()
			ch.t.Errorf("%s %s/%s at resourceVersion %s changed after it was stored", s.copy.GetTypeMeta().Kind, m.Namespace, m.Name, m.ResourceVersion)
		}
	}
}

func jobComplete(j *api.Job) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == api.JobComplete && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

// checkOwners: every owner reference points at a live owner with that
// uid, and a workload's dependents lack an owner only after an Orphan
// delete.
func (ch *chaos) checkOwners() {
	t, cl := ch.t, ch.c.Client("chaos")
	for _, o := range ch.objects() {
		m := o.GetObjectMeta()
		if m.Namespace != "default" {
			continue
		}
		if _, isJob := o.(*api.Job); isJob && len(m.OwnerReferences) == 0 {
			continue // the run's own Jobs; only a CronJob's have owners
		}
		if len(m.OwnerReferences) == 0 {
			if !ch.orphans[m.UID] {
				t.Errorf("%T %s has no owner and was not orphaned", o, m.Name)
			}
			continue
		}
		for _, ref := range m.OwnerReferences {
			res, ok := cl.Registry().ForKind(ref.APIVersion, ref.Kind)
			if !ok {
				t.Errorf("%s: owner kind %s/%s unknown", m.Name, ref.APIVersion, ref.Kind)
				continue
			}
			ns := m.Namespace
			if !res.Namespaced {
				ns = ""
			}
			owner, err := cl.Get(res, ns, ref.Name)
			if err != nil || owner.GetObjectMeta().UID != ref.UID {
				t.Errorf("%T %s has a dangling owner %s %s", o, m.Name, ref.Kind, ref.Name)
			}
		}
	}
}

// Replaying one session many times gives the same transcript every time.
func TestSessionReplaysIdentically(t *testing.T) {
	n := 20
	if *replays > 0 {
		n = *replays
	}
	first := runSample(t, 11)
	for i := 1; i < n; i++ {
		if got := runSample(t, 11); got != first {
			t.Fatalf("replay %d differs from the first", i+1)
		}
	}
}

var replays = flag.Int("replays", 0, "how many times TestSessionReplaysIdentically replays (default 20)")
