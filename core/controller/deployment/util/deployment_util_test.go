package util

import (
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

func ios(s string) *intstr.IntOrString {
	v := intstr.Parse(s)
	return &v
}

// Surge rounds up and unavailability rounds down; both zero would never
// progress, so unavailability becomes one.
func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable string
		desired            int32
		wantSurge, wantU   int32
	}{
		{"25%", "25%", 3, 1, 0},
		{"25%", "25%", 4, 1, 1},
		{"25%", "25%", 10, 3, 2},
		{"0", "0", 5, 0, 1},
		{"1", "0", 3, 1, 0},
		{"50%", "50%", 1, 1, 0},
		{"0%", "100%", 3, 0, 3},
	} {
		s, u := ResolveFenceposts(ios(tc.surge), ios(tc.unavailable), tc.desired)
		if s != tc.wantSurge || u != tc.wantU {
			t.Errorf("surge %s unavailable %s of %d: got %d/%d, want %d/%d", tc.surge, tc.unavailable, tc.desired, s, u, tc.wantSurge, tc.wantU)
		}
	}
}

func rs(replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: &replicas}}
}

func rolling(replicas int32, surge, unavailable string) *api.Deployment {
	return &api.Deployment{Spec: api.DeploymentSpec{Replicas: &replicas, Strategy: api.DeploymentStrategy{
		Type:          api.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: ios(surge), MaxUnavailable: ios(unavailable)},
	}}}
}

// The new ReplicaSet grows only as far as replicas+maxSurge allows.
func TestNewRSNewReplicas(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         *api.Deployment
		old, new_ int32
		want      int32
	}{
		{"first step of a 3-replica update", rolling(3, "25%", "25%"), 3, 0, 1},
		{"surge used up", rolling(3, "25%", "25%"), 3, 1, 1},
		{"old scaled down", rolling(3, "25%", "25%"), 2, 1, 2},
		{"fresh deployment", rolling(3, "25%", "25%"), 0, 0, 3},
		{"never beyond replicas", rolling(3, "100%", "0"), 0, 2, 3},
	} {
		oldRS, newRS := rs(tc.old), rs(tc.new_)
		if got := NewRSNewReplicas(tc.d, []*api.ReplicaSet{oldRS, newRS}, newRS); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
}

// A reused ReplicaSet keeps its earlier revisions in revision-history:
// after a rollback revision 3 becomes 5 and remembers 3.
func TestRevisionHistoryOnReuse(t *testing.T) {
	d := rolling(3, "25%", "25%")
	r := rs(0)
	r.Annotations = map[string]string{api.RevisionAnnotation: "3"}
	if !SetNewReplicaSetAnnotations(d, r, "5", true, MaxRevHistoryLengthInChars) {
		t.Fatal("annotations not changed")
	}
	if r.Annotations[api.RevisionAnnotation] != "5" || r.Annotations[api.RevisionHistoryAnnotation] != "3" {
		t.Fatalf("got %v", r.Annotations)
	}
}

// A ReplicaSet's template is the Deployment's when they differ only in the
// hash label, unset against empty lists and maps, and how a quantity is
// written, as upstream's Semantic.DeepEqual has it.
func TestEqualIgnoreHash(t *testing.T) {
	base := func() *api.PodTemplateSpec {
		return &api.PodTemplateSpec{
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{Containers: []api.Container{{
				Name: "web", Image: "nginx:1.25",
				Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse("500m")}},
			}}},
		}
	}
	for _, c := range []struct {
		name   string
		change func(*api.PodTemplateSpec)
		want   bool
	}{
		{"the same", func(*api.PodTemplateSpec) {}, true},
		{"the hash label", func(p *api.PodTemplateSpec) { p.Labels[api.DefaultDeploymentUniqueLabelKey] = "5d4f8b7c9" }, true},
		{"an empty env list", func(p *api.PodTemplateSpec) { p.Spec.Containers[0].Env = []api.EnvVar{} }, true},
		{"an empty annotation map", func(p *api.PodTemplateSpec) { p.Annotations = map[string]string{} }, true},
		{"the quantity written otherwise", func(p *api.PodTemplateSpec) {
			p.Spec.Containers[0].Resources.Requests["cpu"] = resource.MustParse("0.5")
		}, true},
		{"another image", func(p *api.PodTemplateSpec) { p.Spec.Containers[0].Image = "nginx:1.26" }, false},
		{"another label", func(p *api.PodTemplateSpec) { p.Labels["tier"] = "front" }, false},
		{"a request more", func(p *api.PodTemplateSpec) {
			p.Spec.Containers[0].Resources.Requests["memory"] = resource.MustParse("64Mi")
		}, false},
		{"an annotation", func(p *api.PodTemplateSpec) {
			p.Annotations = map[string]string{"kubectl.kubernetes.io/restartedAt": "now"}
		}, false},
	} {
		changed := base()
		c.change(changed)
		if got := EqualIgnoreHash(base(), changed); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	onlyHash, none := base(), base()
	onlyHash.Labels = map[string]string{api.DefaultDeploymentUniqueLabelKey: "5d4f8b7c9"}
	none.Labels = nil
	if !EqualIgnoreHash(onlyHash, none) {
		t.Error("a template labelled with its hash alone differs from one without labels")
	}
}
