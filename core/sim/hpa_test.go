package sim

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// testBinder binds every pending pod to one node: a stand-in for the
// scheduler in tests that are about something else.
type testBinder struct {
	c    *Cluster
	node string
}

func (b *testBinder) Name() string { return "test-binder" }

func (b *testBinder) ProcessNextWorkItem() bool {
	cl := b.c.Client("default-scheduler")
	for _, p := range client.List[*api.Pod](cl, "", nil) {
		if p.Spec.NodeName == "" && p.DeletionTimestamp == nil {
			if err := cl.Bind(p.Namespace, &api.Binding{ObjectMeta: api.ObjectMeta{Name: p.Name}, Target: api.ObjectReference{Kind: "Node", Name: b.node}}); err == nil {
				return true
			}
		}
	}
	return false
}

// The HPA scales a Deployment up under load and, five minutes after the
// load goes, back down.
func TestHorizontalPodAutoscalerFollowsLoad(t *testing.T) {
	c := NewDefault(Options{Seed: 5})
	c.AddDefaultNode()
	c.AddWorker(&testBinder{c: c, node: DefaultNodeName})
	term := NewTerminal(c)
	out := term.Run(`kubectl apply -f - <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx
        resources:
          requests:
            cpu: 200m
EOF
kubectl autoscale deployment web --min=1 --max=5 --cpu-percent=50
sleep 60
kubectl top pods
kubeplay load deployment/web 600m
sleep 400
kubectl get hpa
kubectl get deploy web
`)
	if !strings.Contains(out, "horizontalpodautoscaler.autoscaling/web autoscaled") {
		t.Fatalf("autoscale:\n%s", out)
	}
	d, _ := client.Get[*api.Deployment](c.Client("test"), "default", "web")
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 5 {
		t.Fatalf("replicas under load = %v\n%s", d.Spec.Replicas, out)
	}
	term.Run("kubeplay load deployment/web 0; sleep 600")
	d, _ = client.Get[*api.Deployment](c.Client("test"), "default", "web")
	if *d.Spec.Replicas != 1 {
		t.Fatalf("replicas after the load went = %d", *d.Spec.Replicas)
	}
	var rescales []string
	for _, e := range client.List[*api.Event](c.Client("test"), "default", nil) {
		if e.Reason == "SuccessfulRescale" {
			rescales = append(rescales, e.Message)
		}
	}
	if len(rescales) < 2 || !strings.HasPrefix(rescales[0], "New size: ") {
		t.Fatalf("rescale events %q", rescales)
	}
	t.Log(out)
}

// A restored snapshot's pods keep running: the kubelets adopt them with
// their IPs, start times and restart counts.
func TestRestoreKeepsPodsRunning(t *testing.T) {
	c := NewDefault(Options{Seed: 9})
	c.AddDefaultNode()
	c.AddWorker(&testBinder{c: c, node: DefaultNodeName})
	term := NewTerminal(c)
	term.Run("kubectl create deployment web --image=nginx --replicas=2; sleep 30")
	before := term.Run("kubectl get pods -o wide")
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	r, err := Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.AddWorker(&testBinder{c: r, node: DefaultNodeName})
	rt := NewTerminal(r)
	after := rt.Run("kubectl get pods -o wide")
	if before != after {
		t.Fatalf("before:\n%s\nafter restore:\n%s", before, after)
	}
	r.Advance(10 * time.Second)
	for _, p := range client.List[*api.Pod](r.Client("test"), "default", nil) {
		if !api.IsPodReady(p) || p.Status.ContainerStatuses[0].RestartCount != 0 {
			t.Fatalf("pod %s after restore: %+v", p.Name, p.Status)
		}
	}
	if out := rt.Run("kubectl get events --field-selector reason=Created"); strings.Count(out, "Created container") != 2 {
		t.Fatalf("adoption recorded events:\n%s", out)
	}
}

// An HPA written through autoscaling/v1 (the seed's manifest) is read in
// v2 form: no crash, and minReplicas applies at once.
func TestAutoscalingV1HorizontalPodAutoscaler(t *testing.T) {
	c := NewDefault(Options{Seed: 2})
	c.AddDefaultNode()
	defer c.Close()
	term := NewTerminal(c)
	out := term.Run(`kubectl create deployment app --image=app:1.0.0
kubectl apply -f - <<'EOF'
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: frontend-scaler
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: app
  minReplicas: 3
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
EOF
sleep 30
kubectl get hpa frontend-scaler --no-headers`)
	if !strings.Contains(out, "cpu: <unknown>/50%") {
		t.Fatalf("get hpa:\n%s", out)
	}
	d, _ := client.Get[*api.Deployment](c.Client("test"), "default", "app")
	if *d.Spec.Replicas != 3 {
		t.Fatalf("replicas = %d, want minReplicas 3", *d.Spec.Replicas)
	}
}
