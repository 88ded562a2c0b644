package validation

import (
	"testing"

	"kubeplay/core/api"
)

// Quantities in errors print in upstream's canonical form ("0.5" as 500m,
// 1.5Gi as 1536Mi), quoted where upstream passes the string and bare
// where it passes the Quantity.
func TestContainerResourceQuantities(t *testing.T) {
	resources := func(limits, requests api.ResourceList) func(*api.Pod) {
		return func(p *api.Pod) {
			p.Spec.Containers[0].Resources = api.ResourceRequirements{Limits: limits, Requests: requests}
		}
	}
	const path = "spec.containers[0].resources."
	runCreate(t, []createCase{
		{"requests within limits", pod(resources(api.ResourceList{"cpu": qty("1"), "memory": qty("1Gi")}, api.ResourceList{"cpu": qty("0.5"), "memory": qty("1024Mi")})), ""},
		{"cpu request over its limit", pod(resources(api.ResourceList{"cpu": qty("250m")}, api.ResourceList{"cpu": qty("0.5")})),
			path + `requests: Invalid value: "500m": must be less than or equal to cpu limit of 250m`},
		{"memory request over its limit", pod(resources(api.ResourceList{"memory": qty("1Gi")}, api.ResourceList{"memory": qty("1.5Gi")})),
			path + `requests: Invalid value: "1536Mi": must be less than or equal to memory limit of 1Gi`},
		{"negative limit", pod(resources(api.ResourceList{"cpu": qty("-1")}, nil)),
			path + `limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"extended resource not whole", pod(resources(api.ResourceList{"example.com/gpu": qty("1500m")}, api.ResourceList{"example.com/gpu": qty("1.5")})),
			"[" + path + "limits[example.com/gpu]: Invalid value: 1500m: must be an integer, " + path + "requests[example.com/gpu]: Invalid value: 1500m: must be an integer]"},
		{"extended resource request under its limit", pod(resources(api.ResourceList{"example.com/gpu": qty("2")}, api.ResourceList{"example.com/gpu": qty("1")})),
			path + `requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`},
	})
}

// A volume's capacity is checked through Quantity.Value, which rounds away
// from zero as upstream's does: -0.5 is -1, a negative value upstream
// reports before the sign.
func TestPersistentVolumeCapacityQuantities(t *testing.T) {
	pv := func(capacity string) *api.PersistentVolume {
		return &api.PersistentVolume{
			ObjectMeta: api.ObjectMeta{Name: "data"},
			Spec: api.PersistentVolumeSpec{
				Capacity:                      api.ResourceList{api.ResourceStorage: qty(capacity)},
				PersistentVolumeSource:        api.PersistentVolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/data"}},
				AccessModes:                   []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimRetain,
			},
		}
	}
	runCreate(t, []createCase{
		{"positive", pv("1Gi"), ""},
		{"zero", pv("0"), `spec.capacity[storage]: Invalid value: "0": must be greater than zero`},
		{"below zero by half", pv("-0.5"),
			`[spec.capacity[storage]: Invalid value: -1: must be a valid resource quantity, spec.capacity[storage]: Invalid value: "-500m": must be greater than zero]`},
	})
}
