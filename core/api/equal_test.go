package api

import (
	"reflect"
	"testing"
)

func TestEqualStringMapsIsDeepEqual(t *testing.T) {
	maps := []map[string]string{nil, {}, {"app": "web"}, {"app": "db"}, {"tier": "web"}, {"app": "web", "tier": "front"}}
	for _, a := range maps {
		for _, b := range maps {
			if got, want := EqualStringMaps(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("EqualStringMaps(%#v, %#v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
		}
	}
}

func TestEqualTolerationsIsDeepEqual(t *testing.T) {
	s300, s300b, s60 := Int64(300), Int64(300), Int64(60)
	notReady := Toleration{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: s300}
	lists := [][]Toleration{
		nil,
		{},
		{notReady},
		{{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: s300b}},
		{{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: s60}},
		{{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoExecute}},
		{{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpEqual, Effect: TaintEffectNoExecute, TolerationSeconds: s300}},
		{{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoSchedule, TolerationSeconds: s300}},
		{{Key: "dedicated", Value: "gpu", Operator: TolerationOpEqual, Effect: TaintEffectNoSchedule}},
		{{Key: "dedicated", Value: "cpu", Operator: TolerationOpEqual, Effect: TaintEffectNoSchedule}},
		{notReady, {Key: "dedicated", Value: "gpu", Operator: TolerationOpEqual, Effect: TaintEffectNoSchedule}},
	}
	for _, a := range lists {
		for _, b := range lists {
			if got, want := EqualTolerations(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("EqualTolerations(%v, %v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
		}
	}
}

func TestEqualOwnerReferencesIsDeepEqual(t *testing.T) {
	yes, yes2, no := true, true, false
	rs := OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &yes, BlockOwnerDeletion: &yes}
	lists := [][]OwnerReference{
		nil,
		{},
		{rs},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &yes2, BlockOwnerDeletion: &yes2}},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &no, BlockOwnerDeletion: &yes}},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", BlockOwnerDeletion: &yes}},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &yes}},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-2", UID: "u1", Controller: &yes, BlockOwnerDeletion: &yes}},
		{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u2", Controller: &yes, BlockOwnerDeletion: &yes}},
		{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web-1", UID: "u1", Controller: &yes, BlockOwnerDeletion: &yes}},
		{{APIVersion: "v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &yes, BlockOwnerDeletion: &yes}},
		{rs, {APIVersion: "v1", Kind: "Node", Name: "n1", UID: "u3"}},
	}
	for _, a := range lists {
		for _, b := range lists {
			if got, want := EqualOwnerReferences(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("EqualOwnerReferences(%v, %v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
		}
	}
}
