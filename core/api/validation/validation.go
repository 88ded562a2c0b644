// Package validation checks API objects as upstream's API server does
// before it stores them (pkg/apis/*/validation and apimachinery's
// ObjectMeta, label and name rules), with upstream's field paths and
// messages, so kubectl prints what a real v1.32 cluster prints.
package validation

import (
	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateObject checks an object on create. Objects arrive defaulted.
func ValidateObject(obj api.Object, namespaced bool) field.ErrorList {
	switch o := obj.(type) {
	case *api.Pod:
		return ValidatePodCreate(o)
	case *api.Service:
		return ValidateService(o)
	case *api.Deployment:
		return ValidateDeployment(o)
	case *api.ReplicaSet:
		return ValidateReplicaSet(o)
	}
	return ValidateObjectMeta(obj.GetObjectMeta(), namespaced, NameIsDNSSubdomain, field.NewPath("metadata"))
}

// ValidateObjectUpdate checks an update of old to obj.
func ValidateObjectUpdate(obj, old api.Object, namespaced bool) field.ErrorList {
	switch o := obj.(type) {
	case *api.Pod:
		if p, ok := old.(*api.Pod); ok {
			return ValidatePodUpdate(o, p)
		}
	case *api.Service:
		if p, ok := old.(*api.Service); ok {
			return ValidateServiceUpdate(o, p)
		}
	case *api.Deployment:
		if p, ok := old.(*api.Deployment); ok {
			return ValidateDeploymentUpdate(o, p)
		}
	case *api.ReplicaSet:
		if p, ok := old.(*api.ReplicaSet); ok {
			return ValidateReplicaSetUpdate(o, p)
		}
	}
	return ValidateObjectMetaUpdate(obj.GetObjectMeta(), old.GetObjectMeta(), field.NewPath("metadata"))
}
