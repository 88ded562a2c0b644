package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

// rollingModel is upstream's rolling-update arithmetic written out on its
// own, for a rollout in which new pods become available together once
// nothing else can move: the ScalingReplicaSet events the Deployment
// controller should record, in order.
func rollingModel(replicas int, surge, unavailable string) []string {
	maxSurge := resolvePercent(surge, replicas, true)
	maxUnavailable := resolvePercent(unavailable, replicas, false)
	if maxSurge == 0 && maxUnavailable == 0 {
		maxUnavailable = 1
	}
	old, oldAvailable := replicas, replicas
	cur, curAvailable := 0, 0
	events := []string{fmt.Sprintf("Scaled up replica set OLD from 0 to %d", replicas)}
	for step := 0; step < 100 && !(cur == replicas && old == 0); step++ {
		// The new ReplicaSet grows first, as far as replicas+maxSurge allows.
		if cur < replicas {
			if room := replicas + maxSurge - (old + cur); room > 0 {
				to := cur + min(room, replicas-cur)
				events = append(events, fmt.Sprintf("Scaled up replica set NEW from %d to %d", cur, to))
				cur = to
				continue
			}
		}
		// Then the old one shrinks while availability stays at
		// replicas-maxUnavailable, counting new pods not yet available.
		minAvailable := replicas - maxUnavailable
		if old > 0 && old+cur-minAvailable-(cur-curAvailable) > 0 {
			if available := oldAvailable + curAvailable; available > minAvailable {
				to := old - min(old, available-minAvailable)
				events = append(events, fmt.Sprintf("Scaled down replica set OLD from %d to %d", old, to))
				old, oldAvailable = to, min(oldAvailable, to)
				continue
			}
		}
		curAvailable = cur
	}
	return events
}

// resolvePercent turns "25%" or "2" into a count of replicas, rounding a
// percentage up for surge and down for unavailability.
func resolvePercent(v string, replicas int, roundUp bool) int {
	if p, ok := strings.CutSuffix(v, "%"); ok {
		n, _ := strconv.Atoi(p)
		f := float64(n) * float64(replicas) / 100
		if roundUp {
			return int(math.Ceil(f))
		}
		return int(math.Floor(f))
	}
	n, _ := strconv.Atoi(v)
	return n
}

// Every replica count from 1 to 10 under each strategy rolls out through
// exactly the steps upstream's arithmetic allows, never exceeding
// replicas+maxSurge pods nor going below replicas-maxUnavailable
// available ones.
func TestRollingUpdateArithmetic(t *testing.T) {
	strategies := []struct{ surge, unavailable string }{
		{"25%", "25%"}, {"1", "0"}, {"0", "1"}, {"50%", "50%"}, {"100%", "0"},
		{"0", "100%"}, {"2", "1"}, {"30%", "0"}, {"0", "34%"}, {"10%", "10%"},
	}
	for _, st := range strategies {
		for replicas := 1; replicas <= 10; replicas++ {
			t.Run(fmt.Sprintf("%d-surge-%s-unavailable-%s", replicas, st.surge, st.unavailable), func(t *testing.T) {
				got := rollOut(t, replicas, st.surge, st.unavailable)
				want := rollingModel(replicas, st.surge, st.unavailable)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("ScalingReplicaSet events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}

// rollOut creates a Deployment, lets it become available, changes its
// image and returns every change of its ReplicaSets' sizes, in the words
// of the ScalingReplicaSet events (which the recorder folds together
// after ten alike), the ReplicaSets named OLD and NEW.
func rollOut(t *testing.T, replicas int, surge, unavailable string) []string {
	c := NewDefault(Options{Seed: 1})
	defer c.Close()
	c.AddDefaultNode()
	cl := c.Client("test")
	res, _ := cl.Registry().ForGoKind("ReplicaSet")
	names := map[string]string{}
	sizes := map[string]int32{}
	var got []string
	stop, err := cl.Watch(res, "default", apiserver.ListOptions{}, func(ev apiserver.WatchEvent) {
		rs, ok := ev.Object.(*api.ReplicaSet)
		if !ok || rs.Spec.Replicas == nil {
			return
		}
		if _, ok := names[rs.Name]; !ok {
			names[rs.Name] = []string{"OLD", "NEW"}[len(names)]
		}
		from, to := sizes[rs.Name], *rs.Spec.Replicas
		sizes[rs.Name] = to
		switch {
		case to > from:
			got = append(got, fmt.Sprintf("Scaled up replica set %s from %d to %d", names[rs.Name], from, to))
		case to < from:
			got = append(got, fmt.Sprintf("Scaled down replica set %s from %d to %d", names[rs.Name], from, to))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	term := NewTerminal(c)
	out := term.Run(fmt.Sprintf(`kubectl apply -f - <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  strategy:
    rollingUpdate:
      maxSurge: %s
      maxUnavailable: %s
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
EOF
sleep 30
kubectl set image deployment/web web=nginx:1.16.1
sleep 120
kubectl get deployment web --no-headers`, replicas, surge, unavailable))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	fields := strings.Fields(lines[len(lines)-1])
	want := []string{"web", fmt.Sprintf("%d/%d", replicas, replicas), strconv.Itoa(replicas), strconv.Itoa(replicas)}
	if len(fields) < 4 || strings.Join(fields[:4], " ") != strings.Join(want, " ") {
		t.Fatalf("the rollout did not finish:\n%s", out)
	}
	return got
}
