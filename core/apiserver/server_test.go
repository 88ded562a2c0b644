package apiserver

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/clock"
)

var t0 = time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)

func newTestServer(t *testing.T) *Server {
	t.Helper()
	s := New(clock.New(t0), clock.NewRand(1))
	for _, ns := range []string{"default", "kube-system"} {
		if _, err := s.Create(s.res("namespaces"), "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func (s *Server) res(name string) *Resource {
	for _, r := range s.Registry.All() {
		if r.Name == name {
			return r
		}
	}
	panic("no resource " + name)
}

func configMap(name string, finalizers ...string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name, Finalizers: finalizers}, Data: map[string]string{"k": "v"}}
}

func deployment(name, image string) *api.Deployment {
	labels := map[string]string{"app": name}
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: image}}},
			},
		},
	}
}

func TestCreateSetsServerFields(t *testing.T) {
	s := newTestServer(t)
	obj, err := s.Create(s.res("configmaps"), "default", configMap("a"), CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := obj.GetObjectMeta()
	if m.UID == "" || m.ResourceVersion == "" || !m.CreationTimestamp.Equal(t0) || m.Namespace != "default" {
		t.Fatalf("server fields: %+v", m)
	}
	if tm := obj.GetTypeMeta(); tm.Kind != "ConfigMap" || tm.APIVersion != "v1" {
		t.Fatalf("type meta: %+v", tm)
	}
	if _, err := s.Create(s.res("configmaps"), "default", configMap("a"), CreateOptions{}); err == nil || !strings.Contains(err.Error(), `configmaps "a" already exists`) {
		t.Fatalf("duplicate create: %v", err)
	}
	if _, err := s.Create(s.res("configmaps"), "nope", configMap("b"), CreateOptions{}); err == nil || !strings.Contains(err.Error(), `namespaces "nope" not found`) {
		t.Fatalf("create in missing namespace: %v", err)
	}
}

func TestGenerateNameIsSeeded(t *testing.T) {
	names := func() []string {
		s := newTestServer(t)
		var out []string
		for i := 0; i < 3; i++ {
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{GenerateName: "web-"}}
			obj, err := s.Create(s.res("configmaps"), "default", cm, CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, obj.GetObjectMeta().Name)
		}
		return out
	}
	a, b := names(), names()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("same seed, different names: %v vs %v", a, b)
	}
	if len(a[0]) != len("web-")+5 || a[0] == a[1] {
		t.Fatalf("names: %v", a)
	}
}

