package defaults

import (
	"reflect"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

// Every served kind, even empty, defaults without panicking and only once.
func TestEveryKindIsIdempotent(t *testing.T) {
	for _, gvk := range api.Kinds() {
		obj, ok := api.New(gvk.APIVersion(), gvk.Kind)
		if !ok {
			t.Fatalf("api.New(%v) failed", gvk)
		}
		Default(obj)
		again := obj.DeepCopyObject()
		Default(again)
		if !reflect.DeepEqual(obj, again) {
			t.Errorf("%s: defaulting twice changed the object", gvk.Kind)
		}
	}
}

func TestNamespaceWithoutNameGetsNoLabel(t *testing.T) {
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{GenerateName: "demo-"}}
	Default(ns)
	if ns.Labels != nil || ns.Status.Phase != api.NamespaceActive {
		t.Errorf("got labels %v, phase %q", ns.Labels, ns.Status.Phase)
	}
}

func TestServiceTargetPort(t *testing.T) {
	for _, tc := range []struct {
		name       string
		targetPort intstr.IntOrString
		want       intstr.IntOrString
	}{
		{"unset", intstr.IntOrString{}, intstr.FromInt(80)},
		{"empty string", intstr.FromString(""), intstr.FromInt(80)},
		{"zero", intstr.FromInt(0), intstr.FromInt(80)},
		{"number", intstr.FromInt(8080), intstr.FromInt(8080)},
		{"name", intstr.FromString("http"), intstr.FromString("http")},
	} {
		svc := &api.Service{Spec: api.ServiceSpec{Ports: []api.ServicePort{{Port: 80, TargetPort: tc.targetPort}}}}
		Default(svc)
		if got := svc.Spec.Ports[0].TargetPort; got != tc.want {
			t.Errorf("%s: targetPort = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Requests copied from limits belong to the pod: changing one map must not
// change the other.
func TestPodRequestsDoNotShareLimits(t *testing.T) {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name: "c", Image: "nginx",
		Resources: api.ResourceRequirements{Limits: api.ResourceList{api.ResourceCPU: mustQuantity("1")}},
	}}}}
	Default(pod)
	r := &pod.Spec.Containers[0].Resources
	r.Requests[api.ResourceCPU] = mustQuantity("2")
	if got := r.Limits.Cpu(); got.String() != "1" {
		t.Errorf("limit changed to %s", got.String())
	}
}

// A Job's labels come from its template, as a copy.
func TestJobLabelsAreACopy(t *testing.T) {
	job := &api.Job{Spec: api.JobSpec{Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "x"}}}}}
	Default(job)
	job.Labels["extra"] = "y"
	if len(job.Spec.Template.Labels) != 1 {
		t.Errorf("template labels changed: %v", job.Spec.Template.Labels)
	}
}

func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }
