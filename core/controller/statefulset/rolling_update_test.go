package statefulset_test

import (
	"fmt"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/client"
	"kubeplay/core/sim"
)

// readyAll runs every pod that is not yet running, until none is left:
// the kubelet of a healthy cluster.
func readyAll(t *testing.T, c *sim.Cluster, cl client.Interface) {
	t.Helper()
	for i := 0; i < 50; i++ {
		reap(t, c, cl)
		done := true
		for _, p := range pods(cl) {
			if p.Status.Phase != api.PodRunning && p.DeletionTimestamp == nil {
				runPod(t, c, cl, p.Name)
				done = false
			}
		}
		if done {
			return
		}
	}
	t.Fatal("pods never settled")
}

func setImage(t *testing.T, cl client.Interface, name, image string) {
	t.Helper()
	update(t, cl, name, func(s *api.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = image })
}

func images(cl client.Interface) string {
	var s []string
	for _, p := range pods(cl) {
		s = append(s, p.Name+"="+p.Spec.Containers[0].Image)
	}
	return strings.Join(s, " ")
}

// A rolling update replaces pods from the highest ordinal down, one at a
// time, each after its successor is Ready again.
func TestRollingUpdateInReverseOrdinalOrder(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 3, false))
	c.Settle()
	readyAll(t, c, cl)
	setImage(t, cl, "web", "nginx:1.26")
	c.Settle()
	var order []string
	for i := 0; i < 10; i++ {
		var terminating []string
		for _, p := range pods(cl) {
			if p.DeletionTimestamp != nil {
				terminating = append(terminating, p.Name)
			}
		}
		if len(terminating) == 0 {
			break
		}
		if len(terminating) != 1 {
			t.Fatalf("more than one pod replaced at once: %v", terminating)
		}
		order = append(order, terminating[0])
		reap(t, c, cl)
		runPod(t, c, cl, terminating[0])
	}
	if got := strings.Join(order, " "); got != "web-2 web-1 web-0" {
		t.Fatalf("replaced %s, want web-2 web-1 web-0", got)
	}
	if got := images(cl); got != "web-0=nginx:1.26 web-1=nginx:1.26 web-2=nginx:1.26" {
		t.Fatalf("images %s", got)
	}
	st := getSet(t, cl, "web").Status
	if st.CurrentRevision != st.UpdateRevision || st.CurrentReplicas != 3 || st.UpdatedReplicas != 3 {
		t.Fatalf("status after rollout %+v", st)
	}
	if n := len(client.List[*api.ControllerRevision](cl, "default", nil)); n != 2 {
		t.Fatalf("%d revisions, want 2", n)
	}
}

// Seed 002's partitioned update: partition 3 updates only ordinals 4 and
// 3; partition 0 then finishes the rollout. Status matches what the real
// cluster reported.
func TestPartitionedRollingUpdate(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 5, false))
	c.Settle()
	readyAll(t, c, cl)
	oldRev := getSet(t, cl, "web").Status.CurrentRevision
	update(t, cl, "web", func(s *api.StatefulSet) {
		s.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{Partition: api.Int32(3)}
		s.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
	})
	c.Settle()
	readyAll(t, c, cl)
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:1.25 web-3=nginx:1.26 web-4=nginx:1.26" {
		t.Fatalf("images %s", got)
	}
	st := getSet(t, cl, "web").Status
	if st.CurrentRevision != oldRev || st.UpdateRevision == oldRev || st.CurrentReplicas != 3 || st.UpdatedReplicas != 2 ||
		st.Replicas != 5 || st.ReadyReplicas != 5 || st.AvailableReplicas != 5 {
		t.Fatalf("partitioned status %+v", st)
	}
	// A deleted pod below the partition comes back at the old revision.
	deletePod(t, c, cl, "web-1")
	reap(t, c, cl)
	readyAll(t, c, cl)
	if got := pods(cl)[1].Spec.Containers[0].Image; got != "nginx:1.25" {
		t.Fatalf("web-1 recreated with %s", got)
	}
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = api.Int32(0) })
	c.Settle()
	readyAll(t, c, cl)
	if got := images(cl); got != "web-0=nginx:1.26 web-1=nginx:1.26 web-2=nginx:1.26 web-3=nginx:1.26 web-4=nginx:1.26" {
		t.Fatalf("images %s", got)
	}
	st = getSet(t, cl, "web").Status
	if st.CurrentRevision != st.UpdateRevision || st.CurrentReplicas != 5 || st.UpdatedReplicas != 5 {
		t.Fatalf("final status %+v", st)
	}
}