func TestUpdateConflictAndGeneration(t *testing.T) {
	s := newTestServer(t)
	res := s.res("deployments")
	obj, err := s.Create(res, "default", deployment("web", "nginx:1"), CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if obj.GetObjectMeta().Generation != 1 {
		t.Fatalf("generation on create: %d", obj.GetObjectMeta().Generation)
	}
	stale := obj.(*api.Deployment).DeepCopy()

	// A status update does not bump generation.
	st := obj.(*api.Deployment).DeepCopy()
	st.Status.Replicas = 3
	obj, err = s.Update(res, "default", st, UpdateOptions{Subresource: "status"})
	if err != nil {
		t.Fatal(err)
	}
	if obj.GetObjectMeta().Generation != 1 || obj.(*api.Deployment).Status.Replicas != 3 {
		t.Fatalf("status update: gen %d replicas %d", obj.GetObjectMeta().Generation, obj.(*api.Deployment).Status.Replicas)
	}

	// A spec change bumps it; a main update cannot change status.
	d := obj.(*api.Deployment).DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = "nginx:2"
	d.Status.Replicas = 99
	obj, err = s.Update(res, "default", d, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if obj.GetObjectMeta().Generation != 2 || obj.(*api.Deployment).Status.Replicas != 3 {
		t.Fatalf("spec update: gen %d replicas %d", obj.GetObjectMeta().Generation, obj.(*api.Deployment).Status.Replicas)
	}

	// A write based on an old resourceVersion is refused.
	stale.Spec.Paused = true
	if _, err := s.Update(res, "default", stale, UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "the object has been modified") {
		t.Fatalf("stale update: %v", err)
	}

	// A no-op update writes nothing.
	rv := s.ResourceVersion()
	same := obj.(*api.Deployment).DeepCopy()
	if _, err := s.Update(res, "default", same, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.ResourceVersion() != rv {
		t.Fatalf("no-op update bumped resourceVersion %s → %s", rv, s.ResourceVersion())
	}
}

func TestWatchOrderingAndResumption(t *testing.T) {
	s := newTestServer(t)
	res := s.res("configmaps")
	var seen []string
	stop, err := s.Watch(res, "default", ListOptions{}, func(ev WatchEvent) {
		seen = append(seen, ev.Type+" "+ev.Object.GetObjectMeta().Name+" "+ev.Object.GetObjectMeta().ResourceVersion)
	})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Create(res, "default", configMap("a"), CreateOptions{})
	mark := a.GetObjectMeta().ResourceVersion
	b, _ := s.Create(res, "default", configMap("b"), CreateOptions{})
	upd := b.(*api.ConfigMap).DeepCopy()
	upd.Data["k"] = "w"
	s.Update(res, "default", upd, UpdateOptions{})
	s.Delete(res, "default", "a", api.DeleteOptions{})
	stop()
	s.Create(res, "default", configMap("c"), CreateOptions{})

	if len(seen) != 4 || !strings.HasPrefix(seen[0], "ADDED a") || !strings.HasPrefix(seen[2], "MODIFIED b") || !strings.HasPrefix(seen[3], "DELETED a") {
		t.Fatalf("events: %v", seen)
	}
	// resourceVersions only grow.
	prev := 0
	for _, e := range seen {
		var rv int
		fmt.Sscanf(e[strings.LastIndex(e, " ")+1:], "%d", &rv)
		if rv <= prev {
			t.Fatalf("resourceVersion did not grow: %v", seen)
		}
		prev = rv
	}

	// Resuming from a resourceVersion replays exactly what came after it.
	var replay []string
	stop2, err := s.Watch(res, "default", ListOptions{ResourceVersion: mark}, func(ev WatchEvent) {
		replay = append(replay, ev.Type+" "+ev.Object.GetObjectMeta().Name)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	want := "ADDED b,MODIFIED b,DELETED a,ADDED c"
	if strings.Join(replay, ",") != want {
		t.Fatalf("replay %v, want %s", replay, want)
	}
}

func TestWatchFromCompactedVersionIsGone(t *testing.T) {
	s := newTestServer(t)
	res := s.res("configmaps")
	first, _ := s.Create(res, "default", configMap("x"), CreateOptions{})
	for i := 0; i < historySize+5; i++ {
		cm := first.(*api.ConfigMap).DeepCopy()
		cm.ResourceVersion = ""
		cm.Data["k"] = fmt.Sprint(i)
		first, _ = s.Update(res, "default", cm, UpdateOptions{})
	}
	if _, err := s.Watch(res, "", ListOptions{ResourceVersion: "1"}, func(WatchEvent) {}); err == nil || !strings.Contains(err.Error(), "too old resource version") {
		t.Fatalf("want Gone, got %v", err)
	}
}

func TestFinalizersHoldDeletion(t *testing.T) {
	s := newTestServer(t)
	res := s.res("configmaps")
	s.Create(res, "default", configMap("mymap", "kubernetes"), CreateOptions{})
	r, err := s.Delete(res, "default", "mymap", api.DeleteOptions{})
	if err != nil || r.Gone {
		t.Fatalf("delete with finalizer: gone=%v err=%v", r.Gone, err)
	}
	obj, err := s.Get(res, "default", "mymap")
	if err != nil || obj.GetObjectMeta().DeletionTimestamp == nil {
		t.Fatalf("want a terminating object, got %v %v", obj, err)
	}
	// No new finalizers once terminating.
	add := obj.(*api.ConfigMap).DeepCopy()
	add.Finalizers = append(add.Finalizers, "example.com/x")
	if _, err := s.Update(res, "default", add, UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "no new finalizers can be added") {
		t.Fatalf("adding a finalizer while terminating: %v", err)
	}
	// Removing the last finalizer deletes it.
	rm := obj.(*api.ConfigMap).DeepCopy()
	rm.Finalizers = nil
	if _, err := s.Update(res, "default", rm, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(res, "default", "mymap"); err == nil {
		t.Fatal("object still there after its last finalizer went")
	}
}

func TestPropagationPolicyFinalizers(t *testing.T) {
	cases := []struct {
		policy string
		want   string
	}{
		{api.DeletePropagationOrphan, "[orphan]"},
		{api.DeletePropagationForeground, "[foregroundDeletion]"},
		{api.DeletePropagationBackground, "gone"},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			s := newTestServer(t)
			res := s.res("deployments")
			s.Create(res, "default", deployment("web", "nginx"), CreateOptions{})
			r, err := s.Delete(res, "default", "web", api.DeleteOptions{PropagationPolicy: api.String(c.policy)})
			if err != nil {
				t.Fatal(err)
			}
			got := "gone"
			if !r.Gone {
				got = fmt.Sprint(r.Object.GetObjectMeta().Finalizers)
				if r.Object.GetObjectMeta().Generation != 2 {
					t.Errorf("terminating object's generation %d, want 2", r.Object.GetObjectMeta().Generation)
				}
			}
			if got != c.want {
				t.Fatalf("finalizers %s, want %s", got, c.want)
			}
		})
	}
}

func TestPodGracefulDeletion(t *testing.T) {
	s := newTestServer(t)
	res := s.res("pods")
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Spec: api.PodSpec{NodeName: "n1", Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	if _, err := s.Create(res, "default", pod, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Delete(res, "default", "p", api.DeleteOptions{})
	if err != nil || r.Gone {
		t.Fatalf("scheduled pod went at once: %v %v", r.Gone, err)
	}
	m := r.Object.GetObjectMeta()
	if *m.DeletionGracePeriodSeconds != 30 || !m.DeletionTimestamp.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("grace: %v %v", *m.DeletionGracePeriodSeconds, m.DeletionTimestamp)
	}
	// The kubelet's final delete with grace 0 removes it.
	if r, err = s.Delete(res, "default", "p", api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil || !r.Gone {
		t.Fatalf("grace 0 delete: %v %v", r.Gone, err)
	}
	// An unscheduled pod goes at once.
	s.Create(res, "default", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "q"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}, CreateOptions{})
	if r, _ := s.Delete(res, "default", "q", api.DeleteOptions{}); !r.Gone {
		t.Fatal("unscheduled pod should be deleted at once")
	}
}

func TestPodAdmissionDefaults(t *testing.T) {
	s := newTestServer(t)
	obj, err := s.Create(s.res("pods"), "default", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pod := obj.(*api.Pod)
	var tolerations []string
	for _, tol := range pod.Spec.Tolerations {
		tolerations = append(tolerations, fmt.Sprintf("%s:%s:%d", tol.Key, tol.Effect, *tol.TolerationSeconds))
	}
	want := "node.kubernetes.io/not-ready:NoExecute:300 node.kubernetes.io/unreachable:NoExecute:300"
	if strings.Join(tolerations, " ") != want {
		t.Fatalf("tolerations %v", tolerations)
	}
	if pod.Status.Phase != api.PodPending || pod.Status.QOSClass != "BestEffort" || pod.Spec.ServiceAccountName != "default" {
		t.Fatalf("pod: phase %q qos %q sa %q", pod.Status.Phase, pod.Status.QOSClass, pod.Spec.ServiceAccountName)
	}
}

func TestNamespaceLifecycle(t *testing.T) {
	s := newTestServer(t)
	nsRes := s.res("namespaces")
	s.Create(nsRes, "", &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "demo"}}, CreateOptions{})
	if _, err := s.Delete(nsRes, "", "default", api.DeleteOptions{}); err == nil || !strings.Contains(err.Error(), "this namespace may not be deleted") {
		t.Fatalf("deleting default: %v", err)
	}
	r, err := s.Delete(nsRes, "", "demo", api.DeleteOptions{})
	if err != nil || r.Gone || r.Object.(*api.Namespace).Status.Phase != api.NamespaceTerminating {
		t.Fatalf("namespace delete: %+v %v", r, err)
	}
	if _, err := s.Create(s.res("configmaps"), "demo", configMap("x"), CreateOptions{}); err == nil || !strings.Contains(err.Error(), "because it is being terminated") {
		t.Fatalf("create in terminating namespace: %v", err)
	}
}

func TestRejectedWriteChangesNothing(t *testing.T) {
	s := newTestServer(t)
	rv := s.ResourceVersion()
	bad := deployment("bad", "nginx")
	bad.Spec.Template.Labels = map[string]string{"app": "other"}
	if _, err := s.Create(s.res("deployments"), "default", bad, CreateOptions{}); err == nil {
		t.Fatal("selector mismatch accepted")
	}
	if s.ResourceVersion() != rv {
		t.Fatal("rejected create changed the store")
	}
	if objs, _ := s.List(s.res("deployments"), "", ListOptions{}); len(objs) != 0 {
		t.Fatalf("store has %d deployments", len(objs))
	}
}

func TestResolve(t *testing.T) {
	r := NewRegistry()
	cases := map[string]string{
		"po": "pods", "Pod": "pods", "pods": "pods", "deploy": "deployments.apps", "Deployment": "deployments.apps",
		"deployment.v1.apps": "deployments.apps", "deployments.apps": "deployments.apps", "ReplicaSet": "replicasets.apps",
		"leases.coordination.k8s.io": "leases.coordination.k8s.io", "controllerrevisions.apps": "controllerrevisions.apps",
		"cj": "cronjobs.batch", "hpa": "horizontalpodautoscalers.autoscaling", "cs": "componentstatuses", "ev": "events",
	}
	for in, want := range cases {
		res, ok := r.Resolve(in)
		if !ok || res.GroupResource().String() != want {
			t.Errorf("Resolve(%q) = %v, want %s", in, res, want)
		}
	}
	for _, bad := range []string{"x", "deployments.batch", "pods.v9"} {
		if res, ok := r.Resolve(bad); ok {
			t.Errorf("Resolve(%q) = %s, want nothing", bad, res.GroupResource())
		}
	}
}
