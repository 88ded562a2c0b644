package apiserver

import (
	"reflect"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/validation"
)

// Per-kind rules the registry applies around storage, as upstream's
// registry strategies do (PrepareForCreate, CheckGracefulDelete, …).

// prepareForCreate resets what a client may not set on create.
func prepareForCreate(res *Resource, obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		o.Status = api.PodStatus{Phase: api.PodPending, QOSClass: qosClass(&o.Spec)}
	case *api.Namespace:
		o.Status = api.NamespaceStatus{Phase: api.NamespaceActive}
		// Every namespace is finalized by the namespace controller.
		o.Spec.Finalizers = []string{api.FinalizerKubernetes}
		labelNamespaceName(o)
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.StatefulSet:
		o.Status = api.StatefulSetStatus{}
	case *api.DaemonSet:
		o.Status = api.DaemonSetStatus{}
		setAnnotation(&o.ObjectMeta, daemonSetTemplateGeneration, "1")
	case *api.Job:
		o.Status = api.JobStatus{}
		generateJobSelector(o)
	case *api.PersistentVolumeClaim:
		o.Status = api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}
	case *api.PersistentVolume:
		o.Status = api.PersistentVolumeStatus{Phase: api.VolumePending}
	}
}

// generateJobSelector is the Job strategy's: unless the user manages the
// selector, the job's pods are labelled with its uid and name, and the
// selector is the uid label.
func generateJobSelector(job *api.Job) {
	if job.Spec.ManualSelector != nil && *job.Spec.ManualSelector {
		return
	}
	t := &job.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[api.LegacyControllerUidLabel] = job.UID
	t.Labels[api.LegacyJobNameLabel] = job.Name
	t.Labels[api.ControllerUidLabel] = job.UID
	t.Labels[api.JobNameLabel] = job.Name
	job.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{api.ControllerUidLabel: job.UID}}
	if len(job.Labels) == 0 {
		job.Labels = map[string]string{}
		for k, v := range t.Labels {
			job.Labels[k] = v
		}
	}
}

// daemonSetTemplateGeneration counts a DaemonSet's template changes; the
// controller labels pods with it (pod-template-generation).
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

func setAnnotation(m *api.ObjectMeta, k, v string) {
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[k] = v
}

// prepareForUpdate keeps what an update may not change.
func prepareForUpdate(res *Resource, obj, old api.Object, subresource string) {
	if ds, ok := obj.(*api.DaemonSet); ok && subresource == "" {
		prev := old.(*api.DaemonSet)
		gen := prev.Annotations[daemonSetTemplateGeneration]
		if !reflect.DeepEqual(ds.Spec.Template, prev.Spec.Template) {
			n, _ := strconv.Atoi(gen)
			gen = strconv.Itoa(n + 1)
		}
		if gen != "" {
			setAnnotation(&ds.ObjectMeta, daemonSetTemplateGeneration, gen)
		}
	}
	if ns, ok := obj.(*api.Namespace); ok {
		if subresource != "finalize" {
			ns.Spec.Finalizers = old.(*api.Namespace).Spec.Finalizers
		}
		labelNamespaceName(ns)
	}
}

// labelNamespaceName sets the immutable kubernetes.io/metadata.name label.
func labelNamespaceName(ns *api.Namespace) {
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels["kubernetes.io/metadata.name"] = ns.Name
}

// gracePeriod is the grace period a delete gets: pods use their own unless
// the request names one; unscheduled and finished pods go at once.
func gracePeriod(res *Resource, obj api.Object, opts api.DeleteOptions) int64 {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return 0
	}
	g := int64(30)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		g = *pod.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		g = *opts.GracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		g = 0
	}
	if g < 0 {
		g = 0
	}
	return g
}

func isNamespaces(res *Resource) bool { return res.Group == "" && res.Name == "namespaces" }

// specFinalizersRemain: a namespace is also held by spec.finalizers
// ("kubernetes") until the namespace controller has emptied it and
// finalized it.
func specFinalizersRemain(obj api.Object) bool {
	ns, ok := obj.(*api.Namespace)
	return ok && len(ns.Spec.Finalizers) > 0
}

// beginTermination makes the status changes a delete implies.
func beginTermination(res *Resource, obj api.Object) {
	if ns, ok := obj.(*api.Namespace); ok {
		ns.Status.Phase = api.NamespaceTerminating
	}
}

func validateCreate(res *Resource, obj api.Object) field.ErrorList {
	return validation.ValidateObject(obj, res.Namespaced)
}

func validateUpdate(res *Resource, obj, old api.Object) field.ErrorList {
	return validation.ValidateObjectUpdate(obj, old, res.Namespaced)
}

// qosClass is the pod's quality-of-service class, from its containers'
// requests and limits, as upstream computes it.
func qosClass(spec *api.PodSpec) string {
	requests, limits := 0, 0
	guaranteed := true
	all := append(append([]api.Container{}, spec.InitContainers...), spec.Containers...)
	for _, c := range all {
		for _, name := range []string{"cpu", "memory"} {
			req, hasReq := c.Resources.Requests[name]
			lim, hasLim := c.Resources.Limits[name]
			if hasReq && !req.IsZero() {
				requests++
			}
			if hasLim && !lim.IsZero() {
				limits++
			}
			if !hasLim || lim.IsZero() || (hasReq && req.Cmp(lim) != 0) {
				guaranteed = false
			}
		}
	}
	switch {
	case requests == 0 && limits == 0:
		return string(api.PodQOSBestEffort)
	case guaranteed:
		return string(api.PodQOSGuaranteed)
	default:
		return string(api.PodQOSBurstable)
	}
}
