package statefulset_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// OrderedReady: each pod is created only once its predecessor is Running
// and Ready; the pods carry their identity.
func TestOrderedReadyScaleUpWaitsForEachPod(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 3, false))
	c.Settle()
	steps := []struct {
		run  string
		want string
	}{
		{"", "web-0:Pending"},
		{"web-0", "web-0:Running/ready web-1:Pending"},
		{"web-1", "web-0:Running/ready web-1:Running/ready web-2:Pending"},
		{"web-2", "web-0:Running/ready web-1:Running/ready web-2:Running/ready"},
	}
	for _, s := range steps {
		if s.run != "" {
			runPod(t, c, cl, s.run)
		}
		if got := podStates(cl); got != s.want {
			t.Fatalf("after running %q: %s, want %s", s.run, got, s.want)
		}
	}
	p := pods(cl)[1]
	wantLabels := map[string]string{"app": "web", "statefulset.kubernetes.io/pod-name": "web-1", "apps.kubernetes.io/pod-index": "1"}
	for k, v := range wantLabels {
		if p.Labels[k] != v {
			t.Errorf("label %s=%q, want %q", k, p.Labels[k], v)
		}
	}
	if p.Spec.Hostname != "web-1" || p.Spec.Subdomain != "nginx" || p.GenerateName != "web-" {
		t.Errorf("hostname %q subdomain %q generateName %q", p.Spec.Hostname, p.Spec.Subdomain, p.GenerateName)
	}
	if ref := p.GetControllerOf(); ref == nil || ref.Kind != "StatefulSet" || ref.Name != "web" || ref.APIVersion != "apps/v1" {
		t.Errorf("controller ref %+v", p.OwnerReferences)
	}
	set := getSet(t, cl, "web")
	st := set.Status
	if st.Replicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 || st.CurrentReplicas != 3 || st.UpdatedReplicas != 3 ||
		st.CurrentRevision == "" || st.CurrentRevision != st.UpdateRevision || st.ObservedGeneration != set.Generation ||
		st.CollisionCount == nil || *st.CollisionCount != 0 {
		t.Fatalf("status %+v", st)
	}
	if p.Labels["controller-revision-hash"] != st.CurrentRevision || !strings.HasPrefix(st.CurrentRevision, "web-") {
		t.Fatalf("pod revision %q, set revision %q", p.Labels["controller-revision-hash"], st.CurrentRevision)
	}
	want := []string{
		"SuccessfulCreate create Pod web-0 in StatefulSet web successful",
		"SuccessfulCreate create Pod web-1 in StatefulSet web successful",
		"SuccessfulCreate create Pod web-2 in StatefulSet web successful",
	}
	if got := events(cl, "web"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events\n%s", strings.Join(got, "\n"))
	}
}

// Scale-down goes from the highest ordinal, one pod at a time: the next
// is deleted only once the previous one is gone.
func TestOrderedReadyScaleDownInReverseOneAtATime(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 4, false))
	c.Settle()
	for _, n := range []string{"web-0", "web-1", "web-2", "web-3"} {
		runPod(t, c, cl, n)
	}
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	c.Settle()
	for _, want := range []string{
		"web-0:Running/ready web-1:Running/ready web-2:Running/ready web-3:Running/ready(terminating)",
		"web-0:Running/ready web-1:Running/ready web-2:Running/ready(terminating)",
		"web-0:Running/ready web-1:Running/ready(terminating)",
		"web-0:Running/ready",
	} {
		if got := podStates(cl); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		reap(t, c, cl)
	}
	evs := events(cl, "web")
	if got := strings.Join(evs[len(evs)-3:], "\n"); got != "SuccessfulDelete delete Pod web-3 in StatefulSet web successful\n"+
		"SuccessfulDelete delete Pod web-2 in StatefulSet web successful\n"+
		"SuccessfulDelete delete Pod web-1 in StatefulSet web successful" {
		t.Fatalf("delete events\n%s", got)
	}
	if st := getSet(t, cl, "web").Status; st.Replicas != 1 || st.ReadyReplicas != 1 {
		t.Fatalf("status %+v", st)
	}
}

// Parallel creates and deletes without waiting.
func TestParallelPodManagement(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("web", 3, false)
	set.Spec.PodManagementPolicy = api.ParallelPodManagement
	mustCreate(t, cl, set)
	c.Settle()
	if got := podStates(cl); got != "web-0:Pending web-1:Pending web-2:Pending" {
		t.Fatalf("parallel scale up: %s", got)
	}
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(0) })
	c.Settle()
	// Unscheduled pods are deleted at once.
	if got := podStates(cl); got != "" {
		t.Fatalf("parallel scale down left %s", got)
	}
}

// A pod that fails is deleted and created again under the same name.
func TestFailedPodIsRecreated(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 2, false))
	c.Settle()
	runPod(t, c, cl, "web-0")
	runPod(t, c, cl, "web-1")
	oldUID := pods(cl)[0].UID
	setPhase(t, c, cl, "web-0", api.PodFailed)
	if got := podStates(cl); got != "web-0:Pending web-1:Running/ready" {
		t.Fatalf("after failure: %s", got)
	}
	if pods(cl)[0].UID == oldUID {
		t.Fatal("web-0 was not recreated")
	}
	// The second create of web-0 repeats the first event: its count goes up.
	counts := map[string]int32{}
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		counts[e.Message] = e.Count
	}
	if counts["create Pod web-0 in StatefulSet web successful"] != 2 || counts["delete Pod web-0 in StatefulSet web successful"] != 1 {
		t.Fatalf("event counts %v", counts)
	}
}

// minReadySeconds: a ready pod counts as available, and lets its successor
// start, only after that long.
func TestMinReadySecondsDelaysSuccessor(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("web", 2, false)
	set.Spec.MinReadySeconds = 10
	mustCreate(t, cl, set)
	c.Settle()
	runPod(t, c, cl, "web-0")
	if got := podStates(cl); got != "web-0:Running/ready" {
		t.Fatalf("before minReadySeconds: %s", got)
	}
	if st := getSet(t, cl, "web").Status; st.ReadyReplicas != 1 || st.AvailableReplicas != 0 {
		t.Fatalf("status %+v", st)
	}
	c.Advance(12 * time.Second)
	if got := podStates(cl); got != "web-0:Running/ready web-1:Pending" {
		t.Fatalf("after minReadySeconds: %s", got)
	}
	if st := getSet(t, cl, "web").Status; st.AvailableReplicas != 1 {
		t.Fatalf("status %+v", st)
	}
}

// Claims are <template>-<set>-<ordinal>, created before their pod, mounted
// by it, and kept when the pod and the set go (Retain by default).
func TestVolumeClaimTemplatesNamingAndRetention(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 2, true))
	c.Settle()
	runPod(t, c, cl, "web-0")
	runPod(t, c, cl, "web-1")
	if got := claimNames(cl); got != "www-web-0 www-web-1" {
		t.Fatalf("claims %q", got)
	}
	claim, _ := client.Get[*api.PersistentVolumeClaim](cl, "default", "www-web-0")
	if claim.Labels["app"] != "web" || len(claim.OwnerReferences) != 0 {
		t.Fatalf("claim labels %v owners %v", claim.Labels, claim.OwnerReferences)
	}
	vols := pods(cl)[1].Spec.Volumes
	if len(vols) == 0 || vols[0].Name != "www" || vols[0].PersistentVolumeClaim == nil || vols[0].PersistentVolumeClaim.ClaimName != "www-web-1" {
		t.Fatalf("web-1 volumes %+v", vols)
	}
	want := []string{
		"SuccessfulCreate create Claim www-web-0 Pod web-0 in StatefulSet web success",
		"SuccessfulCreate create Pod web-0 in StatefulSet web successful",
		"SuccessfulCreate create Claim www-web-1 Pod web-1 in StatefulSet web success",
		"SuccessfulCreate create Pod web-1 in StatefulSet web successful",
	}
	if got := events(cl, "web"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events\n%s", strings.Join(got, "\n"))
	}
	// Scale to zero, then back: the same claims serve the new pods.
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(0) })
	c.Settle()
	reap(t, c, cl)
	reap(t, c, cl)
	if got := podStates(cl); got != "" {
		t.Fatalf("pods left: %s", got)
	}
	if got := claimNames(cl); got != "www-web-0 www-web-1" {
		t.Fatalf("claims after scale down %q", got)
	}
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	c.Settle()
	if got := claimNames(cl); got != "www-web-0 www-web-1" || podStates(cl) != "web-0:Pending" {
		t.Fatalf("claims %q pods %s", got, podStates(cl))
	}
	if err := client.Delete[*api.StatefulSet](cl, "default", "web", api.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if got := claimNames(cl); got != "www-web-0 www-web-1" {
		t.Fatalf("claims after deleting the set %q", got)
	}
}

