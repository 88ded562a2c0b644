// Package validation checks API objects as upstream's API server does
// before it stores them (pkg/apis/*/validation and apimachinery's
// ObjectMeta, label and name rules), with upstream's field paths and
// messages, so kubectl prints what a real v1.32 cluster prints.
//
// Objects arrive defaulted. Where a defaulted field is still empty (a
// default not applied yet), it is treated as its default rather than
// reported: upstream can never see it empty.
package validation

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateObject checks an object on create.
func ValidateObject(obj api.Object, namespaced bool) field.ErrorList {
	switch o := obj.(type) {
	case *api.Pod:
		return ValidatePodCreate(o)
	case *api.PodTemplate:
		return ValidatePodTemplate(o)
	case *api.Service:
		return ValidateService(o)
	case *api.Namespace:
		return ValidateNamespace(o)
	case *api.Node:
		return ValidateNode(o)
	case *api.ConfigMap:
		return ValidateConfigMap(o)
	case *api.Secret:
		return ValidateSecret(o)
	case *api.ServiceAccount:
		return ValidateServiceAccount(o)
	case *api.PersistentVolume:
		return ValidatePersistentVolume(o)
	case *api.PersistentVolumeClaim:
		return ValidatePersistentVolumeClaim(o)
	case *api.ResourceQuota:
		return ValidateResourceQuota(o)
	case *api.Endpoints:
		return ValidateEndpoints(o)
	case *api.Event:
		return ValidateEvent(o)
	case *api.Deployment:
		return ValidateDeployment(o)
	case *api.ReplicaSet:
		return ValidateReplicaSet(o)
	case *api.StatefulSet:
		return ValidateStatefulSet(o)
	case *api.DaemonSet:
		return ValidateDaemonSet(o)
	case *api.ControllerRevision:
		return ValidateControllerRevision(o)
	case *api.Job:
		return ValidateJob(o)
	case *api.CronJob:
		return ValidateCronJob(o)
	case *api.HorizontalPodAutoscaler:
		return ValidateHorizontalPodAutoscaler(o)
	case *api.HorizontalPodAutoscalerV1:
		return ValidateHorizontalPodAutoscalerV1(o)
	case *api.Scale:
		return ValidateScale(o)
	case *api.PodDisruptionBudget:
		return ValidatePodDisruptionBudget(o)
	case *api.StorageClass:
		return ValidateStorageClass(o)
	case *api.Lease:
		return ValidateLease(o)
	case *api.EndpointSlice:
		return ValidateEndpointSlice(o)
	case *api.Binding:
		return ValidatePodBinding(o)
	}
	return ValidateObjectMeta(obj.GetObjectMeta(), namespaced, NameIsDNSSubdomain, field.NewPath("metadata"))
}

// ValidateObjectUpdate checks an update of old to obj (same kind).
func ValidateObjectUpdate(obj, old api.Object, namespaced bool) field.ErrorList {
	metaUpdate := ValidateObjectMetaUpdate(obj.GetObjectMeta(), old.GetObjectMeta(), field.NewPath("metadata"))
	switch o := obj.(type) {
	case *api.Pod:
		if p, ok := old.(*api.Pod); ok {
			return ValidatePodUpdate(o, p)
		}
	case *api.Service:
		if p, ok := old.(*api.Service); ok {
			return ValidateServiceUpdate(o, p)
		}
	case *api.Namespace:
		return metaUpdate
	case *api.Node:
		if p, ok := old.(*api.Node); ok {
			return ValidateNodeUpdate(o, p)
		}
	case *api.ConfigMap:
		if p, ok := old.(*api.ConfigMap); ok {
			return ValidateConfigMapUpdate(o, p)
		}
	case *api.Secret:
		if p, ok := old.(*api.Secret); ok {
			return ValidateSecretUpdate(o, p)
		}
	case *api.PersistentVolume:
		if p, ok := old.(*api.PersistentVolume); ok {
			return ValidatePersistentVolumeUpdate(o, p)
		}
	case *api.PersistentVolumeClaim:
		if p, ok := old.(*api.PersistentVolumeClaim); ok {
			return ValidatePersistentVolumeClaimUpdate(o, p)
		}
	case *api.ResourceQuota:
		if p, ok := old.(*api.ResourceQuota); ok {
			return ValidateResourceQuotaUpdate(o, p)
		}
	case *api.Event:
		if p, ok := old.(*api.Event); ok {
			return ValidateEventUpdate(o, p)
		}
	case *api.Deployment:
		if p, ok := old.(*api.Deployment); ok {
			return ValidateDeploymentUpdate(o, p)
		}
	case *api.ReplicaSet:
		if p, ok := old.(*api.ReplicaSet); ok {
			return ValidateReplicaSetUpdate(o, p)
		}
	case *api.StatefulSet:
		if p, ok := old.(*api.StatefulSet); ok {
			return ValidateStatefulSetUpdate(o, p)
		}
	case *api.DaemonSet:
		if p, ok := old.(*api.DaemonSet); ok {
			return ValidateDaemonSetUpdate(o, p)
		}
	case *api.ControllerRevision:
		if p, ok := old.(*api.ControllerRevision); ok {
			errs := append(metaUpdate, ValidateControllerRevision(o)...)
			return append(errs, ValidateImmutableField(goValue{o.Data}, goValue{p.Data}, field.NewPath("data"))...)
		}
	case *api.Job:
		if p, ok := old.(*api.Job); ok {
			return ValidateJobUpdate(o, p)
		}
	case *api.CronJob:
		if p, ok := old.(*api.CronJob); ok {
			return ValidateCronJobUpdate(o, p)
		}
	case *api.StorageClass:
		if p, ok := old.(*api.StorageClass); ok {
			return ValidateStorageClassUpdate(o, p)
		}
	case *api.PodTemplate, *api.ServiceAccount, *api.Endpoints, *api.HorizontalPodAutoscaler,
		*api.HorizontalPodAutoscalerV1, *api.PodDisruptionBudget, *api.Lease, *api.EndpointSlice, *api.Scale:
		// Their update rules are the create rules plus metadata's.
		return append(metaUpdate, withoutMeta(ValidateObject(obj, namespaced))...)
	}
	return metaUpdate
}

// withoutMeta drops metadata errors, which on update come from
// ValidateObjectMetaUpdate instead (a stored name was valid when created).
func withoutMeta(errs field.ErrorList) field.ErrorList {
	out := errs[:0:0]
	for _, e := range errs {
		if e.Field == "metadata" || strings.HasPrefix(e.Field, "metadata.") {
			continue
		}
		out = append(out, e)
	}
	return out
}
