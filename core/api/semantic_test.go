package api

import (
	"testing"
	"time"

	"kubeplay/core/api/resource"
)

func TestSemanticEqual(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	shanghai := time.FixedZone("CST", 8*3600)
	type inner struct{ n int }
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"nil and empty slices", PodSpec{Containers: []Container{{Name: "a", Env: nil}}}, PodSpec{Containers: []Container{{Name: "a", Env: []EnvVar{}}}}, true},
		{"nil and empty maps", ObjectMeta{Labels: nil}, ObjectMeta{Labels: map[string]string{}}, true},
		{"a slice's elements", []string{"a"}, []string{"b"}, false},
		{"a map's values", map[string]string{"app": "web"}, map[string]string{"app": "api"}, false},
		{"a map's keys", map[string]string{"app": "web"}, map[string]string{"tier": "web"}, false},
		{"quantities by value", ResourceList{"cpu": resource.MustParse("1")}, ResourceList{"cpu": resource.MustParse("1000m")}, true},
		{"different quantities", ResourceList{"cpu": resource.MustParse("1")}, ResourceList{"cpu": resource.MustParse("999m")}, false},
		{"times by instant", ObjectMeta{CreationTimestamp: NewTime(at)}, ObjectMeta{CreationTimestamp: NewTime(at.In(shanghai))}, true},
		{"different times", ObjectMeta{CreationTimestamp: NewTime(at)}, ObjectMeta{CreationTimestamp: NewTime(at.Add(time.Second))}, false},
		{"nil and set pointers", Container{Stdin: false, TTY: false, SecurityContext: nil}, Container{SecurityContext: &SecurityContext{}}, false},
		{"unexported fields", inner{1}, inner{2}, false},
		{"different types", int32(1), int64(1), false},
		{"nils", nil, nil, true},
	} {
		if got := SemanticEqual(c.a, c.b); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got := SemanticEqual(c.b, c.a); got != c.want {
			t.Errorf("%s, the other way: %v, want %v", c.name, got, c.want)
		}
	}
}