// OnDelete: the template changes nothing until a pod is deleted; the
// replacement takes the new template.
func TestOnDeleteUpdatesOnlyDeletedPods(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("web", 2, false)
	set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
	mustCreate(t, cl, set)
	c.Settle()
	readyAll(t, c, cl)
	setImage(t, cl, "web", "nginx:1.26")
	c.Settle()
	readyAll(t, c, cl)
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25" {
		t.Fatalf("images before delete %s", got)
	}
	deletePod(t, c, cl, "web-0")
	reap(t, c, cl)
	readyAll(t, c, cl)
	if got := images(cl); got != "web-0=nginx:1.26 web-1=nginx:1.25" {
		t.Fatalf("images after delete %s", got)
	}
	if st := getSet(t, cl, "web").Status; st.UpdatedReplicas != 1 || st.CurrentReplicas != 1 {
		t.Fatalf("status %+v", st)
	}
}

// Seed 003's trap: with OrderedReady, a rollout to a broken template stops
// at the broken pod. Restoring the template is not enough: the controller
// waits for the broken pod to become Ready, which never happens. Deleting
// it lets the controller recreate it from the restored template.
func TestBrokenRolloutNeedsStuckPodDeleted(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 3, false))
	c.Settle()
	readyAll(t, c, cl)
	goodRev := getSet(t, cl, "web").Status.CurrentRevision

	setImage(t, cl, "web", "nginx:does-not-exist")
	c.Settle()
	reap(t, c, cl) // web-2 goes, and comes back broken: it stays Pending.
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:does-not-exist" {
		t.Fatalf("images %s", got)
	}
	c.Advance(10 * 60e9)
	if got := podStates(cl); got != "web-0:Running/ready web-1:Running/ready web-2:Pending" {
		t.Fatalf("rollout did not stall: %s", got)
	}

	// Revert the template: the update revision is the good one again, but
	// the broken pod is not touched.
	setImage(t, cl, "web", "nginx:1.25")
	c.Settle()
	c.Advance(10 * 60e9)
	set := getSet(t, cl, "web")
	if set.Status.UpdateRevision != goodRev {
		t.Fatalf("update revision %s, want the restored %s", set.Status.UpdateRevision, goodRev)
	}
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:does-not-exist" {
		t.Fatalf("images after revert %s", got)
	}
	if got := podStates(cl); got != "web-0:Running/ready web-1:Running/ready web-2:Pending" {
		t.Fatalf("states after revert %s", got)
	}

	// Delete the stuck pod: it comes back from the restored template.
	deletePod(t, c, cl, "web-2")
	if got := images(cl); got != "web-0=nginx:1.25 web-1=nginx:1.25 web-2=nginx:1.25" {
		t.Fatalf("images after deleting the stuck pod %s", got)
	}
	readyAll(t, c, cl)
	st := getSet(t, cl, "web").Status
	if st.ReadyReplicas != 3 || st.CurrentRevision != goodRev || st.UpdateRevision != goodRev {
		t.Fatalf("status %+v", st)
	}
	// The rollback renumbered the good revision: 1 became 3.
	revs := map[string]int64{}
	for _, r := range client.List[*api.ControllerRevision](cl, "default", nil) {
		revs[r.Name] = r.Revision
	}
	if revs[goodRev] != 3 || len(revs) != 2 {
		t.Fatalf("revisions %v", revs)
	}
}

// revisionHistoryLimit keeps that many unused revisions.
func TestRevisionHistoryIsTruncated(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("web", 1, false)
	set.Spec.RevisionHistoryLimit = api.Int32(1)
	mustCreate(t, cl, set)
	c.Settle()
	readyAll(t, c, cl)
	for i := 1; i <= 3; i++ {
		setImage(t, cl, "web", fmt.Sprintf("nginx:1.2%d", 5+i))
		c.Settle()
		readyAll(t, c, cl)
	}
	var got []int64
	for _, r := range client.List[*api.ControllerRevision](cl, "default", nil) {
		got = append(got, r.Revision)
	}
	if len(got) != 2 {
		t.Fatalf("revisions %v, want the live one and one old", got)
	}
}

// With the MaxUnavailableStatefulSet gate on, maxUnavailable pods are
// replaced at once.
func TestMaxUnavailableWhenGateEnabled(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	ssc := newController(c)
	ssc.EnableMaxUnavailable()
	c.AddWorker(ssc)
	cl := c.Client("test")
	set := newSet("web", 4, false)
	set.Spec.PodManagementPolicy = api.ParallelPodManagement
	mu := intstr.FromInt(2)
	set.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{MaxUnavailable: &mu}
	mustCreate(t, cl, set)
	c.Settle()
	readyAll(t, c, cl)
	setImage(t, cl, "web", "nginx:1.26")
	c.Settle()
	var terminating []string
	for _, p := range pods(cl) {
		if p.DeletionTimestamp != nil {
			terminating = append(terminating, p.Name)
		}
	}
	if got := strings.Join(terminating, " "); got != "web-2 web-3" {
		t.Fatalf("terminating %q, want web-2 web-3", got)
	}
}