// A Delete-on-scale-down policy hands a scaled-down pod's claim to the pod,
// so the garbage collector removes it with the pod.
func TestRetentionPolicyDeleteOnScaleDownOwnsClaimByPod(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("web", 2, true)
	set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: api.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: api.DeletePersistentVolumeClaimRetentionPolicyType,
	}
	mustCreate(t, cl, set)
	c.Settle()
	runPod(t, c, cl, "web-0")
	runPod(t, c, cl, "web-1")
	owner := func(name string) string {
		claim, err := client.Get[*api.PersistentVolumeClaim](cl, "default", name)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, r := range claim.OwnerReferences {
			s = append(s, r.Kind+"/"+r.Name)
		}
		return strings.Join(s, ",")
	}
	if owner("www-web-0") != "StatefulSet/web" || owner("www-web-1") != "StatefulSet/web" {
		t.Fatalf("owners %q %q", owner("www-web-0"), owner("www-web-1"))
	}
	update(t, cl, "web", func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	c.Settle()
	if owner("www-web-0") != "StatefulSet/web" || owner("www-web-1") != "Pod/web-1" {
		t.Fatalf("after scale down owners %q %q", owner("www-web-0"), owner("www-web-1"))
	}
}

// The revision name matches what a real v1.32 cluster printed for seed 000.
func TestRevisionNameMatchesRealCluster(t *testing.T) {
	c, cl := newCluster(t)
	set := newSet("nginx-sts", 1, false)
	set.Spec.ServiceName = "nginx-sts"
	set.Spec.Template.Spec.Containers[0].Image = "nginx"
	mustCreate(t, cl, set)
	c.Settle()
	if got := getSet(t, cl, "nginx-sts").Status.UpdateRevision; got != "nginx-sts-6798d68dcd" {
		t.Fatalf("revision %q, want nginx-sts-6798d68dcd", got)
	}
	crs := client.List[*api.ControllerRevision](cl, "default", nil)
	if len(crs) != 1 || crs[0].Name != "nginx-sts-6798d68dcd" || crs[0].Revision != 1 || crs[0].Labels["controller.kubernetes.io/hash"] != "6798d68dcd" {
		t.Fatalf("revisions %+v", crs)
	}
}

// A mistyped huge replica count builds only a bounded number of new pods
// per sync instead of one placeholder per ordinal.
func TestHugeReplicaCountStaysBounded(t *testing.T) {
	c, cl := newCluster(t)
	mustCreate(t, cl, newSet("web", 2_000_000_000, false))
	c.Settle()
	runPod(t, c, cl, "web-0")
	if got := podStates(cl); got != "web-0:Running/ready web-1:Pending" {
		t.Fatalf("pods %s", got)
	}
	if st := getSet(t, cl, "web").Status; st.Replicas != 2 || st.ReadyReplicas != 1 {
		t.Fatalf("status %+v", st)
	}
}
