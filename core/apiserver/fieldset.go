package apiserver

import (
	"fmt"
	"strconv"

	"kubeplay/core/api"
	"kubeplay/core/api/fields"
)

// FieldSet is the set of fields a field selector may test on obj: every
// kind offers metadata.name and metadata.namespace, and a few kinds more,
// as each upstream registry's GetAttrs does.
func FieldSet(obj api.Object) fields.Set {
	m := obj.GetObjectMeta()
	set := fields.Set{"metadata.name": m.Name}
	if m.Namespace != "" {
		set["metadata.namespace"] = m.Namespace
	}
	switch o := obj.(type) {
	case *api.Pod:
		set["metadata.namespace"] = m.Namespace
		set["spec.nodeName"] = o.Spec.NodeName
		set["spec.restartPolicy"] = string(o.Spec.RestartPolicy)
		set["spec.schedulerName"] = o.Spec.SchedulerName
		set["spec.serviceAccountName"] = o.Spec.ServiceAccountName
		set["spec.hostNetwork"] = strconv.FormatBool(o.Spec.HostNetwork)
		set["status.phase"] = string(o.Status.Phase)
		set["status.podIP"] = o.Status.PodIP
		set["status.nominatedNodeName"] = o.Status.NominatedNodeName
	case *api.Node:
		set["spec.unschedulable"] = strconv.FormatBool(o.Spec.Unschedulable)
	case *api.Namespace:
		set["status.phase"] = string(o.Status.Phase)
	case *api.Secret:
		set["type"] = string(o.Type)
	case *api.ReplicaSet:
		set["status.replicas"] = strconv.Itoa(int(o.Status.Replicas))
	case *api.Job:
		set["status.successful"] = strconv.Itoa(int(o.Status.Succeeded))
	case *api.Event:
		r := o.InvolvedObject
		set["involvedObject.kind"] = r.Kind
		set["involvedObject.namespace"] = r.Namespace
		set["involvedObject.name"] = r.Name
		set["involvedObject.uid"] = string(r.UID)
		set["involvedObject.apiVersion"] = r.APIVersion
		set["involvedObject.resourceVersion"] = r.ResourceVersion
		set["involvedObject.fieldPath"] = r.FieldPath
		set["reason"] = o.Reason
		set["reportingComponent"] = o.ReportingController
		set["source"] = o.Source.Component
		set["type"] = o.Type
	}
	return set
}

// CheckFieldSelector reports a field the resource cannot select on, in the
// API server's words.
func CheckFieldSelector(res *Resource, obj api.Object, sel fields.Selector) error {
	set := FieldSet(obj)
	for _, f := range sel.Fields() {
		if _, ok := set[f]; !ok && f != "metadata.namespace" {
			return fmt.Errorf("field label not supported: %s", f)
		}
	}
	return nil
}
