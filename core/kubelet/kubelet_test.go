package kubelet_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/sim"
)

// cluster is a one-node cluster with its terminal.
func cluster(t *testing.T) (*sim.Cluster, *sim.Terminal) {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 7})
	c.AddDefaultNode()
	t.Cleanup(c.Close)
	return c, sim.NewTerminal(c)
}

func apply(t *testing.T, term *sim.Terminal, manifest string) {
	t.Helper()
	out := term.Run("kubectl apply -f - <<'EOF'\n" + manifest + "EOF\n")
	if !strings.Contains(out, "created") && !strings.Contains(out, "configured") {
		t.Fatalf("apply: %s", out)
	}
}

// applyWeb creates pod web on node01, one nginx container of image.
func applyWeb(t *testing.T, term *sim.Terminal, image string) {
	t.Helper()
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  nodeName: node01
  containers:
  - name: nginx
    image: `+image+"\n")
}

func pod(t *testing.T, c *sim.Cluster, ns, name string) *api.Pod {
	t.Helper()
	p, err := client.Get[*api.Pod](c.Client("test"), ns, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func events(c *sim.Cluster, object string) []string {
	var out []string
	for _, e := range client.List[*api.Event](c.Client("test"), "", nil) {
		if e.InvolvedObject.Name == object {
			out = append(out, e.Reason+": "+e.Message)
		}
	}
	return out
}

func hasEvent(c *sim.Cluster, object, prefix string) bool {
	for _, e := range events(c, object) {
		if strings.HasPrefix(e, prefix) {
			return true
		}
	}
	return false
}

// Seed 002's pod-01: the health file goes after 60 s; the default liveness
// probe (every 10 s, 3 failures) then restarts the container, which bash
// as PID 1 holds for the 30 s grace period.
func TestLivenessProbeRestartsTheContainer(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: pod-01
spec:
  nodeName: node01
  containers:
  - name: centos
    image: harbor.od.com/public/centos:7
    command: ["/bin/bash", "-c", "echo 'abc' > /tmp/health;sleep 60;rm -f /tmp/health;sleep 600"]
    livenessProbe:
      exec:
        command: ["/bin/bash", "-c", "[ -f /tmp/health ]"]
`)
	c.Advance(20 * time.Second)
	p := pod(t, c, "default", "pod-01")
	st := p.Status.ContainerStatuses[0]
	if st.State.Running == nil {
		t.Fatalf("not running after 20 s: %+v", st.State)
	}
	started := st.State.Running.StartedAt.Time
	at := func(d time.Duration) *api.Pod {
		c.Advance(started.Add(d).Sub(c.Now()))
		return pod(t, c, "default", "pod-01")
	}
	if p := at(105 * time.Second); p.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Fatalf("restarted before the grace period ran out")
	}
	if !hasEvent(c, "pod-01", "Killing: Container centos failed liveness probe, will be restarted") {
		t.Fatalf("no Killing event: %q", events(c, "pod-01"))
	}
	if !hasEvent(c, "pod-01", "Unhealthy: Liveness probe failed: ") {
		t.Fatalf("no Unhealthy event: %q", events(c, "pod-01"))
	}
	p = at(111 * time.Second)
	st = p.Status.ContainerStatuses[0]
	if st.RestartCount != 1 || st.State.Running == nil {
		t.Fatalf("after 111 s: restarts %d, state %+v", st.RestartCount, st.State)
	}
	last := st.LastTerminationState.Terminated
	if last == nil || last.ExitCode != 137 || last.Reason != "Error" || !last.FinishedAt.Equal(started.Add(110*time.Second)) {
		t.Fatalf("last state %+v", last)
	}
}

// A container that exits at once is restarted after 0, 10, 20, 40 s… and
// shows CrashLoopBackOff while it waits.
func TestCrashLoopBackOffDelays(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: crash
spec:
  nodeName: node01
  containers:
  - name: c
    image: busybox:1.36
    command: ["sh", "-c", "echo dying; exit 1"]
`)
	var starts []time.Time // when each restart count was first seen
	seen := -1
	for i := 0; i < 200; i++ {
		p := pod(t, c, "default", "crash")
		st := p.Status.ContainerStatuses[0]
		if int(st.RestartCount) != seen {
			seen = int(st.RestartCount)
			starts = append(starts, c.Now())
		}
		c.Advance(time.Second)
	}
	t.Logf("starts %v", starts)
	var gaps []int
	for i := 2; i < len(starts); i++ { // starts[0] is count 0, before any exit
		gaps = append(gaps, int(starts[i].Sub(starts[i-1])/time.Second))
	}
	want := []int{10, 20, 40, 80}
	if len(gaps) < len(want) {
		t.Fatalf("restart gaps %v", gaps)
	}
	for i, w := range want {
		if gaps[i] != w {
			t.Fatalf("restart gaps %v, want %v…", gaps, want)
		}
	}
	p := pod(t, c, "default", "crash")
	if w := p.Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" || !strings.HasPrefix(w.Message, "back-off ") {
		t.Fatalf("waiting %+v", w)
	}
	out := term.Run("kubectl get pod crash")
	if !strings.Contains(out, "CrashLoopBackOff") {
		t.Fatalf("get pod:\n%s", out)
	}
}

// A process that ignores SIGTERM holds its pod in Terminating for the whole
// grace period; nginx handles it and goes at once.
func TestGracefulDeletion(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: sleeper
spec:
  nodeName: node01
  containers:
  - name: c
    image: busybox
    command: ["sleep", "3600"]
`)
	applyWeb(t, term, "nginx:1.14.2")
	c.Advance(10 * time.Second)
	for _, n := range []string{"sleeper", "web"} {
		if !api.IsPodReady(pod(t, c, "default", n)) {
			t.Fatalf("%s not ready", n)
		}
	}
	term.Run("kubectl delete pod sleeper web --wait=false")
	c.Advance(time.Second)
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "web"); err == nil {
		t.Fatal("nginx pod still there a second after deletion")
	}
	c.Advance(27 * time.Second)
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "sleeper"); err != nil {
		t.Fatal("sleeper gone before its grace period")
	}
	c.Advance(3 * time.Second)
	if _, err := client.Get[*api.Pod](c.Client("test"), "default", "sleeper"); err == nil {
		t.Fatal("sleeper still there after its grace period")
	}
	if !hasEvent(c, "sleeper", "Killing: Stopping container c") {
		t.Fatalf("events %q", events(c, "sleeper"))
	}
}

