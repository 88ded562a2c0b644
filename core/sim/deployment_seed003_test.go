package sim

import (
	"regexp"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// Seed 003: a 3-replica Deployment updated with the default 25%/25%
// strategy scales its ReplicaSets in exactly this order (surge rounds up
// to 1, unavailable rounds down to 0).
func TestSeed003RollingUpdateEventSequence(t *testing.T) {
	c := NewDefault(Options{Seed: 3})
	c.AddDefaultNode()
	term := NewTerminal(c)
	term.Run(`kubectl apply -f - <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-deployment
  labels:
    app: app
spec:
  replicas: 3
  selector:
    matchLabels:
      app: app
  template:
    metadata:
      labels:
        app: app
    spec:
      containers:
        - name: app
          image: app:1.0.0
          ports:
            - containerPort: 8080
EOF
sleep 5
kubectl set image deployment/app-deployment app=app:1.0.1
sleep 5`)
	hash := regexp.MustCompile(`app-deployment-[a-z0-9]+`)
	names := map[string]string{}
	var got []string
	for _, e := range client.List[*api.Event](c.Client("test"), "default", nil) {
		if e.Reason != "ScalingReplicaSet" {
			continue
		}
		msg := hash.ReplaceAllStringFunc(e.Message, func(rs string) string {
			if _, ok := names[rs]; !ok {
				names[rs] = []string{"OLD", "NEW"}[len(names)]
			}
			return names[rs]
		})
		got = append(got, msg)
	}
	want := []string{
		"Scaled up replica set OLD from 0 to 3",
		"Scaled up replica set NEW from 0 to 1",
		"Scaled down replica set OLD from 3 to 2",
		"Scaled up replica set NEW from 1 to 2",
		"Scaled down replica set OLD from 2 to 1",
		"Scaled up replica set NEW from 2 to 3",
		"Scaled down replica set OLD from 1 to 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ScalingReplicaSet events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
