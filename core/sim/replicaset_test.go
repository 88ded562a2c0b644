package sim

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

func replicaSet(name string, replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": name}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}
}

func ownedPods(c *Cluster, owner string) []*api.Pod {
	var out []*api.Pod
	for _, p := range client.List[*api.Pod](c.Client("test"), "default", nil) {
		if ref := p.GetControllerOf(); ref != nil && ref.Name == owner && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// The ReplicaSet controller creates pods up to replicas, replaces a
// deleted one, adopts a matching orphan and deletes the surplus.
func TestReplicaSetKeepsReplicas(t *testing.T) {
	c := NewDefault(Options{Seed: 3})
	cl := c.Client("test")
	if _, err := client.Create(cl, replicaSet("web", 3)); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	pods := ownedPods(c, "web")
	if len(pods) != 3 {
		t.Fatalf("got %d pods, want 3", len(pods))
	}
	if err := client.Delete[*api.Pod](cl, "default", pods[0].Name, api.DeleteOptions{GracePeriodSeconds: api.Int64(0)}); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	if n := len(ownedPods(c, "web")); n != 3 {
		t.Fatalf("after a deletion: %d pods, want 3", n)
	}
	orphan := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if _, err := client.Create(cl, orphan); err != nil {
		t.Fatal(err)
	}
	c.Settle()
	pods = ownedPods(c, "web")
	if len(pods) != 3 {
		t.Fatalf("after adopting: %d pods, want 3", len(pods))
	}
	rs, _ := client.Get[*api.ReplicaSet](cl, "default", "web")
	if rs.Status.Replicas != 3 || rs.Status.ObservedGeneration != rs.Generation {
		t.Fatalf("status %+v", rs.Status)
	}
	var reasons []string
	for _, e := range client.List[*api.Event](cl, "default", nil) {
		if e.InvolvedObject.Name == "web" {
			reasons = append(reasons, e.Reason)
		}
	}
	creates, deletes := 0, 0
	for _, r := range reasons {
		switch r {
		case "SuccessfulCreate":
			creates++
		case "SuccessfulDelete":
			deletes++
		}
	}
	if creates != 4 || deletes != 1 {
		t.Fatalf("events %v: want 4 creates and 1 delete", reasons)
	}
}