func TestImagePullBackOff(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: typo
spec:
  nodeName: node01
  containers:
  - name: nginx
    image: nginx:nonexist
`)
	c.Advance(3 * time.Second)
	w := pod(t, c, "default", "typo").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "ErrImagePull" {
		t.Fatalf("waiting %+v", w)
	}
	c.Advance(4 * time.Second)
	w = pod(t, c, "default", "typo").Status.ContainerStatuses[0].State.Waiting
	if w == nil || w.Reason != "ImagePullBackOff" {
		t.Fatalf("waiting %+v", w)
	}
	want := `Failed: Failed to pull image "nginx:nonexist": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nonexist"`
	if !hasEvent(c, "typo", want) {
		t.Fatalf("events %q", events(c, "typo"))
	}
}

// Init containers run one after another before the app container.
func TestInitContainersRunInOrder(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: init
spec:
  nodeName: node01
  initContainers:
  - name: one
    image: busybox
    command: ["sh", "-c", "sleep 5"]
  - name: two
    image: busybox
    command: ["sh", "-c", "sleep 5"]
  containers:
  - name: app
    image: busybox
    command: ["sleep", "3600"]
`)
	c.Advance(4 * time.Second)
	if out := term.Run("kubectl get pod init"); !strings.Contains(out, "Init:0/2") {
		t.Fatalf("at 4 s:\n%s", out)
	}
	c.Advance(5 * time.Second)
	if out := term.Run("kubectl get pod init"); !strings.Contains(out, "Init:1/2") {
		t.Fatalf("at 9 s:\n%s", out)
	}
	c.Advance(10 * time.Second)
	if out := term.Run("kubectl get pod init"); !strings.Contains(out, "Running") {
		t.Fatalf("at 19 s:\n%s", out)
	}
}

// The perl image computes pi for real; a Never pod ends Succeeded/Completed.
func TestPerlPiPodCompletes(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: Pod
metadata:
  name: pi
spec:
  nodeName: node01
  restartPolicy: Never
  containers:
  - name: pi
    image: perl:5.34.0
    command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
`)
	c.Advance(30 * time.Second)
	p := pod(t, c, "default", "pi")
	if p.Status.Phase != api.PodSucceeded {
		t.Fatalf("phase %s", p.Status.Phase)
	}
	if out := term.Run("kubectl get pod pi"); !strings.Contains(out, "Completed") {
		t.Fatalf("get pod:\n%s", out)
	}
	k, _ := c.Kubelet("node01")
	_ = k
	if got := runtime.Pi(2000); !strings.HasPrefix(got, "3.14159") {
		t.Fatal(got)
	}
}

// Environment: env with $(VAR), fieldRef, configMapKeyRef, and the
// service links of the namespace's services.
func TestContainerEnvironment(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  color: blue
---
apiVersion: v1
kind: Pod
metadata:
  name: env
spec:
  nodeName: node01
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo $GREETING $COLOR $MY_POD_NAME $KUBERNETES_SERVICE_HOST; sleep 3600"]
    env:
    - name: NAME
      value: world
    - name: GREETING
      value: hello-$(NAME)
    - name: COLOR
      valueFrom:
        configMapKeyRef: {name: cfg, key: color}
    - name: MY_POD_NAME
      valueFrom:
        fieldRef: {fieldPath: metadata.name}
`)
	c.Advance(5 * time.Second)
	k, _ := c.Kubelet("node01")
	ctr, ok := k.Container("default", "env", "c")
	if !ok {
		t.Fatal("no container")
	}
	if len(ctr.Logs()) == 0 || ctr.Logs()[0].Text != "hello-world blue env 10.96.0.1" {
		t.Fatalf("logs %+v", ctr.Logs())
	}
}

// A container sees the services that exist when it starts: one created
// between two starts shows in the second only.
func TestServiceLinksFollowServices(t *testing.T) {
	c, term := cluster(t)
	podWithEnv := func(name string) string {
		return `apiVersion: v1
kind: Pod
metadata:
  name: ` + name + `
spec:
  nodeName: node01
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo [$WEB_SERVICE_HOST] $WEB_SERVICE_PORT; sleep 3600"]
`
	}
	logs := func(name string) string {
		t.Helper()
		k, _ := c.Kubelet("node01")
		ctr, ok := k.Container("default", name, "c")
		if !ok || len(ctr.Logs()) == 0 {
			t.Fatalf("no output from %s", name)
		}
		return ctr.Logs()[0].Text
	}
	apply(t, term, podWithEnv("before"))
	c.Advance(5 * time.Second)
	apply(t, term, `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  clusterIP: 10.96.0.50
  ports:
  - port: 8080
`)
	apply(t, term, podWithEnv("after"))
	c.Advance(5 * time.Second)
	if got := logs("before"); got != "[]" {
		t.Errorf("before: %q", got)
	}
	if got := logs("after"); got != "[10.96.0.50] 8080" {
		t.Errorf("after: %q", got)
	}
}
