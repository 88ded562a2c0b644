// Package defaults fills the fields the API server defaults on create and
// update, as upstream v1.32's defaulting functions do (pkg/apis/*/v1
// defaults.go and their generated zz_generated.defaults.go): what a user
// leaves out of a manifest and `kubectl get -o yaml` shows set.
//
// Only defaulting lives here. Values the registry assigns on create (a
// service's cluster IP and ipFamilies/ipFamilyPolicy, a Job's generated
// selector, a namespace's spec.finalizers) belong to the API server.
package defaults

import "kubeplay/core/api"

// Default sets the defaults of obj in place. It is idempotent: defaulting a
// defaulted object changes nothing. Kinds without defaults are left alone.
func Default(obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		defaultPod(o)
	case *api.PodTemplate:
		defaultPodTemplateSpec(&o.Template)
	case *api.ReplicaSet:
		defaultReplicaSet(o)
	case *api.Deployment:
		defaultDeployment(o)
	case *api.StatefulSet:
		defaultStatefulSet(o)
	case *api.DaemonSet:
		defaultDaemonSet(o)
	case *api.Job:
		defaultJob(o)
	case *api.CronJob:
		defaultCronJob(o)
	case *api.Service:
		defaultService(o)
	case *api.Endpoints:
		defaultEndpoints(o)
	case *api.EndpointSlice:
		defaultEndpointSlice(o)
	case *api.Namespace:
		defaultNamespace(o)
	case *api.Node:
		defaultNode(o)
	case *api.Secret:
		if o.Type == "" {
			o.Type = api.SecretTypeOpaque
		}
	case *api.ResourceQuota:
		roundResourceList(o.Spec.Hard)
		roundResourceList(o.Status.Hard)
		roundResourceList(o.Status.Used)
	case *api.PersistentVolume:
		defaultPersistentVolume(o)
	case *api.PersistentVolumeClaim:
		defaultPersistentVolumeClaim(o)
	case *api.StorageClass:
		defaultStorageClass(o)
	case *api.HorizontalPodAutoscaler:
		defaultHPA(o)
	case *api.HorizontalPodAutoscalerV1:
		if o.Spec.MinReplicas == nil {
			o.Spec.MinReplicas = ptr[int32](1)
		}
	}
}

// ptr returns a pointer to a fresh copy of v.
func ptr[T any](v T) *T { return &v }
