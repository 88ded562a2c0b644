package apiserver

import (
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/defaults"
	apierrors "kubeplay/core/api/errors"
)

// The admission chain, in upstream's order: namespace lifecycle, then the
// mutating plugins (defaulting, service accounts, toleration seconds,
// priority, service IPs), then validation in Create/Update.

// immortalNamespaces cannot be deleted.
var immortalNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

func (s *Server) admitCreate(res *Resource, obj api.Object) error {
	if err := s.namespaceLifecycle(res, obj); err != nil {
		return err
	}
	defaults.Default(obj)
	switch o := obj.(type) {
	case *api.Secret:
		mergeStringData(o)
	case *api.Pod:
		s.admitServiceAccount(o)
		defaultTolerationSeconds(o)
		defaultPriority(o)
	case *api.Service:
		if err := s.ips.allocate(s, o); err != nil {
			return err
		}
	case *api.PersistentVolumeClaim:
		s.defaultStorageClass(o)
		addFinalizer(&o.ObjectMeta, "kubernetes.io/pvc-protection")
	case *api.PersistentVolume:
		addFinalizer(&o.ObjectMeta, "kubernetes.io/pv-protection")
	}
	return nil
}

// defaultStorageClass is the DefaultStorageClass plugin: a claim that names
// no class gets the default one (the newest, if several are marked).
func (s *Server) defaultStorageClass(pvc *api.PersistentVolumeClaim) {
	if pvc.Spec.StorageClassName != nil {
		return
	}
	res, ok := s.Registry.Get("storage.k8s.io", "storageclasses")
	if !ok {
		return
	}
	objs, _ := s.List(res, "", ListOptions{})
	var best *api.StorageClass
	for _, o := range objs {
		sc := o.(*api.StorageClass)
		if sc.Annotations[api.IsDefaultStorageClassAnnotation] != "true" && sc.Annotations[api.BetaIsDefaultStorageClassAnnotation] != "true" {
			continue
		}
		if best == nil || sc.CreationTimestamp.After(best.CreationTimestamp.Time) || sc.CreationTimestamp.Equal(best.CreationTimestamp.Time) && sc.Name < best.Name {
			best = sc
		}
	}
	if best != nil {
		name := best.Name
		pvc.Spec.StorageClassName = &name
	}
}

// addFinalizer is StorageObjectInUseProtection's: claims and volumes are
// not removed while in use.
func addFinalizer(m *api.ObjectMeta, f string) {
	for _, x := range m.Finalizers {
		if x == f {
			return
		}
	}
	m.Finalizers = append(m.Finalizers, f)
}

func (s *Server) admitUpdate(res *Resource, obj, old api.Object) error {
	defaults.Default(obj)
	if secret, ok := obj.(*api.Secret); ok {
		mergeStringData(secret)
	}
	if svc, ok := obj.(*api.Service); ok {
		o := old.(*api.Service)
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP, svc.Spec.ClusterIPs = o.Spec.ClusterIP, o.Spec.ClusterIPs
		}
		initIPFamilyFields(svc, o)
	}
	return nil
}

func (s *Server) admitDelete(res *Resource, obj api.Object) error {
	if isNamespaces(res) && immortalNamespaces[obj.GetObjectMeta().Name] {
		return apierrors.NewForbidden(gr(res), obj.GetObjectMeta().Name, fmt.Errorf("this namespace may not be deleted"))
	}
	return nil
}

// namespaceLifecycle refuses content in a namespace that does not exist or
// is being terminated.
func (s *Server) namespaceLifecycle(res *Resource, obj api.Object) error {
	if !res.Namespaced {
		return nil
	}
	m := obj.GetObjectMeta()
	nsRes, _ := s.Registry.Get("", "namespaces")
	o, ok := s.storeFor(nsRes).get("", m.Namespace)
	if !ok {
		return apierrors.NewNotFound(gr(nsRes), m.Namespace)
	}
	if ns := o.(*api.Namespace); ns.Status.Phase == api.NamespaceTerminating {
		return apierrors.NewForbidden(gr(res), m.Name, fmt.Errorf("unable to create new content in namespace %s because it is being terminated", m.Namespace))
	}
	return nil
}

// tokenProjection is what every pod's service account volume projects:
// one object for all pods, made on first use, since nothing changes a
// stored object (and a pod's own copy is made before any change).
func (s *Server) tokenProjection() *api.ProjectedVolumeSource {
	if s.tokenSource == nil {
		mode := int32(420)
		exp := int64(3607)
		s.tokenSource = &api.ProjectedVolumeSource{
			DefaultMode: &mode,
			Sources: []api.VolumeProjection{
				{ServiceAccountToken: &api.ServiceAccountTokenProjection{ExpirationSeconds: &exp, Path: "token"}},
				{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
			},
		}
	}
	return s.tokenSource
}

// defaultTolerationSeconds gives every pod 300 s of tolerance for a
// not-ready or unreachable node unless it says otherwise.
func defaultTolerationSeconds(pod *api.Pod) {
	for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		found := false
		for _, t := range pod.Spec.Tolerations {
			if (t.Key == key || (t.Key == "" && t.Operator == api.TolerationOpExists)) &&
				(t.Effect == "" || t.Effect == api.TaintEffectNoExecute) {
				found = true
				break
			}
		}
		if !found {
			pod.Spec.Tolerations = append(pod.Spec.Tolerations, api.Toleration{
				Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(300),
			})
		}
	}
}

func defaultPriority(pod *api.Pod) {
	if pod.Spec.Priority == nil {
		pod.Spec.Priority = api.Int32(0)
	}
	if pod.Spec.PreemptionPolicy == nil {
		p := api.PreemptLowerPriority
		pod.Spec.PreemptionPolicy = &p
	}
}

// admitServiceAccount names the default service account and mounts its
// token the way the ServiceAccount plugin does, so pods read like a real
// cluster's in -o yaml and describe.
func (s *Server) admitServiceAccount(pod *api.Pod) {
	if _, mirror := pod.Annotations["kubernetes.io/config.mirror"]; mirror {
		return // a static pod's mirror: the plugin leaves it alone
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = "default"
	}
	pod.Spec.DeprecatedServiceAccount = pod.Spec.ServiceAccountName
	if pod.Spec.AutomountServiceAccountToken != nil && !*pod.Spec.AutomountServiceAccountToken {
		return
	}
	for _, v := range pod.Spec.Volumes {
		if len(v.Name) > len("kube-api-access-") && v.Name[:len("kube-api-access-")] == "kube-api-access-" {
			return
		}
	}
	name := "kube-api-access-" + s.rand.String(5)
	pod.Spec.Volumes = append(pod.Spec.Volumes, api.Volume{Name: name, VolumeSource: api.VolumeSource{Projected: s.tokenProjection()}})
	mount := api.VolumeMount{Name: name, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}
	for i := range pod.Spec.InitContainers {
		pod.Spec.InitContainers[i].VolumeMounts = append(pod.Spec.InitContainers[i].VolumeMounts, mount)
	}
	for i := range pod.Spec.Containers {
		pod.Spec.Containers[i].VolumeMounts = append(pod.Spec.Containers[i].VolumeMounts, mount)
	}
}
